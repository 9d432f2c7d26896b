#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""Start-up work (Docs/performance.md): instructions from exec to bus name owned, orientationd
against iio-sensor-proxy, the peer, on one umockdev fake accelerometer, in one run.

Wall time from spawn to the name is noisy on a shared machine (bus-benchmark measures it, median of
STARTS); instructions are not. Each daemon is started under valgrind's callgrind; once its name appears
on the bus, `callgrind_control --dump` writes the count so far (every thread, the dynamic loader's
work included). RUNS starts each, alternating; the median and range are printed, with the part spent
in the dynamic loader (ld.so: loading libraries, relocations, symbol lookups) and the biggest
inclusive costs of ours.

Run through run.sh. Prints figures; never fails on a time. --json FILE writes them for Benchmarks/run.sh.
"""
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from sidebyside import arguments, SideBySide  # noqa: E402


def totals(dump):
    """(all instructions, self instructions of functions in ld.so) of one uncompressed callgrind dump."""
    total = loader = 0
    in_loader = after_call = False
    with open(dump, errors='replace') as f:
        for line in f:
            if line.startswith(('summary:', 'totals:')):
                total = max(total, int(line.split()[1]))
            elif line.startswith('ob='):
                in_loader = 'ld-linux' in line
            elif line.startswith('calls='):
                after_call = True     # the next cost line is a call's inclusive cost, counted in the callee
            elif line[:1].isdigit() or line[:1] in '+-*':
                if after_call:
                    after_call = False
                elif in_loader:
                    parts = line.split()
                    if len(parts) >= 2:
                        loader += int(parts[1])
    return total, loader


def measure(sbs, who, out):
    for old in glob.glob(out + '*'):
        os.unlink(old)
    wrapper = ['valgrind', '--tool=callgrind', '--callgrind-out-file=' + out, '--dump-instr=no', '--compress-strings=no',
               '--compress-pos=no']
    p, _ = sbs.start(who, wrapper=wrapper, timeout=120)
    subprocess.run(['callgrind_control', '--dump=name-owned', str(p.pid)], check=True, capture_output=True)
    sbs.stop(p)
    sbs.wait_gone(who)
    dumps = sorted(glob.glob(out + '*'))
    # The first dump is the one asked for at the name; the last is the exit's.
    named = [d for d in dumps if 'name-owned' in open(d, errors='replace').read(4096)]
    return totals(named[0] if named else dumps[0])


def main():
    args = arguments(runs=(int, 3))
    if not shutil.which('valgrind') or not shutil.which('callgrind_control'):
        print('startup: valgrind is missing (apt: valgrind); instruction counts skipped')
        if args.json:
            with open(args.json, 'w') as f:
                json.dump({'skipped': 'valgrind missing'}, f)
        return

    sbs = SideBySide(args.daemon, keep=args.keep)
    counts = {'ours': [], 'peer': []}
    try:
        for n in range(args.runs):
            for who in (['ours', 'peer'] if n % 2 == 0 else ['peer', 'ours']):
                counts[who].append(measure(sbs, who, os.path.join(sbs.work, 'callgrind.%s.%d' % (who, n))))
            print('run %d/%d: instructions to name owned: ours %d (ld.so %d), peer %d (ld.so %d)'
                  % (n + 1, args.runs, counts['ours'][-1][0], counts['ours'][-1][1],
                     counts['peer'][-1][0], counts['peer'][-1][1]), flush=True)
    finally:
        sbs.close()

    med = {who: statistics.median(c[0] for c in counts[who]) for who in counts}
    ld = {who: statistics.median(c[1] for c in counts[who]) for who in counts}
    print()
    print('start-up work: exec -> bus name owned, instructions (callgrind, all threads), %d run(s) each' % args.runs)
    print('%-44s %16s %16s %8s' % ('figure', 'iio-sensor-proxy', 'orientationd', 'ratio'))
    print('%-44s %16s %16s %7.2f×' % ('instructions, median', '{:,}'.format(int(med['peer'])),
                                      '{:,}'.format(int(med['ours'])), med['ours'] / med['peer']))
    print('%-44s %16s %16s %7.2f×' % ('  of which in the dynamic loader (ld.so)', '{:,}'.format(int(ld['peer'])),
                                      '{:,}'.format(int(ld['ours'])), ld['ours'] / ld['peer'] if ld['peer'] else 0))
    print('  range: ours %s–%s, peer %s–%s' % tuple('{:,}'.format(v) for v in (
        min(c[0] for c in counts['ours']), max(c[0] for c in counts['ours']),
        min(c[0] for c in counts['peer']), max(c[0] for c in counts['peer']))))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'instructions': med, 'loader': ld, 'runs': counts}, f, indent=1)


if __name__ == '__main__':
    main()
