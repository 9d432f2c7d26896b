#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""What polling a still device costs at the least, rate by rate (Docs/performance.md, "The least a
poll can cost"): beside iio-sensor-proxy, the peer, polling at its own 700 ms, and orientationd at
`[Sensor] StillPollHz` = RATE, two programs that do nothing but poll the same umockdev accelerometer
at RATE under the same preload (`poller.c`, built here with cc): one on poll(2) alone, one on a GLib
main loop. They hold the three attributes open and read each with one pread per wake-up, which is
the least a poller can do; no daemon can wake for less than they do.

For each RATE, one session: the four processes claimed (the pollers need no claim) and still for
SECONDS, all at once, as the power benchmark runs the two daemons. Prints per process its wake-ups
per second, CPU per wake-up and CPU per minute against the peer's. A step's median latency is about
half the poll period, so the rate at which a step's median falls to half the peer's tells what that
latency costs at the least.

    floor.py --daemon BIN [--rates "1.43 3 4"] [--seconds 40] [--json FILE]

Needs cc and GLib's headers. Prints figures; never fails on a time.
"""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from sidebyside import PORTRAIT, Sample, SideBySide, arguments  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def build(work):
    """Compiles poller.c into `work`; the program's path."""
    cc = shutil.which('cc') or shutil.which('gcc') or shutil.which('clang')
    if not cc:
        sys.exit('floor.py: no C compiler (apt: gcc)')
    flags = subprocess.run(['pkg-config', '--cflags', '--libs', 'glib-2.0'], capture_output=True, text=True, check=True).stdout.split()
    program = os.path.join(work, 'poller')
    subprocess.run([cc, '-O2', os.path.join(HERE, 'poller.c'), '-o', program] + flags, check=True)
    return program


def session(args, program, rate):
    work = tempfile.mkdtemp(prefix='orientationd-floor-')
    config = os.path.join(work, 'still.conf')
    with open(config, 'w') as f:
        f.write('[Sensor]\nStillPollHz=%s\n' % rate)
    sbs = SideBySide(args.daemon, extra_args=['--config', config], keep=args.keep)
    pollers = []
    try:
        procs = {who: sbs.start(who)[0] for who in ('peer', 'ours')}
        # Rounded up to the millisecond, as the daemon rounds StillPollHz (PollPace).
        period = str(math.ceil(1000 / float(rate) - 1e-6))
        for kind in ('plain', 'glib'):
            p = subprocess.Popen([program, sbs.accel, period, kind], env=sbs.mock_env, stdin=subprocess.DEVNULL)
            pollers.append(p)
            procs['poller-' + kind] = p
        for who in ('peer', 'ours'):
            sbs.claim(who)
        if not sbs.settle_in(PORTRAIT, ['peer', 'ours']):
            print('warning: the daemons did not both report portrait', file=sys.stderr)
        sbs.pump(3)   # still long enough for a daemon that slows down once still
        pids = {who: p.pid for who, p in procs.items()}
        before = Sample(pids)
        sbs.pump(args.seconds)
        cost = Sample(pids).since(before)
        out = {}
        for who, c in cost.items():
            wakeups = max(1, c['wakeups'])
            out[who] = {'wakeups_per_s': c['wakeups'] / c['seconds'], 'cpu_us_per_wakeup': c['cpu_ms'] * 1000 / wakeups,
                        'cpu_ms_per_minute': c['cpu_ms'] * 60 / c['seconds']}
        return out
    finally:
        for p in pollers:
            p.kill()
            p.wait()
        sbs.close()
        shutil.rmtree(work, ignore_errors=True)


def main():
    args = arguments(seconds=(float, 40), rates=(str, '1.43 3 4'))
    work = tempfile.mkdtemp(prefix='orientationd-poller-')
    try:
        program = build(work)
        result = {rate: session(args, program, rate) for rate in args.rates.split()}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print('polling a still device, %g s per rate; the peer polls at 1.43 Hz in every row' % args.seconds)
    print('%-6s %-22s %10s %12s %14s %9s' % ('rate', 'process', 'wake-ups/s', 'µs/wake-up', 'CPU ms/minute', 'to peer'))
    for rate, row in result.items():
        peer = row['peer']['cpu_ms_per_minute']
        for who, label in (('peer', 'iio-sensor-proxy'), ('ours', 'orientationd'), ('poller-glib', 'poller on GLib'),
                           ('poller-plain', 'poller on poll(2)')):
            r = row[who]
            print('%-6s %-22s %10.2f %12.0f %14.1f %8.2f×' % (rate, label, r['wakeups_per_s'], r['cpu_us_per_wakeup'],
                                                             r['cpu_ms_per_minute'], r['cpu_ms_per_minute'] / peer if peer else float('nan')))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'seconds': args.seconds, 'rates': result}, f, indent=1)


if __name__ == '__main__':
    main()
