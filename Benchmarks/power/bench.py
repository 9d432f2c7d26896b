#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""Power while claimed (Docs/performance.md): orientationd against iio-sensor-proxy, the peer,
on one umockdev fake accelerometer, in one run.

Both daemons run at once on the same fake device, each claimed by one Gio client (the peer:
ClaimAccelerometer; ours: BeginGeneratingDeviceOrientationNotifications), default settings. Two phases
of SECONDS each, every run:
- still: the device lies in portrait and nothing changes;
- turning: every 2 s it turns portrait <-> landscape (right edge up).
Per daemon and phase: CPU time per minute (the sum over its threads of /proc/PID/task/*/schedstat's
time on CPU) and wake-ups per second (voluntary context switches, summed over its threads: each is
the thread going to sleep, so each is one wake-up; involuntary switches are preemptions, printed
apart). The orientation changes each daemon announced while turning are counted, so a daemon that
saves power by missing turns shows it.

Run through run.sh. Prints figures; never fails on a time. --json FILE writes them for Benchmarks/run.sh.
"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from sidebyside import arguments, LANDSCAPE, PORTRAIT, Sample, SideBySide  # noqa: E402


def run_once(args, order):
    sbs = SideBySide(args.daemon, keep=args.keep, motion_events=args.motion_events)
    try:
        procs = {}
        for who in order:
            procs[who], _ = sbs.start(who)
        pids = {who: p.pid for who, p in procs.items()}
        sbs.record_changes({'DeviceOrientationDidChange': 'ours'})
        for who in order:
            sbs.claim(who)
        if not sbs.settle_in(PORTRAIT, order):
            print('warning: the daemons did not both report portrait', file=sys.stderr)
        sbs.pump(2)
        result = {}
        before = Sample(pids)
        sbs.pump(args.seconds)
        result['still'] = Sample(pids).since(before)

        del sbs.events[:]
        pose = PORTRAIT
        turns = max(1, int(args.seconds / 2))
        before = Sample(pids)
        for _ in range(turns):
            pose = LANDSCAPE if pose == PORTRAIT else PORTRAIT
            sbs.write(pose)
            sbs.pump(2.0)
        result['turning'] = Sample(pids).since(before)
        sbs.pump(1.0)
        result['turns'] = turns
        result['changes'] = {who: sum(1 for _, w, _ in sbs.events if w == who) for who in ('peer', 'ours')}
        return result
    finally:
        sbs.close()


def main():
    args = arguments(runs=(int, 3), seconds=(float, 60))

    runs = []
    for n in range(args.runs):
        order = ['ours', 'peer'] if n % 2 == 0 else ['peer', 'ours']
        r = run_once(args, order)
        runs.append(r)
        line = []
        for phase in ('still', 'turning'):
            for who in ('peer', 'ours'):
                f = r[phase][who]
                line.append('%s %s %.1f ms/min %.1f wake-ups/s' % (phase, who, f['cpu_ms'] * 60 / f['seconds'],
                                                                    f['wakeups'] / f['seconds']))
        print('run %d/%d: %s; turns %d, changes seen peer %d, ours %d'
              % (n + 1, args.runs, '; '.join(line), r['turns'], r['changes']['peer'], r['changes']['ours']), flush=True)

    figures = {}
    for phase in ('still', 'turning'):
        for who in ('peer', 'ours'):
            cpu = [r[phase][who]['cpu_ms'] * 60 / r[phase][who]['seconds'] for r in runs]
            wake = [r[phase][who]['wakeups'] / r[phase][who]['seconds'] for r in runs]
            inv = [r[phase][who]['involuntary'] / r[phase][who]['seconds'] for r in runs]
            figures['%s_%s' % (phase, who)] = {'cpu_ms_per_min': statistics.median(cpu), 'cpu_runs': cpu,
                                               'wakeups_per_s': statistics.median(wake), 'wakeups_runs': wake,
                                               'involuntary_per_s': statistics.median(inv)}
    figures['turns'] = [r['turns'] for r in runs]
    figures['changes'] = {who: [r['changes'][who] for r in runs] for who in ('peer', 'ours')}

    print()
    print('power while claimed: %d run(s) x %g s per phase, medians; one umockdev accelerometer, both daemons '
          'claimed at once, default settings' % (args.runs, args.seconds))
    print('%-40s %18s %18s %8s  %s' % ('figure', 'iio-sensor-proxy', 'orientationd', 'ratio', 'target'))
    for phase, label in (('still', 'device still'), ('turning', 'turning every 2 s')):
        p, o = figures[phase + '_peer'], figures[phase + '_ours']
        ratio = o['cpu_ms_per_min'] / p['cpu_ms_per_min'] if p['cpu_ms_per_min'] else float('nan')
        print('%-40s %15.1f ms %15.1f ms %7.2f×  %s' % ('CPU per minute, ' + label, p['cpu_ms_per_min'],
                                                        o['cpu_ms_per_min'], ratio,
                                                        '<= 1.0× the peer' if phase == 'still' else ''))
        print('%-40s %16.1f/s %16.1f/s %8s' % ('wake-ups per second, ' + label, p['wakeups_per_s'],
                                               o['wakeups_per_s'], ''))
    print('  per run CPU ms/min still: peer %s; ours %s' % (
        ', '.join('%.1f' % v for v in figures['still_peer']['cpu_runs']),
        ', '.join('%.1f' % v for v in figures['still_ours']['cpu_runs'])))
    print('  per run CPU ms/min turning: peer %s; ours %s' % (
        ', '.join('%.1f' % v for v in figures['turning_peer']['cpu_runs']),
        ', '.join('%.1f' % v for v in figures['turning_ours']['cpu_runs'])))
    print('  turns per run %s; orientation changes announced: peer %s, ours %s' % (
        figures['turns'], figures['changes']['peer'], figures['changes']['ours']))
    print('  wake-ups = voluntary context switches of all threads (peer: %s)' % 'main loop, GDBus worker and GLib helpers')
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(figures, f, indent=1)


if __name__ == '__main__':
    main()
