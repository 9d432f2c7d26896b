#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""Idle memory as a phone pays it: orientationd and iio-sensor-proxy, the peer, started one at a time
in alternating order on one umockdev fake accelerometer, each from a cold page cache; each measured
`--settle` seconds (10) after its bus name appears, then claimed until its first reading, released,
and measured again `--settle` seconds after the claim ended. orientationd hands the pages of its
program that idling does not touch back to the kernel once idle (ProgramPages); the cost of that is
shown beside it: our claim -> first reading (DeviceOrientationDidChange) after `--settle` s idle,
with the page faults it took, against the same daemon started with --keep-pages.

    idle.py --daemon BIN [--starts 5] [--settle 10] [--json FILE]

Run through run.sh (memory). Prints figures; never fails on a size.
"""
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
from sidebyside import OD, OD_PATH, SP, SP_PATH, arguments, SideBySide, memory_kb  # noqa: E402


def faults(pid):
    """(minor, major) page faults of the process so far (/proc/PID/stat fields 10 and 12)."""
    with open('/proc/%d/stat' % pid) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return int(fields[7]), int(fields[9])


def release(sbs, who):
    if who == 'peer':
        sbs.call(SP, SP_PATH, SP, 'ReleaseAccelerometer')
    else:
        sbs.call(OD, OD_PATH, OD, 'EndGeneratingDeviceOrientationNotifications')


def first_reading(sbs, who, pid):
    """Claims; returns (ms to the first reading, minor faults, major faults) meanwhile."""
    mark = len(sbs.events)
    before = faults(pid)
    t0 = time.monotonic()
    sbs.claim(who)
    deadline = t0 + 5
    while time.monotonic() < deadline:
        seen = [e for e in sbs.events[mark:] if e[1] == who]
        if seen:
            after = faults(pid)
            return (seen[0][0] - t0) * 1000, after[0] - before[0], after[1] - before[1]
        sbs.pump(0.002)
    return None, None, None


def main():
    args = arguments(starts=(int, 5), settle=(float, 10.0))
    sbs = SideBySide(args.daemon, keep=args.keep)
    sbs.record_changes({'DeviceOrientationDidChange': 'ours'})
    rows, kept = [], []
    try:
        for n in range(args.starts):
            order = ('ours', 'peer') if n % 2 == 0 else ('peer', 'ours')
            row = {}
            for who in order:
                p, _ = sbs.start(who, cold=True)
                sbs.pump(args.settle)
                row[who] = {'start': memory_kb(p.pid)}
                row[who]['claim_ms'], row[who]['minflt'], row[who]['majflt'] = first_reading(sbs, who, p.pid)
                release(sbs, who)
                sbs.pump(args.settle)
                row[who]['claim'] = memory_kb(p.pid)
                sbs.stop(p)
            rows.append(row)
        # The same claim after the same idle, without the page-out.
        sbs.extra_args = ['--keep-pages']
        for n in range(args.starts):
            p, _ = sbs.start('ours', cold=True)
            sbs.pump(args.settle)
            ms, minflt, majflt = first_reading(sbs, 'ours', p.pid)
            kept.append({'claim_ms': ms, 'minflt': minflt, 'majflt': majflt, 'start': memory_kb(p.pid)})
            release(sbs, 'ours')
            sbs.stop(p)
    finally:
        sbs.close()

    print('idle memory, %d alternating cold starts each, %g s after start and %g s after a claim ended (kB)'
          % (args.starts, args.settle, args.settle))
    print('%-5s %-13s %8s %8s %8s   %8s %8s %8s   %7s %7s %7s' % ('start', 'when', 'ours RSS', 'PSS', 'private',
                                                                  'peer RSS', 'PSS', 'private', 'RSS', 'PSS', 'private'))
    worst = {}
    for n, row in enumerate(rows, 1):
        for when in ('start', 'claim'):
            o, p = row['ours'][when], row['peer'][when]
            ratios = [o[k] / p[k] for k in ('VmRSS', 'Pss', 'private')]
            for k, r in zip(('VmRSS', 'Pss', 'private'), ratios):
                worst[k] = max(worst.get(k, 0), r)
            print('%-5d %-13s %8d %8d %8d   %8d %8d %8d   %6.2f× %6.2f× %6.2f×'
                  % (n, 'after start' if when == 'start' else 'after a claim', o['VmRSS'], o['Pss'], o['private'],
                     p['VmRSS'], p['Pss'], p['private'], *ratios))
    print('worst ratio, ours to the peer\'s: VmRSS %.2f×, PSS %.2f×, private %.2f×' % (worst['VmRSS'], worst['Pss'], worst['private']))
    print()
    paged = [r['ours'] for r in rows]

    def summary(entries):
        ms = [e['claim_ms'] for e in entries if e['claim_ms'] is not None]
        return (statistics.median(ms) if ms else float('nan'), statistics.median(e['minflt'] or 0 for e in entries),
                statistics.median(e['majflt'] or 0 for e in entries))
    a, b = summary(paged), summary(kept)
    print('our claim -> first reading after %g s idle, median of %d: paged out %.1f ms (%d minor, %d major faults); '
          '--keep-pages %.1f ms (%d minor, %d major faults); %+.1f ms' % (args.settle, args.starts, a[0], a[1], a[2],
                                                                         b[0], b[1], b[2], a[0] - b[0]))
    print('--keep-pages, %g s after start: PSS %s kB, private %s kB' % (
        args.settle, ' '.join(str(e['start']['Pss']) for e in kept), ' '.join(str(e['start']['private']) for e in kept)))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'rows': rows, 'kept': kept, 'worst': worst,
                       'claim': {'paged_ms': a[0], 'kept_ms': b[0], 'paged_faults': a[1:], 'kept_faults': b[1:]}}, f, indent=1)


if __name__ == '__main__':
    main()
