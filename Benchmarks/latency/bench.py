#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""Rotation latency benchmark (Docs/performance.md): orientationd against iio-sensor-proxy, the peer,
on one umockdev fake accelerometer, in one run.

A private dbus-daemon serves as the "system" bus. iio-sensor-proxy runs under umockdev-wrapper on
the fake device; orientationd runs with `--sensor iio` on the same device (also under
umockdev-wrapper), or, as a stopgap, with `--sensor sensor-proxy` behind the peer. One Gio client
claims both (ClaimAccelerometer; BeginGeneratingDeviceOrientationNotifications) and timestamps
(time.monotonic, in the GLib main loop) the peer's AccelerometerOrientation PropertiesChanged and
our DeviceOrientationDidChange / DidChange signals.

- steps: the device is stepped between portrait and landscape (right edge up) at random phases
  (random 0.9-1.6 s apart); latency = attribute write -> the client sees the new orientation.
- jitter: 6 s of samples at 20 Hz at random angles between 32 and 58 degrees from portrait,
  after settling in portrait; orientation changes are counted for each.
- the daemon's own per-sample cost, from its exit log (SIGTERM).

Run through run.sh. Prints figures; never fails on a time. --json FILE writes them for Benchmarks/run.sh.
"""
import argparse
import json
import math
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from sidebyside import OD, OD_PATH, OUR_VALUE, PEER_VALUE, PORTRAIT, RAW_G, SideBySide  # noqa: E402


def percentile(values, p):
    if not values:
        return float('nan')
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


class Run(SideBySide):
    def __init__(self, args, daemon_path, source):
        # --verbose: the daemon measures its per-sample cost only then, and logs it at exit.
        super().__init__(daemon_path, extra_args=['--verbose'], keep=args.keep, motion_events=args.motion_events)
        self.args = args
        self.source = source
        self.peer, _ = self.start('peer', log='iio-sensor-proxy.log')
        self.daemon_log = os.path.join(self.work, 'orientationd.log')
        # The sensor-proxy source reads the peer on the "system" bus, without umockdev.
        self.daemon, _ = self.start('ours', sensor=source, mock=(source == 'iio'), log='orientationd.log')
        self.record_changes({'DeviceOrientationDidChange': 'ours', 'DidChange': 'ours-did'})

    def close(self):
        """Stops everything; returns the daemon's per-sample cost line, if it logged one."""
        self.stop(self.daemon)
        cost = None
        with open(self.daemon_log) as f:
            for line in f:
                if 'per-sample cost:' in line:
                    cost = line.split('per-sample cost:', 1)[1].strip()
        super().close()
        return cost

    # -- the measurements ------------------------------------------------------------------------

    def claim_both(self):
        self.claim('peer')
        self.claim('ours')

    def has_accelerometer(self):
        return self.get(OD, OD_PATH, OD, 'HasAccelerometer')

    def steps(self, rng):
        if not self.settle_in(PORTRAIT, ('peer', 'ours')):
            print('  warning: the device did not settle in portrait', file=sys.stderr)
        marks = self.turn(rng, self.args.steps)
        result = {'peer': [], 'ours': [], 'ours-did': []}
        missed = {'peer': 0, 'ours': 0, 'ours-did': 0}
        for i, (t0, pose) in enumerate(marks):
            t1 = marks[i + 1][0] if i + 1 < len(marks) else float('inf')
            for who, want in (('peer', PEER_VALUE[pose]), ('ours', OUR_VALUE[pose]), ('ours-did', OUR_VALUE[pose])):
                seen = [t for (t, w, v) in self.events if w == who and v == want and t0 <= t < t1]
                if seen:
                    result[who].append((seen[0] - t0) * 1000)
                else:
                    missed[who] += 1
        return result, missed

    def jitter(self, rng):
        self.settle_in(PORTRAIT, ('peer', 'ours'))
        self.pump(1.0)
        start = len(self.events)
        end_at = time.monotonic() + self.args.jitter_seconds
        while time.monotonic() < end_at:
            angle = math.radians(rng.uniform(32, 58))
            self.write((round(-RAW_G * math.sin(angle)), round(-RAW_G * math.cos(angle)), 0))
            self.pump(0.05)
        self.pump(1.0)   # changes still settling count too
        window = self.events[start:]
        return {who: sum(1 for (_, w, _) in window if w == who) for who in ('peer', 'ours', 'ours-did')}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--daemon', required=True)
    ap.add_argument('--source', choices=['auto', 'iio', 'sensor-proxy'], default='auto')
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--steps', type=int, default=30)
    ap.add_argument('--jitter-seconds', type=float, default=6.0)
    ap.add_argument('--seed', type=int, default=None)
    ap.add_argument('--keep', action='store_true', help='keep the logs (path printed)')
    ap.add_argument('--json', help='also write the figures and every latency to this file (for Benchmarks/run.sh)')
    ap.add_argument('--motion-events', action='store_true', help='the accelerometer offers a motion event (sidebyside.SideBySide)')
    args = ap.parse_args()

    source = args.source
    notes = []
    if source == 'auto':
        source = 'iio'
    rng = random.Random(args.seed)
    all_lat = {'peer': [], 'ours': [], 'ours-did': []}
    per_run = []
    jitters = []
    costs = []
    missed_total = {'peer': 0, 'ours': 0, 'ours-did': 0}
    for n in range(args.runs):
        run = Run(args, args.daemon, source)
        try:
            run.claim_both()
            run.pump(0.5)
            if not run.has_accelerometer():
                if args.source == 'auto' and source == 'iio':
                    notes.append('--sensor iio found no accelerometer under umockdev; measured --sensor sensor-proxy '
                                 '(chained behind the peer) instead')
                    run.close()
                    source = 'sensor-proxy'
                    run = Run(args, args.daemon, source)
                    run.claim_both()
                    run.pump(0.5)
                else:
                    raise RuntimeError('orientationd --sensor %s has no accelerometer; logs in %s' % (source, run.work))
            lat, missed = run.steps(rng)
            jit = run.jitter(rng)
        finally:
            cost = run.close()
        if args.keep:
            print('run %d logs: %s' % (n + 1, run.work))
        for k in all_lat:
            all_lat[k] += lat[k]
            missed_total[k] += missed[k]
        per_run.append({k: statistics.median(v) if v else float('nan') for k, v in lat.items()})
        jitters.append(jit)
        costs.append(cost)
        print('run %d/%d: median latency peer %.0f ms, ours %.0f ms; jitter changes peer %d, ours %d; %s'
              % (n + 1, args.runs, per_run[-1]['peer'], per_run[-1]['ours'], jit['peer'], jit['ours'],
                 'per-sample cost: ' + cost if cost else 'no per-sample cost reported'), flush=True)

    print()
    print('rotation latency benchmark: %d run(s) x %d steps, portrait <-> landscape, random 0.9-1.6 s apart'
          % (args.runs, args.steps))
    print('orientationd source: --sensor %s%s' % (source, ', the accelerometer with a motion event' if args.motion_events else ''))
    for note in notes:
        print('note: ' + note)
    print()
    print('%-44s %14s %14s %10s' % ('figure', 'iio-sensor-proxy', 'orientationd', 'target'))

    def row(name, peer, ours, target):
        print('%-44s %14s %14s %10s' % (name, peer, ours, target))

    def ms(v):
        return '%.0f ms' % v if v == v else 'n/a'
    row('latency median (all steps, write -> signal)', ms(statistics.median(all_lat['peer']) if all_lat['peer'] else float('nan')),
        ms(statistics.median(all_lat['ours']) if all_lat['ours'] else float('nan')), '<= 150 ms')
    row('latency p95', ms(percentile(all_lat['peer'], 95)), ms(percentile(all_lat['ours'], 95)), '<= 200 ms')
    row('latency max', ms(max(all_lat['peer'], default=float('nan'))), ms(max(all_lat['ours'], default=float('nan'))), '')
    row('median of per-run medians', ms(statistics.median(r['peer'] for r in per_run)),
        ms(statistics.median(r['ours'] for r in per_run)), '')
    row('ours: DidChange (interface) median / p95', '',
        '%s / %s' % (ms(statistics.median(all_lat['ours-did']) if all_lat['ours-did'] else float('nan')),
                     ms(percentile(all_lat['ours-did'], 95))), '')
    row('steps missed (no change seen before next step)', str(missed_total['peer']), str(missed_total['ours']), '0')
    row('jitter 32-58 deg, %.0f s at 20 Hz: changes per run' % args.jitter_seconds,
        ','.join(str(j['peer']) for j in jitters), ','.join(str(j['ours']) for j in jitters), '0')
    medians = []
    for c in costs:
        if c:
            try:
                medians.append(float(c.split('median', 1)[1].split('µs', 1)[0]))
            except (IndexError, ValueError):
                pass
    row('daemon per-sample cost, median (its exit log)', '-',
        ('%.1f µs' % statistics.median(medians)) if medians else 'n/a', '<= 50 µs')
    for i, c in enumerate(costs):
        print('  run %d: per-sample cost: %s' % (i + 1, c or 'not reported (the %s source feeds no samples)' % source))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'source': source, 'latencies': all_lat, 'missed': missed_total, 'jitter': jitters,
                       'cost_medians': medians, 'runs': args.runs, 'steps': args.steps}, f, indent=1)


if __name__ == '__main__':
    main()
