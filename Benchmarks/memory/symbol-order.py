#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""Writes Linker/orientationd.order: the functions orientationd runs, for the linker to place together.

    symbol-order.py --daemon BIN [--out FILE]

The kernel maps a program's file in 64 KB windows around each page it touches (fault-around), so a
function that runs alone in a window keeps 64 KB resident. lld's --symbol-ordering-file puts the
sections holding the listed symbols first, side by side, so the code that runs at all fills a few
windows instead of touching most of the binary. (The standard library's main text section, 1.5 MB
in one piece, cannot be reordered from outside: only what it has in sections of their own moves.)

The list is what callgrind saw run in a session that covers the daemon's life: first what ran from
the start on one umockdev accelerometer through a second of idle (dumped then, with
callgrind_control), so the code every running daemon keeps resident comes first and together; then
what a client's claim, turns of the device, property reads, a window registered and closed, the
claim released and SIGTERM ran besides. Each part lists its functions as callgrind writes them; the
functions of the daemon's own modules (one section each) come before those of archives whose
objects hold one section for many functions (`own_sections_first`).
The writer processes the daemon forks write profiles of their own (one file per pid) and are left
out. The release build compiles each function into a section of its own (Package.swift), so the
list places functions, not whole source files. Run it on a release build and
commit the result when the code has changed much; a stale list costs memory, never correctness
(names that no longer exist are ignored, new functions land after the listed ones).
"""
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
from sidebyside import (LANDSCAPE, OD, OD_PATH, PORTRAIT, SideBySide, arguments)  # noqa: E402
from gi.repository import GLib  # noqa: E402


def session(sbs):
    """Exercises the daemon as a shell and an app would."""
    sbs.get(OD, OD_PATH, OD, 'InterfaceOrientation')
    sbs.claim('ours')
    for pose in (LANDSCAPE, PORTRAIT) * 2:
        sbs.write(pose)
        sbs.pump(1.5)
    for prop in ('DeviceOrientation', 'InterfaceOrientation', 'SupportedMask', 'HasAccelerometer'):
        sbs.get(OD, OD_PATH, OD, prop)
    try:
        path = sbs.call(OD, OD_PATH, OD, 'RegisterWindow')[0]
        sbs.call(OD, path, OD + '.Window', 'MakeKeyAndVisible')
        sbs.call(OD, path, OD + '.Window', 'Close')
    except GLib.Error as e:
        print('note: window calls skipped (%s)' % e.message, file=sys.stderr)
    try:
        # A shell reporting the application in front, and a user's per-application choice.
        sbs.call(OD, OD_PATH, OD, 'SetFocusedApplication', ('org.example.Video', 4242), '(su)')
        sbs.call(OD, OD_PATH, OD, 'ApplicationDeclaration', ('org.example.Video',), '(s)')
        sbs.call(OD, OD_PATH, OD, 'SetApplicationOrientations', ('org.example.Video', 24), '(su)')
        sbs.call(OD, OD_PATH, OD, 'ResetApplicationOrientations', ('org.example.Video',), '(s)')
        sbs.call(OD, OD_PATH, OD, 'SetFocusedApplication', ('', 0), '(su)')
    except GLib.Error as e:
        print('note: application calls skipped (%s)' % e.message, file=sys.stderr)
    sbs.call(OD, OD_PATH, OD, 'EndGeneratingDeviceOrientationNotifications')
    sbs.pump(1)


def own_sections_first(names, build_dir):
    """The names defined in the daemon's own object files (each function in a section of its own)
    first, in their order, then the rest. The rest lives in archives built with one text section per
    object: the standard library's 1.5 MB section, libdbus's files. lld places a section where its
    first listed symbol is, so one standard-library name early in the list put that whole section
    there, and every function of ours listed after it 1.5 MB further on: half our code that runs sat
    beyond it, in windows of its own."""
    own = set()
    for module in os.listdir(build_dir):
        directory = os.path.join(build_dir, module)
        if not module.endswith('.build') or not os.path.isdir(directory):
            continue
        objects = [os.path.join(directory, f) for f in os.listdir(directory) if f.endswith('.o')]
        if objects:
            listing = subprocess.run(['nm', '--defined-only'] + objects, capture_output=True, text=True).stdout
            own.update(line.split()[2] for line in listing.splitlines() if len(line.split()) == 3)
    first = [n for n in names if n in own]
    print('symbol-order: %d functions in sections of their own, first; %d in shared sections after them'
          % (len(first), len(names) - len(first)))
    return first + [n for n in names if n not in own]


def main():
    args = arguments(out=(str, os.path.join(HERE, '../../Linker/orientationd.order')))
    sbs = SideBySide(args.daemon, keep=args.keep)
    out = os.path.join(sbs.work, 'callgrind.out')
    try:
        p, _ = sbs.start('ours', timeout=120, wrapper=[
            'valgrind', '--tool=callgrind', '--callgrind-out-file=' + out + '.%p', '--dump-instr=no',
            '--compress-strings=no', '--demangle=no'])
        sbs.pump(1)
        subprocess.run(['callgrind_control', '--dump=idle', str(p.pid)], check=True, stdout=subprocess.DEVNULL)
        session(sbs)
        sbs.stop(p)
        time.sleep(0.5)
        binary = os.path.realpath(args.daemon)
        # callgrind names code without a symbol of its own by its address, and the C start-up code
        # "(below main)": the local symbols nm knows there (frame_dummy, _start) are listed instead.
        local = {}
        for line in subprocess.run(['nm', '--defined-only', binary], capture_output=True, text=True).stdout.splitlines():
            fields = line.split()
            if len(fields) == 3 and fields[1] in 'tT':
                local.setdefault(int(fields[0], 16), fields[2])
        # The daemon's own parts (not its writers'), in the order written: the idle dump first.
        parts = sorted((f for f in os.listdir(sbs.work) if f.startswith('callgrind.out.%d' % p.pid)),
                       key=lambda f: os.stat(os.path.join(sbs.work, f)).st_mtime)
        names, seen = [], set()
        for part in parts:
            current = ''
            with open(os.path.join(sbs.work, part), errors='replace') as f:
                for line in f:
                    if line.startswith('ob='):
                        current = os.path.realpath(line[3:].strip()) if line[3:].strip() else ''
                    elif line.startswith('fn=') and current == binary:
                        name = re.sub(r"'\d+$", '', line[3:].strip())   # callgrind's recursion marks
                        if name == '(below main)':
                            name = '_start'
                        elif name.startswith('0x'):
                            name = local.get(int(name, 16), name)
                        # Other names of callgrind's own and addresses nm has no name for are no symbols.
                        if name not in seen and not name.startswith('0x') and ' ' not in name and not name.startswith('('):
                            seen.add(name)
                            names.append(name)
        print('symbol-order: %d parts: %s' % (len(parts), ', '.join(parts)))
    finally:
        sbs.close()
    if len(names) < 100:
        sys.exit('symbol-order: only %d functions seen; is %s a release build that ran?' % (len(names), args.daemon))
    names = own_sections_first(names, os.path.dirname(os.path.realpath(args.daemon)))
    with open(args.out, 'w') as f:
        f.write('\n'.join(names) + '\n')
    print('%s: %d functions' % (os.path.normpath(args.out), len(names)))


if __name__ == '__main__':
    main()
