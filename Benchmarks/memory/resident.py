#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""What makes a running process's pages resident, mapped back to files, ELF sections and symbols.

    resident.py PID [--binary PATH] [--top N] [--files-only] [--json FILE]

1. Per mapped file (from /proc/PID/smaps): Rss, Private_Clean, Private_Dirty, and the rest
   (shared with another process).
2. For the program's own file (/proc/PID/exe, or --binary for the unstripped copy): which of
   its pages are present in the process's page table (/proc/PID/pagemap, bit 63: exactly the
   pages VmRSS counts), per ELF section.
3. Each present page of the executable sections, split among the symbols it holds (bytes of
   overlap; `nm -S`), summed per component: our modules (the code has line info in our
   Sources), the Swift standard library by area (String, Unicode, Dictionary, …), the Swift
   runtime (C++), and the rest; then the top symbols.

A page is attributed to every symbol it overlaps, in proportion to bytes: a 40-byte function
alone on a page still "costs" only 40 bytes here, and the rest of the page is counted against
its neighbours. The kernel maps file pages around a faulting one (fault-around, 64 KB), so a
neighbour can be resident without running; `faults.py` says which code faulted.

Needs root for other users' processes (pagemap), binutils (nm, addr2line, readelf) and
swift-demangle (from the toolchain, found next to `swift` or in /opt/swift/usr/bin).
"""
import argparse
import collections
import json
import os
import re
import shutil
import struct
import subprocess
import sys

PAGE = os.sysconf('SC_PAGE_SIZE')


def smaps_by_file(pid):
    """{path: {'Rss': kB, 'Private_Clean': kB, 'Private_Dirty': kB}} (anonymous as '[anon]')."""
    out = collections.defaultdict(lambda: collections.Counter())
    name = None
    with open('/proc/%d/smaps' % pid) as f:
        for line in f:
            if re.match(r'^[0-9a-f]+-[0-9a-f]+ ', line):
                parts = line.split()
                name = parts[5] if len(parts) > 5 else '[anon]'
            else:
                key, _, value = line.partition(':')
                if key in ('Rss', 'Private_Clean', 'Private_Dirty', 'Pss'):
                    out[name][key] += int(value.split()[0])
    return out


def mappings(pid, path):
    """[(start, end, file offset)] of `path` in the process."""
    result = []
    with open('/proc/%d/maps' % pid) as f:
        for line in f:
            parts = line.split()
            if len(parts) > 5 and parts[5] == path:
                start, end = (int(x, 16) for x in parts[0].split('-'))
                result.append((start, end, int(parts[2], 16)))
    return result


def present_offsets(pid, path):
    """File offsets (page-aligned) of `path`'s pages present in the process's page table."""
    offsets = set()
    with open('/proc/%d/pagemap' % pid, 'rb') as pm:
        for start, end, offset in mappings(pid, path):
            pm.seek(start // PAGE * 8)
            data = pm.read((end - start) // PAGE * 8)
            for i in range(len(data) // 8):
                entry, = struct.unpack_from('<Q', data, i * 8)
                if entry >> 63:
                    offsets.add(offset + i * PAGE)
    return offsets


def sections(binary):
    """[(name, address, file offset, size, flags)] of the allocated sections."""
    out = []
    text = subprocess.run(['readelf', '-SW', binary], check=True, capture_output=True, text=True).stdout
    for line in text.splitlines():
        m = re.match(r'\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+\S+\s+(\S*)', line)
        if m and 'A' in m.group(6) and m.group(2) != 'NOBITS':
            out.append((m.group(1), int(m.group(3), 16), int(m.group(4), 16), int(m.group(5), 16), m.group(6)))
    return out


def find_tool(name):
    found = shutil.which(name)
    if found:
        return found
    swift = shutil.which('swift')
    for d in ([os.path.dirname(os.path.realpath(swift))] if swift else []) + ['/opt/swift/usr/bin']:
        if os.access(os.path.join(d, name), os.X_OK):
            return os.path.join(d, name)
    return None


def symbols(binary):
    """Sorted [(address, size, mangled name)] of the defined functions and objects with a size."""
    out = []
    text = subprocess.run(['nm', '-n', '-S', '--defined-only', binary], check=True, capture_output=True,
                          text=True).stdout
    for line in text.splitlines():
        parts = line.split(None, 3)
        if len(parts) == 4 and parts[2] in 'tTwWrRdDvV':
            size = int(parts[1], 16)
            if size:
                out.append((int(parts[0], 16), size, parts[3]))
    return out


def demangle(names):
    """{mangled: demangled}, Swift names through swift-demangle, C++ through c++filt."""
    result = {n: n for n in names}
    swift = [n for n in names if n.startswith('$s') or n.startswith('_$s')]
    cxx = [n for n in names if n.startswith('_Z')]
    tool = find_tool('swift-demangle')
    if tool and swift:
        out = subprocess.run([tool], input='\n'.join(swift) + '\n', capture_output=True, text=True).stdout.splitlines()
        result.update(zip(swift, out))
    if cxx:
        out = subprocess.run(['c++filt'], input='\n'.join(cxx) + '\n', capture_output=True, text=True).stdout.splitlines()
        result.update(zip(cxx, out))
    return result


def our_code(binary, addresses, sources_root):
    """{address: our module name} for the addresses whose line info is in our Sources."""
    if not addresses:
        return {}
    out = subprocess.run(['addr2line', '-e', binary] + ['%x' % a for a in addresses],
                         capture_output=True, text=True).stdout.splitlines()
    result = {}
    for a, where in zip(addresses, out):
        m = re.search(re.escape(sources_root) + r'/([^/]+)/', where)
        if m:
            result[a] = m.group(1)
    return result


SPECIALIZATION = re.compile(r'^(?:merged )?(?:generic |function signature |generic partial )?specialization <')
PLAIN_PREFIXES = re.compile(r'^(?:merged |static |partial apply forwarder for |protocol witness for |'
                            r'outlined [a-z ]+of |reabstraction thunk helper .*? from |type metadata accessor for |'
                            r'lazy protocol witness table accessor for type |(?:protocol conformance|nominal type) '
                            r'descriptor for |(?:value|type) witness (?:table )?for |dispatch thunk of |'
                            r'key path (?:getter|setter) for |[a-zA-Z_]+ #\d+ .*? in |'
                            r'(?:method|associated conformance|base conformance|protocol requirements base) descriptor for |'
                            r'associated type witness table accessor for .*? in (?:< [^>]*> )?|'
                            r'(?:full )?type metadata (?:pattern |completion function |instantiation cache )?for |'
                            r'(?:protocol witness table(?: pattern)?|instantiation function for generic protocol witness table) for '
                            r'(?:<[^>]*> )?|[a-zA-Z]+ value witness for |'
                            r'(?:getter|setter|modify|read|unsafeAddressor|deinit|init) (?:for|of) )')


def subject(demangled):
    """The function a wrapper (specialization, closure, witness, ...) is about."""
    text = re.sub(r'\(extension in [A-Za-z_]+\):', '', demangled)
    for _ in range(8):
        m = SPECIALIZATION.match(text)
        if m:
            depth, i = 1, m.end()
            while i < len(text) and depth:
                if text[i] == '<' or (text[i] == '>' and text[i - 1] != '-'):   # `->` is no bracket
                    depth += 1 if text[i] == '<' else -1
                i += 1
            text = text[i:].removeprefix(' of ')
            continue
        stripped = PLAIN_PREFIXES.sub('', text, count=1)
        if stripped == text:
            break
        text = stripped
    return text


def swift_area(demangled):
    """`Swift.String`, `Swift.Unicode`, … for a standard library symbol; None when not the stdlib's."""
    text = subject(demangled)
    m = re.match(r'\(?(?:Swift|Glibc|_Concurrency|_StringProcessing)\.\(?([A-Za-z_][A-Za-z0-9_]*)', text)
    if not m:
        return None
    area = m.group(1)
    for prefix, name in (('_String', 'String'), ('_Small', 'String'), ('Unicode', 'Unicode'),
                         ('_Unicode', 'Unicode'), ('_Native', 'Dictionary/Set'), ('_Hash', 'Dictionary/Set'),
                         ('_Dictionary', 'Dictionary/Set'), ('_Set', 'Dictionary/Set'), ('Dictionary', 'Dictionary/Set'),
                         ('Set', 'Dictionary/Set'), ('_Contiguous', 'Array'), ('_Array', 'Array'),
                         ('Array', 'Array'), ('ContiguousArray', 'Array'), ('Substring', 'String'),
                         ('Character', 'String'), ('_Character', 'String'), ('_Float', 'numbers'),
                         ('Float', 'numbers'), ('Double', 'numbers'), ('Int', 'numbers'), ('UInt', 'numbers'),
                         ('_print', 'print/describing'), ('print', 'print/describing'), ('_debugPrint', 'print/describing'),
                         ('String', 'String'), ('_Stdout', 'print/describing'), ('_Unsafe', 'pointers'), ('Unsafe', 'pointers')):
        if area.startswith(prefix):
            return 'Swift.' + name
    return 'Swift.' + area


