#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""Bus benchmark (Docs/performance.md): orientationd against iio-sensor-proxy, the peer,
on one umockdev fake accelerometer, in one run.

A private dbus-daemon serves as the peer's "system" bus and as our bus. Both daemons are spawned
directly (no shell in between) with the environment umockdev-wrapper would give them
(LD_PRELOAD=libumockdev-preload.so.0, UMOCKDEV_DIR of one testbed holding one fake IIO
accelerometer): the peer as /usr/sbin/iio-sensor-proxy, ours as `orientationd --sensor iio`.

Side by side, per run (figures are medians of RUNS runs; the order alternates between runs):
- idle resident memory: VmRSS 1 s after the bus name appears, both running, nobody claiming, and
  private memory (Private_Clean + Private_Dirty of /proc/PID/smaps_rollup: pages no other process maps);
- idle context switches over IDLE_SECONDS, both idle: voluntary + involuntary, summed over all
  threads (/proc/PID/task/*/status; /proc/PID/status alone counts only the main thread);
- Properties.Get round trips per second, one Python GIO client process (get.py) for GET_SECONDS:
  ours InterfaceOrientation, the peer's HasAccelerometer; one daemon at a time.
Then, STARTS times each, alternating: spawn -> NameOwnerChanged for its name seen by this driver.
Then the scale row, ours alone (`--sensor simulated`, so no sensor polling mixes into the rotation
cost): one client process (scale.py) with 100 connections, 1,000 windows, 10,000 controllers; the
daemon's RSS growth per controller, and its CPU time per forced rotation (SetDeviceOrientation
alternating 1 and 3, a claim held), before and after the load.

Run through run.sh. Prints figures; never fails on a time. --json FILE writes them for Benchmarks/run.sh.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from sidebyside import (OD, OD_PATH, PEER_BIN, SP, SP_PATH, SideBySide, involuntary_switches,  # noqa: E402
                        memory_kb, voluntary_switches)
from gi.repository import GLib, Gio  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def rss_kb(pid):
    return memory_kb(pid)['VmRSS']


def ctxt_switches(pid):
    """(voluntary, involuntary) summed over every thread of `pid`."""
    return voluntary_switches(pid), involuntary_switches(pid)


def threads(pid):
    return len(os.listdir('/proc/%d/task' % pid))


def median(values):
    return statistics.median(values) if values else float('nan')


class Bench(SideBySide):
    def __init__(self, args):
        super().__init__(args.daemon, keep=args.keep)
        self.args = args

    # -- figures -----------------------------------------------------------------------------------

    def gets(self, who):
        dest, path, iface, prop = ((SP, SP_PATH, SP, 'HasAccelerometer') if who == 'peer'
                                   else (OD, OD_PATH, OD, 'InterfaceOrientation'))
        out = subprocess.run([sys.executable, os.path.join(HERE, 'get.py'), self.address, str(self.args.get_seconds),
                              dest, path, iface, prop], check=True, capture_output=True, text=True).stdout
        return float(out.split()[0])

    def side_by_side(self, run):
        order = ['ours', 'peer'] if run % 2 == 0 else ['peer', 'ours']
        procs = {}
        for who in order:
            procs[who], _ = self.start(who, cold=True)
        time.sleep(1)
        memory = {who: memory_kb(procs[who].pid) for who in order}
        nthreads = {who: threads(procs[who].pid) for who in order}
        before = {who: ctxt_switches(procs[who].pid) for who in order}
        time.sleep(self.args.idle_seconds)
        after = {who: ctxt_switches(procs[who].pid) for who in order}
        ctx = {who: (after[who][0] - before[who][0], after[who][1] - before[who][1]) for who in order}
        # A Get the peer answers with FALSE would mean it found no accelerometer: a wrong setup.
        if not self.bus.call_sync(SP, SP_PATH, 'org.freedesktop.DBus.Properties', 'Get',
                                  GLib.Variant('(ss)', (SP, 'HasAccelerometer')), None,
                                  Gio.DBusCallFlags.NONE, 5000, None).unpack()[0]:
            print('warning: the peer reports no accelerometer', file=sys.stderr)
        gets = {who: self.gets(who) for who in order}
        for who in order:
            self.stop(procs[who])
        return memory, ctx, gets, nthreads

    def starts(self):
        times = {'ours': [], 'peer': []}
        for i in range(self.args.starts):
            for who in (['ours', 'peer'] if i % 2 == 0 else ['peer', 'ours']):
                p, ms = self.start(who)
                times[who].append(ms)
                self.stop(p)
                # wait for the name to go, so the next start is a clean one
                self.wait_gone(who)
        return times

    def scale(self):
        # One uid owns every connection here: raise its share of the windows (256 by default) to the total.
        config = os.path.join(self.work, 'scale.conf')
        with open(config, 'w') as f:
            f.write('[Limits]\nWindowsPerUser=%d\nTotalWindows=%d\n' % ((self.args.connections * self.args.windows_per,) * 2))
        self.extra_args = self.extra_args + ['--config', config]
        p, _ = self.start('ours', sensor='simulated', mock=False, log='ours-scale.log')
        time.sleep(1)
        idle_rss = rss_kb(p.pid)
        cmd = [sys.executable, os.path.join(HERE, 'scale.py'), self.address, str(p.pid),
               '--connections', str(self.args.connections), '--windows', str(self.args.windows_per),
               '--controllers', str(self.args.controllers_per), '--rotations', str(self.args.rotations)]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True)
        self.stop(p)
        result = json.loads(out.stdout.strip().splitlines()[-1])
        result['idle_rss'] = idle_rss
        return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--daemon', required=True)
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--get-seconds', type=float, default=3)
    ap.add_argument('--idle-seconds', type=float, default=10)
    ap.add_argument('--starts', type=int, default=20)
    ap.add_argument('--connections', type=int, default=100)
    ap.add_argument('--windows-per', type=int, default=10)
    ap.add_argument('--controllers-per', type=int, default=100)
    ap.add_argument('--rotations', type=int, default=200)
    ap.add_argument('--skip-scale', action='store_true')
    ap.add_argument('--keep', action='store_true')
    ap.add_argument('--json', help='also write the figures to this file (for Benchmarks/run.sh)')
    args = ap.parse_args()

    bench = Bench(args)
    try:
        rss = {'ours': [], 'peer': []}
        private = {'ours': [], 'peer': []}
        ctx = {'ours': [], 'peer': []}
        gets = {'ours': [], 'peer': []}
        nthreads = {}
        for run in range(args.runs):
            m, c, g, nthreads = bench.side_by_side(run)
            r = {who: m[who]['VmRSS'] for who in m}
            for who in rss:
                rss[who].append(r[who])
                private[who].append(m[who]['private'])
                ctx[who].append(c[who])
                gets[who].append(g[who])
            print('run %d/%d: VmRSS ours %d kB, peer %d kB; private ours %d kB, peer %d kB; Get/s ours %.0f, peer %.0f; idle ctxt switches '
                  '(vol+invol) ours %d+%d, peer %d+%d'
                  % (run + 1, args.runs, r['ours'], r['peer'], m['ours']['private'], m['peer']['private'],
                     g['ours'], g['peer'],
                     c['ours'][0], c['ours'][1], c['peer'][0], c['peer'][1]), flush=True)
        starts = bench.starts()
        print('starts (ms): ours %s; peer %s' % (' '.join('%.1f' % t for t in starts['ours']),
                                                 ' '.join('%.1f' % t for t in starts['peer'])), flush=True)
        scale = None if args.skip_scale else bench.scale()
    finally:
        bench.close()
        if args.keep:
            print('logs: %s' % bench.work)

    print()
    print('bus benchmark: %d run(s), medians; orientationd %s' % (args.runs, args.daemon))
    print('both on one private dbus-daemon and one umockdev fake accelerometer (LD_PRELOAD=libumockdev-preload.so.0);')
    print('ours: orientationd --sensor iio; peer: %s (threads: ours %d, peer %d)'
          % (PEER_BIN, nthreads.get('ours', 0), nthreads.get('peer', 0)))
    print()
    w = (52, 17, 14, 10, 22)
    print('%-*s %*s %*s %*s  %s' % (w[0], 'figure', w[1], 'iio-sensor-proxy', w[2], 'orientationd', w[3], 'ratio', 'target'))

    def row(name, peer, ours, ratio, target):
        print('%-*s %*s %*s %*s  %s' % (w[0], name, w[1], peer, w[2], ours, w[3], ratio, target))

    def ratio(ours, peer):
        return '%.2f×' % (ours / peer) if peer else ('0 = 0' if ours == 0 else 'n/a')

    mr, mp = median(rss['ours']), median(rss['peer'])
    row('idle resident memory (VmRSS after 1 s idle)', '%.0f kB' % mp, '%.0f kB' % mr, ratio(mr, mp), '<= 1.0× the peer')
    pr, pp = median(private['ours']), median(private['peer'])
    row('idle private memory (Private_Clean + _Dirty)', '%.0f kB' % pp, '%.0f kB' % pr, ratio(pr, pp), '<= 1.0× the peer')
    gr, gp = median(gets['ours']), median(gets['peer'])
    row('Properties.Get round trips/s (Python GIO, %g s)' % args.get_seconds, '%.0f/s' % gp, '%.0f/s' % gr,
        ratio(gr, gp), '>= 1.0× the peer')
    sr, sp = median(starts['ours']), median(starts['peer'])
    row('start -> bus name owned (median of %d)' % args.starts, '%.1f ms' % sp, '%.1f ms' % sr, ratio(sr, sp),
        '<= 1.0× the peer')
    cr = median([v + i for v, i in ctx['ours']])
    cp = median([v + i for v, i in ctx['peer']])
    row('context switches over %g s idle (vol+invol)' % args.idle_seconds, '%.0f' % cp, '%.0f' % cr, ratio(cr, cp),
        '0')
    print('  per run (vol+invol): ours %s; peer %s' % (', '.join('%d+%d' % c for c in ctx['ours']),
                                                      ', '.join('%d+%d' % c for c in ctx['peer'])))
    print('  per run VmRSS kB: ours %s; peer %s' % (', '.join(map(str, rss['ours'])), ', '.join(map(str, rss['peer']))))
    print('  per run private kB: ours %s; peer %s' % (', '.join(map(str, private['ours'])),
                                                     ', '.join(map(str, private['peer']))))
    print('  start ms: ours %.1f–%.1f, peer %.1f–%.1f' % (min(starts['ours']), max(starts['ours']),
                                                         min(starts['peer']), max(starts['peer'])))
    print('  per run Get/s: ours %s; peer %s' % (', '.join('%.0f' % g for g in gets['ours']),
                                                ', '.join('%.0f' % g for g in gets['peer'])))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'rss': rss, 'private': private, 'gets': gets, 'starts': starts, 'ctx': ctx, 'scale': scale,
                       'get_seconds': args.get_seconds, 'idle_seconds': args.idle_seconds}, f, indent=1)
    if scale:
        s = scale
        print()
        print('scale (ours alone, --sensor simulated, no umockdev): %d connections, %d windows, %d controllers, '
              'one client process (registered in %.1f s)'
              % (s['connections'], s['windows'], s['controllers'], s['register_seconds']))
        print('%-*s %*s %*s  %s' % (w[0], 'figure', w[1], 'empty daemon', w[2], 'at scale', 'target'))
        print('%-*s %*s %*s  %s' % (w[0], 'VmRSS (empty: after its rotations)', w[1], '%d kB' % s['rss0'], w[2],
                                    '%d kB' % s['rss1'], '(1 s after start: %d kB)' % s['idle_rss']))
        print('%-*s %*s %*s  %s' % (w[0], 'memory per controller (RSS growth / controllers)', w[1], '', w[2],
                                    '%.2f KB' % ((s['rss1'] - s['rss0']) / s['controllers']), '<= 2 KB'))
        for key, label in (('sched', 'schedstat'), ('ticks', 'utime+stime')):
            print('%-*s %*s %*s  %s' % (w[0], 'daemon CPU per forced rotation (%s)' % label, w[1],
                                        '%.0f µs' % s['empty'][key], w[2], '%.0f µs' % s['loaded'][key],
                                        '<= 200 µs, at scale <= 1 ms' if key == 'sched' else ''))
        print('  %d rotations each (SetDeviceOrientation 1/3 alternating, a claim held; each includes the call\'s '
              'authorization; the orientation is saved lazily, at most one write in 5 s); DidChange seen: empty %d, at scale %d'
              % (s['rotations'], s['empty']['did_change'], s['loaded']['did_change']))
        print('  CPU summed over all threads: schedstat in ns, utime+stime in 1/%d s ticks' % os.sysconf('SC_CLK_TCK'))
        print('  memory per controller counts the windows too (RSS growth / controllers, 1 KB = 1024 bytes)')


if __name__ == '__main__':
    main()
