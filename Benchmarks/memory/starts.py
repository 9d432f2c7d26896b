#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""Idle memory over several starts: orientationd and iio-sensor-proxy, the peer, started one at a
time in alternating order on one umockdev fake accelerometer, each from a cold page cache (its
program file evicted first, as after a boot; sidebyside.start); each measured 1 s after its bus name
appears, nobody claiming, then stopped. Prints VmRSS, PSS and private memory per start and the
ratio of VmRSS, ours to the peer's, per pair of starts.

    starts.py --daemon BIN [--starts 5] [--json FILE]

Run through run.sh (memory). Prints figures; never fails on a size.
"""
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
from sidebyside import arguments, SideBySide, memory_kb  # noqa: E402


def main():
    args = arguments(starts=(int, 5))
    sbs = SideBySide(args.daemon, keep=args.keep)
    rows = []
    try:
        for n in range(args.starts):
            order = ('ours', 'peer') if n % 2 == 0 else ('peer', 'ours')
            row = {}
            for who in order:
                p, _ = sbs.start(who, cold=True)
                time.sleep(1)
                row[who] = memory_kb(p.pid)
                sbs.stop(p)
            rows.append(row)
    finally:
        sbs.close()
    print('idle memory, %d starts each, alternating (kB)' % args.starts)
    print('%-6s %10s %10s %10s   %10s %10s %10s   %s' % ('start', 'ours RSS', 'ours PSS', 'ours priv',
                                                        'peer RSS', 'peer PSS', 'peer priv', 'RSS ratio'))
    for n, row in enumerate(rows, 1):
        o, p = row['ours'], row['peer']
        print('%-6d %10d %10d %10d   %10d %10d %10d   %.2f×' % (n, o['VmRSS'], o['Pss'], o['private'],
                                                               p['VmRSS'], p['Pss'], p['private'], o['VmRSS'] / p['VmRSS']))
    worst = max(row['ours']['VmRSS'] / row['peer']['VmRSS'] for row in rows)
    print('highest VmRSS ratio: %.2f× (at or below the peer in %d of %d starts)' % (
        worst, sum(row['ours']['VmRSS'] <= row['peer']['VmRSS'] for row in rows), len(rows)))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(rows, f, indent=1)


if __name__ == '__main__':
    main()
