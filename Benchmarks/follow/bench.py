#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""Device turn -> sway output turned: `orientationctl follow sway` with orientationd against the peer's
way on wlroots desktops, a shell loop around iio-sensor-proxy's monitor-sensor calling swaymsg
(monitor-sensor-loop.sh), on one umockdev fake accelerometer and one headless sway, in one run.

Both daemons run (and are claimed by this client) throughout; the two followers take turns on the
one sway output, never at once (both would set the same transform, and the first would hide the
second). The device is stepped between portrait and landscape at random phases (0.9-1.6 s apart);
latency = attribute write -> HEADLESS-1's transform reads the new value.

sway 1.7 refuses a subscription to `output` events, so the transform is polled: GET_OUTPUTS (what
`swaymsg -t get_outputs` sends) every 5 ms on one IPC connection, from a thread. The first reply
showing the new transform is the upper bound printed; the request before it went out while the
old transform still showed, the lower bound. The daemon-only latency (write -> the daemon's own
signal, the latency benchmark's method) is measured on the same steps, so the figure reads as
daemon latency + the follower's IPC round trip.

Run through run.sh. Prints figures; never fails on a time. --json FILE writes them.
"""
import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..'))
sys.path.insert(0, here)
from sidebyside import LANDSCAPE, OUR_VALUE, PEER_VALUE, PORTRAIT, SideBySide  # noqa: E402
from sway import HeadlessSway, Ipc  # noqa: E402

OUTPUT = 'HEADLESS-1'
TRANSFORM = {PORTRAIT: 'normal', LANDSCAPE: '90'}
POLL = 0.005


def percentile(values, p):
    if not values:
        return float('nan')
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


class Poller(threading.Thread):
    """Reads HEADLESS-1's transform every 5 ms; keeps (request sent, reply read, transform) of each change."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.ipc = Ipc(path)
        self.changes = []
        self.running = True
        self.polls = 0

    def run(self):
        last = None
        previous_sent = time.monotonic()
        while self.running:
            sent = time.monotonic()
            value = self.ipc.transform(OUTPUT)
            read = time.monotonic()
            self.polls += 1
            if value != last:
                self.changes.append((previous_sent, read, value))
                last = value
            previous_sent = sent
            time.sleep(max(0, POLL - (time.monotonic() - sent)))

    def stop(self):
        self.running = False
        self.join(2)
        self.ipc.close()


class Run(SideBySide):
    def __init__(self, args):
        super().__init__(args.daemon, keep=args.keep)
        self.args = args
        self.peer, _ = self.start('peer', log='iio-sensor-proxy.log')
        self.ours, _ = self.start('ours', log='orientationd.log')
        self.record_changes({'DeviceOrientationDidChange': 'ours'})
        self.claim('peer')
        self.claim('ours')
        self.sway = HeadlessSway(os.path.join(self.work, 'sway.log'))
        self.poller = Poller(self.sway.socket)
        self.poller.start()
        self.follower = None

    def wait_transform(self, want, timeout=5):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.poller.changes and self.poller.changes[-1][2] == want:
                return True
            self.pump(0.02)
        return False

    def start_follower(self, who):
        env = self.sway.environment(self.plain_env)
        argv = ([self.args.ctl, '--address', self.address, 'follow', 'sway'] if who == 'ours'
                else [os.path.join(here, 'monitor-sensor-loop.sh'), OUTPUT])
        log = open(os.path.join(self.work, 'follow-%s.log' % who), 'a')
        self.follower = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                         start_new_session=True)
        # Ready when a turn there and back shows on the output.
        self.pump(1.0)
        for pose in (LANDSCAPE, PORTRAIT):
            self.write(pose)
            if not self.wait_transform(TRANSFORM[pose], 10):
                raise RuntimeError('%s follower did not turn sway to %s; logs in %s' % (who, TRANSFORM[pose], self.work))

    def stop_follower(self):
        try:
            os.killpg(self.follower.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        self.follower.wait(10)
        self.follower = None

    def steps(self, who, rng):
        self.start_follower(who)
        try:
            marks = self.turn(rng, self.args.steps)
        finally:
            self.stop_follower()
        out = {'sway': [], 'sway-low': [], 'daemon': [], 'extra': []}
        missed = 0
        changes = list(self.poller.changes)
        for i, (t0, pose) in enumerate(marks):
            t1 = marks[i + 1][0] if i + 1 < len(marks) else float('inf')
            seen = [(low, high) for (low, high, v) in changes if v == TRANSFORM[pose] and t0 <= high < t1]
            want = OUR_VALUE[pose] if who == 'ours' else PEER_VALUE[pose]
            hit = [t for (t, w, v) in self.events if w == who and v == want and t0 <= t < t1]
            if hit:
                out['daemon'].append((hit[0] - t0) * 1000)
            if seen:
                out['sway'].append((seen[0][1] - t0) * 1000)
                out['sway-low'].append(max(0.0, seen[0][0] - t0) * 1000)
                if hit:
                    # What the follower adds on this step: its daemon's signal -> the output turned.
                    out['extra'].append((seen[0][1] - hit[0]) * 1000)
            else:
                missed += 1
        return out, missed

    def close(self):
        if self.follower:
            self.stop_follower()
        self.poller.stop()
        self.sway.stop()
        super().close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--daemon', required=True, help='orientationd (release build)')
    ap.add_argument('--ctl', required=True, help='orientationctl (release build)')
    ap.add_argument('--runs', type=int, default=1)
    ap.add_argument('--steps', type=int, default=20, help='steps per follower per run')
    ap.add_argument('--seed', type=int, default=None)
    ap.add_argument('--keep', action='store_true')
    ap.add_argument('--json')
    args = ap.parse_args()
    rng = random.Random(args.seed)
    lat = {who: {'sway': [], 'sway-low': [], 'daemon': [], 'extra': []} for who in ('ours', 'peer')}
    missed = {'ours': 0, 'peer': 0}
    polls = 0
    for n in range(args.runs):
        run = Run(args)
        try:
            # Alternate who goes first, so neither always meets a fresh sway.
            for who in (('ours', 'peer') if n % 2 == 0 else ('peer', 'ours')):
                got, m = run.steps(who, rng)
                for k, v in got.items():
                    lat[who][k] += v
                missed[who] += m
                print('run %d/%d, %s: median %.1f ms to the output' % (n + 1, args.runs, who,
                      statistics.median(got['sway']) if got['sway'] else float('nan')), flush=True)
            polls += run.poller.polls
        finally:
            run.close()
        if args.keep:
            print('run %d logs: %s' % (n + 1, run.work))

    def ms(v):
        return '%.1f ms' % v if v == v else 'n/a'

    def med(v):
        return statistics.median(v) if v else float('nan')
    print()
    print('follow benchmark: %d run(s) x %d steps per follower, portrait <-> landscape, random 0.9-1.6 s apart'
          % (args.runs, args.steps))
    print('sway %s, headless; output transform polled every %.0f ms (sway 1.7 sends no output events)'
          % (subprocess.run(['sway', '--version'], capture_output=True, text=True).stdout.split()[-1], POLL * 1000))
    print()
    print('%-52s %22s %22s' % ('figure', 'monitor-sensor loop', 'orientationctl follow'))

    def row(name, peer, ours):
        print('%-52s %22s %22s' % (name, peer, ours))
    row('device turn -> output turned, median', ms(med(lat['peer']['sway'])), ms(med(lat['ours']['sway'])))
    row('device turn -> output turned, p95', ms(percentile(lat['peer']['sway'], 95)),
        ms(percentile(lat['ours']['sway'], 95)))
    row('  lower bound (poll before), median', ms(med(lat['peer']['sway-low'])), ms(med(lat['ours']['sway-low'])))
    row('daemon only, same steps: turn -> its signal, median', ms(med(lat['peer']['daemon'])),
        ms(med(lat['ours']['daemon'])))
    row('daemon only, same steps: p95', ms(percentile(lat['peer']['daemon'], 95)),
        ms(percentile(lat['ours']['daemon'], 95)))
    row('follower: daemon signal -> output turned, median', ms(med(lat['peer']['extra'])), ms(med(lat['ours']['extra'])))
    row('follower: daemon signal -> output turned, p95', ms(percentile(lat['peer']['extra'], 95)),
        ms(percentile(lat['ours']['extra'], 95)))
    row('steps missed (output not turned before next step)', str(missed['peer']), str(missed['ours']))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'latencies': lat, 'missed': missed, 'runs': args.runs, 'steps': args.steps,
                       'poll_ms': POLL * 1000, 'polls': polls}, f, indent=1)


if __name__ == '__main__':
    main()
