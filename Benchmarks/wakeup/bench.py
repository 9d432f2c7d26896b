#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""What one wake-up costs while claimed and still (Docs/performance.md, "What one wake-up costs"): orientationd beside
iio-sensor-proxy, the peer, on one umockdev fake accelerometer, one daemon at a time.

For each daemon: started, claimed, the device lying in portrait; then for SECONDS, its system calls
counted by `strace -c -f` (every thread), and, in a second interval of SECONDS without strace, its
CPU time (schedstat) and wake-ups (voluntary context switches). Prints per wake-up: the system calls
by name and in all, and the microseconds of CPU. strace slows the traced calls, so the CPU figures come
from the untraced interval.

Needs strace (Debian: strace). Never fails on a time. --json FILE writes the figures.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from sidebyside import PORTRAIT, Sample, SideBySide, arguments  # noqa: E402


def syscalls(pid, seconds, sbs):
    """{name: calls} made by `pid` and its threads over `seconds`."""
    out = tempfile.NamedTemporaryFile(suffix='.strace', delete=False)
    out.close()
    tracer = subprocess.Popen(['strace', '-c', '-f', '-qq', '-o', out.name, '-p', str(pid)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sbs.pump(0.5)   # attached
    sbs.pump(seconds)
    tracer.send_signal(2)
    tracer.wait()
    counts = {}
    with open(out.name) as f:
        for line in f:
            parts = line.split()
            # "% time  seconds  usecs/call  calls  errors  syscall": the name is last, calls is the 4th column.
            if len(parts) >= 5 and parts[0][0].isdigit() and parts[-1] != 'total':
                counts[parts[-1]] = int(parts[3])
    os.unlink(out.name)
    return counts


def measure(args, who):
    sbs = SideBySide(args.daemon, keep=args.keep)
    try:
        p, _ = sbs.start(who)
        sbs.claim(who)
        if not sbs.settle_in(PORTRAIT, [who]):
            print('warning: %s did not report portrait' % who, file=sys.stderr)
        sbs.pump(3)   # still long enough for a daemon that slows down once still
        before = Sample({who: p.pid})
        sbs.pump(args.seconds)
        cost = Sample({who: p.pid}).since(before)[who]
        calls = syscalls(p.pid, args.seconds, sbs)
        wakeups = max(1, cost['wakeups'])
        return {'cpu_us_per_wakeup': cost['cpu_ms'] * 1000 / wakeups, 'wakeups_per_s': cost['wakeups'] / args.seconds,
                'cpu_ms_per_minute': cost['cpu_ms'] * 60 / args.seconds,
                'syscalls_per_wakeup': {k: v / (wakeups * 1.0) for k, v in calls.items()},
                'syscalls_per_wakeup_total': sum(calls.values()) / (wakeups * 1.0)}
    finally:
        sbs.close()


def main():
    args = arguments(seconds=(float, 10))
    result = {who: measure(args, who) for who in ('ours', 'peer')}
    print('per wake-up while claimed and still (%g s each; strace -c -f for the calls)' % args.seconds)
    print('%-32s %14s %14s' % ('', 'orientationd', 'iio-sensor-proxy'))
    for key, label, form in [('wakeups_per_s', 'wake-ups/s', '%.2f'), ('cpu_ms_per_minute', 'CPU ms/minute', '%.1f'),
                             ('cpu_us_per_wakeup', 'CPU µs/wake-up', '%.0f'),
                             ('syscalls_per_wakeup_total', 'system calls/wake-up', '%.1f')]:
        print('%-32s %14s %14s' % (label, form % result['ours'][key], form % result['peer'][key]))
    names = sorted(set(result['ours']['syscalls_per_wakeup']) | set(result['peer']['syscalls_per_wakeup']),
                   key=lambda n: -result['ours']['syscalls_per_wakeup'].get(n, 0))
    for name in names:
        o, q = result['ours']['syscalls_per_wakeup'].get(name, 0), result['peer']['syscalls_per_wakeup'].get(name, 0)
        if o >= 0.05 or q >= 0.05:
            print('  %-30s %14.2f %14.2f' % (name, o, q))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(result, f, indent=1)


if __name__ == '__main__':
    main()