def component(mangled, demangled, ours):
    if ours:
        return 'ours: ' + ours
    if mangled.startswith('$s') or mangled.startswith('_$s'):
        area = swift_area(demangled)
        if area:
            return 'stdlib: ' + area
        return 'Swift (other modules)'
    if mangled.startswith('_Z'):
        if 'swift::' in demangled or '__swift::' in demangled:
            return 'Swift runtime (C++)'
        if 'std::' in demangled or 'llvm::' in demangled:
            return 'runtime: C++ support (std::, llvm::)'
        return 'C++ (other)'
    if mangled.startswith('swift_') or mangled.startswith('_swift') or mangled.startswith('swift'):
        return 'Swift runtime (C)'
    return 'C (other)'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('pid', type=int)
    ap.add_argument('--binary', help='unstripped copy of the program (default: /proc/PID/exe)')
    ap.add_argument('--sources', default=os.path.abspath(os.path.join(os.path.dirname(__file__), '../../Sources')),
                    help='our Sources directory, to tell our code from the libraries (default: the package\'s)')
    ap.add_argument('--top', type=int, default=25)
    ap.add_argument('--files-only', action='store_true', help='only the table per mapped file')
    ap.add_argument('--json', help='also write every figure as JSON to this file')
    args = ap.parse_args()

    exe = os.readlink('/proc/%d/exe' % args.pid)
    binary = args.binary or exe
    report = {'pid': args.pid, 'exe': exe}

    files = smaps_by_file(args.pid)
    total = collections.Counter()
    for v in files.values():
        total.update(v)
    print('process %d (%s): Rss %d kB, private %d kB (clean %d, dirty %d)'
          % (args.pid, exe, total['Rss'], total['Private_Clean'] + total['Private_Dirty'],
             total['Private_Clean'], total['Private_Dirty']))
    print()
    print('%8s %8s %8s %8s  %s' % ('Rss kB', 'Pr.Clean', 'Pr.Dirty', 'shared', 'mapping'))
    rows = sorted(files.items(), key=lambda kv: -kv[1]['Rss'])
    for path, v in rows:
        if v['Rss']:
            print('%8d %8d %8d %8d  %s' % (v['Rss'], v['Private_Clean'], v['Private_Dirty'],
                                          v['Rss'] - v['Private_Clean'] - v['Private_Dirty'], path))
    report['files'] = {k: dict(v) for k, v in files.items()}
    if args.files_only:
        if args.json:
            with open(args.json, 'w') as f:
                json.dump(report, f, indent=1)
        return

    present = present_offsets(args.pid, exe)
    secs = sections(binary)
    print()
    print('%s: %d kB of its file mapped and present' % (exe, len(present) * PAGE // 1024))
    print('%8s %10s  %s' % ('present', 'size', 'section (bytes of present pages that fall in it)'))
    per_section = {}
    for name, addr, off, size, flags in secs:
        resident = 0
        first, last = off // PAGE * PAGE, (off + size - 1) // PAGE * PAGE
        for page in range(first, last + PAGE, PAGE):
            if page in present:
                resident += min(off + size, page + PAGE) - max(off, page)
        per_section[name] = {'size': size, 'resident': resident, 'flags': flags}
    for name, v in sorted(per_section.items(), key=lambda kv: -kv[1]['resident']):
        if v['resident']:
            print('%6d kB %7d kB  %s' % (v['resident'] // 1024, v['size'] // 1024, name))
    report['sections'] = per_section

    # Symbols on present pages of the sections that hold code or constant data.
    exec_ranges = [(addr, off, size) for name, addr, off, size, flags in secs
                   if ('X' in flags or name in ('.rodata', '.data.rel.ro', '.data')) and size]
    syms = symbols(binary)

    def file_offset(addr):
        for a, o, s in exec_ranges:
            if a <= addr < a + s:
                return addr - a + o
        return None

    hits = []   # (mangled, address, resident bytes)
    # Aliases and nested symbols would count a byte twice: each symbol ends where the next begins.
    syms = [(a, min(size, syms[i + 1][0] - a) if i + 1 < len(syms) else size, n)
            for i, (a, size, n) in enumerate(syms) if i + 1 == len(syms) or syms[i + 1][0] > a]
    for addr, size, name in syms:
        off = file_offset(addr)
        if off is None:
            continue
        resident = 0
        for page in range(off // PAGE * PAGE, (off + size - 1) // PAGE * PAGE + PAGE, PAGE):
            if page in present:
                resident += min(off + size, page + PAGE) - max(off, page)
        if resident:
            hits.append((name, addr, resident))
    names = demangle(sorted({h[0] for h in hits}))
    ours = our_code(binary, sorted({h[1] for h in hits}), args.sources)
    by_component = collections.Counter()
    by_symbol = collections.Counter()
    for name, addr, resident in hits:
        c = component(name, names[name], ours.get(addr))
        by_component[c] += resident
        by_symbol[(c, names[name])] += resident
    attributed = sum(by_component.values())
    print()
    print('present code and constant data by component (%d kB attributed to symbols):' % (attributed // 1024))
    for c, b in by_component.most_common():
        if b >= 1024:
            print('%8.0f kB  %s' % (b / 1024, c))
    print()
    print('top %d symbols by present bytes:' % args.top)
    for (c, n), b in by_symbol.most_common(args.top):
        print('%8.1f kB  %-28s %s' % (b / 1024, c[:28], n[:150]))
    report['components'] = dict(by_component)
    report['symbols'] = [{'component': c, 'symbol': n, 'bytes': b} for (c, n), b in by_symbol.most_common()]
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(report, f, indent=1)


if __name__ == '__main__':
    main()
