#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""Battery against latency while claimed (Docs/sensors.md, "Battery against latency"): the curve of
orientationd's CPU time per minute, device still, against its rotation latency, one point per
`[Sensor] StillPollHz`, with iio-sensor-proxy's point (the peer; it polls every 700 ms) on the same axes.

One session per setting and run: a private bus, one umockdev fake accelerometer, our daemon started with
`--config FILE` setting `[Sensor] StillPollHz=<hz>` (and PollHz, with --poll-hz) and the peer beside it,
both claimed by one Gio client (ClaimAccelerometer; BeginGeneratingDeviceOrientationNotifications).
The peer runs in every session, so its point is measured as often as ours, in the same conditions.
Each session:
- still: the device lies in portrait; after 3 s (ours reaches its still rate after 1 s), SECONDS of CPU
  time (/proc/PID/task/*/schedstat, every thread) and wake-ups (voluntary context switches, every thread);
- steps: STEPS times, after the device has lain still 3 s plus a random 0-1 s (so a step falls at a
  random phase of either daemon's poll), the attributes jump at once portrait <-> landscape; latency =
  the write -> this client sees the change (ours: DidChange, the interface orientation; the peer:
  AccelerometerOrientation in PropertiesChanged). DeviceOrientationDidChange is kept too;
- sweeps: SWEEPS times, after the same stillness, gravity turns smoothly portrait <-> landscape over
  SWEEP_MS (400 ms) as a hand turns a device (a minimum-jerk profile: slow start, fast middle, slow end),
  a new sample written in place every ~10 ms; latency = the END of the sweep -> the client sees the
  change (negative when announced before the end; kept as it is).
Runs alternate the order of the settings (ascending, then descending, ...), so drift of the shared
machine falls on both ends. Prints one row per setting and run, a row per run for the peer, then the
pooled figures and which settings sit below and left of the peer (less CPU and less latency) for steps
and sweeps. --json FILE writes every figure and latency; OUT/pollcurve.png (gnuplot, when installed)
draws CPU per minute against the step and the sweep median latency. Never fails on a time.
"""
import argparse
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from sidebyside import (LANDSCAPE, OD, OD_PATH, OUR_VALUE, PEER_VALUE, PORTRAIT, RAW_G,  # noqa: E402
                        Sample, SideBySide)
from gi.repository import GLib  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
WHO = ('ours', 'ours-device', 'peer')   # ours: DidChange (interface); ours-device: DeviceOrientationDidChange
STILL_BEFORE = 3.0                      # seconds the device lies still before each step or sweep
WAIT_AFTER = 2.5                        # seconds to wait for the last step's or sweep's announcements


def percentile(values, p):
    if not values:
        return float('nan')
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def median(values):
    return statistics.median(values) if values else float('nan')


def min_jerk(tau):
    """Share of the turn done at `tau` (0-1) of its time: a hand's minimum-jerk movement."""
    return tau * tau * tau * (10 - 15 * tau + 6 * tau * tau)


def shipped_default():
    """[Sensor] StillPollHz's default as data/orientationd.conf documents it (`#StillPollHz=N`), or None."""
    try:
        with open(os.path.join(ROOT, 'data', 'orientationd.conf')) as f:
            m = re.search(r'^#\s*StillPollHz\s*=\s*([0-9.]+)', f.read(), re.M)
            return float(m.group(1)) if m else None
    except OSError:
        return None


def busy_jiffies():
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    with open('/proc/stat') as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)
    return sum(v) - idle, sum(v)


class Session(SideBySide):
    """Both daemons on one fake accelerometer, ours at one StillPollHz; signals timestamped in the main loop."""

    def __init__(self, args, hz):
        # The config file must exist before the daemon starts; SideBySide makes the work directory.
        self.config_lines = ['[Sensor]', 'StillPollHz=%g' % hz] + (['PollHz=%d' % args.poll_hz] if args.poll_hz else [])
        super().__init__(args.daemon, keep=args.keep, motion_events=args.motion_events)
        conf = os.path.join(self.work, 'orientationd.conf')
        with open(conf, 'w') as f:
            f.write('\n'.join(self.config_lines) + '\n')
        self.extra_args = ['--config', conf]
        self.pose = PORTRAIT
        self.record_changes({'DidChange': 'ours', 'DeviceOrientationDidChange': 'ours-device'})

    def set_raw(self, raw):
        if any(self.raw.get(a) != v for a, v in zip('xyz', raw)):
            self.moved()
        for axis, value in zip('xyz', raw):
            if self.raw.get(axis) != value:
                self.testbed.set_attribute(self.accel, 'in_accel_%s_raw' % axis, str(value))
                self.raw[axis] = value

    def sweep(self, to, ms):
        """Turns gravity from the current pose to `to` over `ms`, a sample every ~10 ms, in the main
        loop (so signals meanwhile are timestamped too). Returns (start, end, samples written)."""
        a0, a1 = (0.0, 90.0) if to == LANDSCAPE else (90.0, 0.0)
        t_start = time.monotonic()
        state = {'end': None, 'samples': 0}

        def tick():
            tau = min(1.0, (time.monotonic() - t_start) * 1000 / ms)
            angle = math.radians(a0 + (a1 - a0) * min_jerk(tau))
            if tau >= 1.0:
                self.set_raw(to)
            else:
                # Portrait (0, -g, 0) -> landscape (-g, 0, 0): x = -g sin a, y = -g cos a.
                self.set_raw((round(-RAW_G * math.sin(angle)), round(-RAW_G * math.cos(angle)), 0))
            state['samples'] += 1
            if tau >= 1.0:
                state['end'] = time.monotonic()
                self.loop.quit()
                return False
            return True

        tick()
        GLib.timeout_add(10, tick)
        self.loop.run()
        self.pose = to
        return t_start, state['end'], state['samples']

    def latencies(self, marks, last_end=float('inf')):
        """marks: (window start, time latency counts from, pose) per step or sweep; returns ({who: [ms]},
        {who: missed}): the first announcement of the pose in [start, next start) (the last: until
        `last_end`)."""
        lat = {w: [] for w in WHO}
        missed = {w: 0 for w in WHO}
        for i, (start, t_ref, pose) in enumerate(marks):
            end = marks[i + 1][0] if i + 1 < len(marks) else last_end
            for who in WHO:
                want = PEER_VALUE[pose] if who == 'peer' else OUR_VALUE[pose]
                seen = [t for (t, w, v) in self.events if w == who and v == want and start <= t < end]
                if seen:
                    lat[who].append((seen[0] - t_ref) * 1000)
                else:
                    missed[who] += 1
        return lat, missed


def session(args, hz, rng):
    s = Session(args, hz)
    try:
        procs = {}
        for who in ('ours', 'peer'):
            procs[who], _ = s.start(who)
        pids = {who: p.pid for who, p in procs.items()}
        s.claim('peer')
        s.claim('ours')
        if not s.get(OD, OD_PATH, OD, 'HasAccelerometer'):
            raise RuntimeError('orientationd found no accelerometer; logs in %s' % s.work)
        if not s.settle_in(PORTRAIT, ('peer', 'ours')):
            print('  warning: the daemons did not both report portrait', file=sys.stderr)
        s.pose = PORTRAIT
        s.pump(STILL_BEFORE)
        out = {'hz': hz, 'config': s.config_lines, 'load_before': os.getloadavg()[0]}

        busy0 = busy_jiffies()
        before = Sample(pids)
        s.pump(args.seconds)
        still = Sample(pids).since(before)
        busy1 = busy_jiffies()
        out['machine_busy'] = (busy1[0] - busy0[0]) / max(1, busy1[1] - busy0[1])   # share of both CPUs
        out['still'] = {who: {'cpu_ms_per_min': f['cpu_ms'] * 60 / f['seconds'],
                              'wakeups_per_s': f['wakeups'] / f['seconds'],
                              'involuntary_per_s': f['involuntary'] / f['seconds'],
                              'cpu_us_per_wakeup': f['cpu_ms'] * 1000 / max(1, f['wakeups'])}
                        for who, f in still.items()}

        # A random 0..spread s on top of the 3 s still, spread >= either daemon's still poll interval.
        spread = max(0.7, 1.0 / hz)
        marks = []
        for _ in range(args.steps):
            s.pump(STILL_BEFORE + rng.uniform(0, spread))
            pose = LANDSCAPE if s.pose == PORTRAIT else PORTRAIT
            t0 = time.monotonic()
            s.write(pose)
            s.pose = pose
            marks.append((t0, t0, pose))
        step_marks = marks

        # The first sweep's 3 s of stillness is the last step's time to be announced.
        marks = []
        samples = []
        for _ in range(args.sweeps):
            s.pump(STILL_BEFORE + rng.uniform(0, spread))
            pose = LANDSCAPE if s.pose == PORTRAIT else PORTRAIT
            t_start, t_end, n = s.sweep(pose, args.sweep_ms)
            marks.append((t_start, t_end, pose))
            samples.append(n)
        s.pump(WAIT_AFTER)
        out['step'], out['step_missed'] = s.latencies(step_marks, marks[0][0] if marks else float('inf'))
        out['sweep'], out['sweep_missed'] = s.latencies(marks)
        out['sweep_samples'] = samples
        out['sweep_ms_measured'] = [(e - b) * 1000 for (b, e, _) in marks]
        out['load_after'] = os.getloadavg()[0]
        return out
    finally:
        if args.keep:
            print('  logs: %s' % s.work, file=sys.stderr)
        s.close()


def figures(sessions, who):
    """Pooled figures of `who` over `sessions`: CPU and wake-ups, medians of the sessions' figures;
    latencies, median and p95 over every step or sweep."""
    cpu = [x['still'][who if who == 'peer' else 'ours']['cpu_ms_per_min'] for x in sessions]
    wake = [x['still'][who if who == 'peer' else 'ours']['wakeups_per_s'] for x in sessions]
    per_wake = [x['still'][who if who == 'peer' else 'ours']['cpu_us_per_wakeup'] for x in sessions]
    step = [v for x in sessions for v in x['step'][who]]
    sweep = [v for x in sessions for v in x['sweep'][who]]
    return {'cpu_ms_per_min': median(cpu), 'cpu_runs': cpu, 'wakeups_per_s': median(wake), 'wakeups_runs': wake,
            'cpu_us_per_wakeup': median(per_wake),
            'step_median': median(step), 'step_p95': percentile(step, 95), 'step_n': len(step),
            'step_missed': sum(x['step_missed'][who] for x in sessions),
            'sweep_median': median(sweep), 'sweep_p95': percentile(sweep, 95), 'sweep_n': len(sweep),
            'sweep_missed': sum(x['sweep_missed'][who] for x in sessions),
            'step_run_medians': [median(x['step'][who]) for x in sessions],
            'sweep_run_medians': [median(x['sweep'][who]) for x in sessions]}


def plot(out, summary, peer, runs_ours, runs_peer, default_hz):
    """OUT/pollcurve.png: CPU per minute against step (left) and sweep (right) median latency."""
    if not shutil.which('gnuplot'):
        return None, 'gnuplot is missing (apt: gnuplot-nox): no plot'
    dat = os.path.join(out, 'pollcurve-ours.dat')
    with open(dat, 'w') as f:
        f.write('# StillPollHz cpu_ms_per_min step_median_ms sweep_median_ms\n')
        for hz in sorted(summary):
            v = summary[hz]
            f.write('%g %.2f %.1f %.1f\n' % (hz, v['cpu_ms_per_min'], v['step_median'], v['sweep_median']))
    runs_dat = os.path.join(out, 'pollcurve-runs.dat')
    with open(runs_dat, 'w') as f:
        f.write('# who StillPollHz cpu_ms_per_min step_median_ms sweep_median_ms (one line per session)\n')
        for who, rows in (('ours', runs_ours), ('peer', runs_peer)):
            for hz, cpu, st, sw in rows:
                f.write('%s %g %.2f %.1f %.1f\n' % (who, hz, cpu, st, sw))
    peer_dat = os.path.join(out, 'pollcurve-peer.dat')
    with open(peer_dat, 'w') as f:
        f.write('%.2f %.1f %.1f\n' % (peer['cpu_ms_per_min'], peer['step_median'], peer['sweep_median']))
    png = os.path.join(out, 'pollcurve.png')

    def panel(col, label, title, extra):
        return """set title '%s'
set xlabel '%s'
set ylabel 'CPU time per minute, claimed, device still (ms)'
set arrow 1 from %f, graph 0 to %f, graph 1 nohead dashtype 2 linecolor rgb 'red'
set arrow 2 from graph 0, first %f to graph 1, first %f nohead dashtype 2 linecolor rgb 'red'
%s
plot '%s' using (strcol(1) eq 'ours' ? $%d : 1/0):3 with points pointtype 1 linecolor rgb '#7799cc' title 'orientationd, each session', \\
     '%s' using (strcol(1) eq 'peer' ? $%d : 1/0):3 with points pointtype 2 linecolor rgb '#ee9999' title 'iio-sensor-proxy, each session', \\
     '%s' using %d:2 with linespoints pointtype 7 pointsize 1.3 linewidth 2 linecolor rgb '#1f4e9c' title 'orientationd, median', \\
     '%s' using %d:2:(sprintf('%%g Hz%%s', $1, $1 == %d ? ' (default)' : '')) with labels offset 1.2,0.9 left font ',10' notitle, \\
     '%s' using %d:1 with points pointtype 5 pointsize 2 linecolor rgb 'red' title 'iio-sensor-proxy 3.0 (polls every 700 ms)'
unset arrow 1
unset arrow 2
unset arrow 3
unset label 1
""" % (title, label, peer[col], peer[col], peer['cpu_ms_per_min'], peer['cpu_ms_per_min'], extra,
       runs_dat, 4 if col == 'step_median' else 5, runs_dat, 4 if col == 'step_median' else 5,
       dat, 3 if col == 'step_median' else 4, dat, 3 if col == 'step_median' else 4, default_hz or -1,
       peer_dat, 2 if col == 'step_median' else 3)

    target_step = 0.8 * peer['step_median']
    script = """set terminal pngcairo size 1400,600 font ",10"
set output '%s'
set multiplot layout 1,2 title 'orientationd by [Sensor] StillPollHz against iio-sensor-proxy 3.0: the point to beat is below and left of the red one'
set grid
set key bottom left Left reverse font ',9'
set logscale y 2
set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06
%s
%s
unset multiplot
""" % (png,
       panel('step_median', 'step change -> client sees it, median (ms)', 'Step (jump at once, after 3 s still)',
             "set arrow 3 from %f, graph 0 to %f, graph 1 nohead dashtype 3 linecolor rgb 'gray40'\n"
             "set label 1 'target 0.8x peer' at %f, graph 0.96 font ',9'" % (target_step, target_step, target_step + 5)),
       panel('sweep_median', 'end of a 400 ms turn -> client sees it, median (ms)',
             'Sweep (400 ms turn as a hand makes it, after 3 s still)',
             "set arrow 3 from 150, graph 0 to 150, graph 1 nohead dashtype 3 linecolor rgb 'gray40'\n"
             "set label 1 'target 150 ms' at 155, graph 0.96 font ',9'"))
    with open(os.path.join(out, 'pollcurve.gp'), 'w') as f:
        f.write(script)
    r = subprocess.run(['gnuplot'], input=script, capture_output=True, text=True)
    if r.returncode != 0:
        # gnuplot without cairo: libgd's png terminal.
        r = subprocess.run(['gnuplot'], input=script.replace('pngcairo size 1400,600 font ",10"', 'png size 1400,600'),
                           capture_output=True, text=True)
    if r.returncode != 0:
        return None, 'gnuplot failed: ' + r.stderr.strip()[:300]
    return png, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--daemon', help='our binary (release build; copy it aside first)')
    ap.add_argument('--still-hz', default='1 2 3 4 6 8 15',
                    help='StillPollHz values, space or comma separated; "default": data/orientationd.conf\'s')
    ap.add_argument('--poll-hz', type=int, default=None, help='also set [Sensor] PollHz (default: the daemon\'s)')
    ap.add_argument('--runs', type=int, default=2)
    ap.add_argument('--seconds', type=float, default=30, help='seconds of CPU measured, device still')
    ap.add_argument('--steps', type=int, default=20)
    ap.add_argument('--sweeps', type=int, default=20)
    ap.add_argument('--sweep-ms', type=float, default=400)
    ap.add_argument('--default-hz', type=float, default=None,
                    help='the setting report.py shows as the default (default: data/orientationd.conf\'s)')
    ap.add_argument('--seed', type=int, default=None)
    ap.add_argument('--out', help='where pollcurve.png goes (default: beside --json, else the current directory)')
    ap.add_argument('--keep', action='store_true', help='keep the logs and the testbeds')
    ap.add_argument('--motion-events', action='store_true', help='the accelerometer offers a motion event (sidebyside.SideBySide)')
    ap.add_argument('--json', help='also write every figure and latency to this file')
    ap.add_argument('--from-json', help='measure nothing: print and plot the sessions of this saved run again')
    args = ap.parse_args()
    if args.from_json:
        with open(args.from_json) as f:
            saved = json.load(f)
        for key in ('runs', 'seconds', 'steps', 'sweeps', 'sweep_ms', 'poll_hz'):
            setattr(args, key, saved[key])
        args.out = args.out or os.path.dirname(os.path.abspath(args.from_json))
        report(args, saved['settings'], args.default_hz or shipped_default(), saved['sessions'], None)
        return
    if not args.daemon:
        ap.error('--daemon is needed (or --from-json)')

    default_hz = args.default_hz or shipped_default()
    settings = []
    for x in args.still_hz.replace(',', ' ').split():
        hz = (default_hz or 15) if x == 'default' else float(x)
        if hz not in settings:
            settings.append(hz)
    out_dir = args.out or (os.path.dirname(os.path.abspath(args.json)) if args.json else os.getcwd())
    os.makedirs(out_dir, exist_ok=True)
    rng = random.Random(args.seed)
    started = time.monotonic()
    print('poll curve: StillPollHz %s, %d run(s); per session %g s still, %d steps, %d sweeps of %g ms; '
          'daemon %s%s' % (' '.join(map(str, settings)), args.runs, args.seconds, args.steps, args.sweeps,
                           args.sweep_ms, args.daemon, ', PollHz=%d' % args.poll_hz if args.poll_hz else ''),
          flush=True)
    sessions = []
    for run in range(args.runs):
        order = settings if run % 2 == 0 else list(reversed(settings))
        for hz in order:
            x = session(args, hz, rng)
            x['run'] = run + 1
            sessions.append(x)
            o, p = x['still']['ours'], x['still']['peer']
            print('run %d StillPollHz=%-4g ours %6.1f ms/min %5.2f wake-ups/s step %4.0f ms sweep %4.0f ms | '
                  'peer %5.1f ms/min %4.2f/s step %4.0f ms sweep %4.0f ms | load %.2f, machine busy %2.0f%% '
                  '[%.0f s]' % (run + 1, hz, o['cpu_ms_per_min'], o['wakeups_per_s'], median(x['step']['ours']),
                                median(x['sweep']['ours']), p['cpu_ms_per_min'], p['wakeups_per_s'],
                                median(x['step']['peer']), median(x['sweep']['peer']),
                                x['load_before'], x['machine_busy'] * 100, time.monotonic() - started),
                  flush=True)
    report(args, settings, default_hz, sessions, started)


def report(args, settings, default_hz, sessions, started):
    """Prints the tables and the verdict, draws the plot, writes --json."""
    out_dir = args.out or (os.path.dirname(os.path.abspath(args.json)) if args.json else os.getcwd())
    # Per run: one row per setting, one for the peer (its sessions of that run pooled).
    head = ('%-22s %4s %11s %11s %10s %9s %10s %9s %8s %6s'
            % ('setting', 'run', 'CPU ms/min', 'wake-ups/s', 'step med', 'step p95', 'sweep med', 'sweep p95',
               'missed', 'busy'))
    print()
    print('per run (CPU and wake-ups over %g s still; step: write -> seen; sweep: end of the %g ms turn -> seen; '
          'ours = DidChange; missed = steps/sweeps never announced; busy = whole machine during the still window)'
          % (args.seconds, args.sweep_ms))
    print(head)

    def line(label, run, f, busy):
        print('%-22s %4s %11.1f %11.2f %7.0f ms %6.0f ms %7.0f ms %6.0f ms %4d/%-3d %5.0f%%'
              % (label, run, f['cpu_ms_per_min'], f['wakeups_per_s'], f['step_median'], f['step_p95'],
                 f['sweep_median'], f['sweep_p95'], f['step_missed'], f['sweep_missed'], busy * 100))
    for hz in settings:
        for run in range(1, args.runs + 1):
            ss = [x for x in sessions if x['hz'] == hz and x['run'] == run]
            line('StillPollHz=%g' % hz, run, figures(ss, 'ours'), ss[0]['machine_busy'])
    for run in range(1, args.runs + 1):
        ss = [x for x in sessions if x['run'] == run]
        line('iio-sensor-proxy 3.0', run, figures(ss, 'peer'), median([x['machine_busy'] for x in ss]))

    summary = {hz: figures([x for x in sessions if x['hz'] == hz], 'ours') for hz in settings}
    device = {hz: figures([x for x in sessions if x['hz'] == hz], 'ours-device') for hz in settings}
    peer = figures(sessions, 'peer')
    print()
    print('pooled over the runs (CPU, wake-ups: median of the sessions, each run listed; latency: median and p95 '
          'of every step or sweep; the peer: all %d sessions)' % len(sessions))
    print('%-22s %17s %11s %10s %9s %10s %9s %8s %9s'
          % ('setting', 'CPU ms/min (runs)', 'wake-ups/s', 'step med', 'step p95', 'sweep med', 'sweep p95',
             'missed', 'µs/wake'))

    def pooled(label, f):
        runs = '/'.join('%.0f' % v for v in f['cpu_runs']) if len(f['cpu_runs']) <= 3 else \
            '%.0f-%.0f' % (min(f['cpu_runs']), max(f['cpu_runs']))
        print('%-22s %6.1f %-10s %11.2f %7.0f ms %6.0f ms %7.0f ms %6.0f ms %4d/%-3d %9.0f'
              % (label, f['cpu_ms_per_min'], '(' + runs + ')', f['wakeups_per_s'], f['step_median'], f['step_p95'],
                 f['sweep_median'], f['sweep_p95'], f['step_missed'], f['sweep_missed'], f['cpu_us_per_wakeup']))
    for hz in settings:
        pooled('StillPollHz=%g%s' % (hz, '*' if hz == default_hz else ''), summary[hz])
    pooled('iio-sensor-proxy 3.0', peer)
    if default_hz in settings:
        print('* the default (data/orientationd.conf)')
    print('ours by DeviceOrientationDidChange instead of DidChange, step/sweep medians: %s' % ', '.join(
        '%g Hz %.0f/%.0f ms' % (hz, device[hz]['step_median'], device[hz]['sweep_median']) for hz in settings))

    print()
    both = []
    for hz in settings:
        f = summary[hz]
        step_ok = f['step_median'] < peer['step_median']
        sweep_ok = f['sweep_median'] < peer['sweep_median']
        cpu_ok = f['cpu_ms_per_min'] < peer['cpu_ms_per_min']
        # The noise of the shared machine moves both daemons together: ours against the peer in the same session.
        paired = ', '.join('%.2f×' % (x['still']['ours']['cpu_ms_per_min'] / x['still']['peer']['cpu_ms_per_min'])
                           for x in sorted(sessions, key=lambda x: x['run']) if x['hz'] == hz)
        print('StillPollHz=%-4g CPU %s the peer (%.1f vs %.1f ms/min, %.2f×; same session, each run: %s); '
              'step %s (%.0f vs %.0f ms, %.2f×); sweep %s (%.0f vs %.0f ms)%s'
              % (hz, 'below' if cpu_ok else 'ABOVE', f['cpu_ms_per_min'], peer['cpu_ms_per_min'],
                 f['cpu_ms_per_min'] / peer['cpu_ms_per_min'] if peer['cpu_ms_per_min'] else float('nan'), paired,
                 'left' if step_ok else 'RIGHT', f['step_median'], peer['step_median'],
                 f['step_median'] / peer['step_median'] if peer['step_median'] else float('nan'),
                 'left' if sweep_ok else 'RIGHT', f['sweep_median'], peer['sweep_median'],
                 '  <- below and left for both' if cpu_ok and step_ok and sweep_ok else ''))
        if cpu_ok and step_ok and sweep_ok:
            both.append(hz)
    print('below and left of the peer for both step and sweep latency: %s'
          % (', '.join('StillPollHz=%g' % hz for hz in both) if both else 'none'))
    print('Targets (CPU still <= 1.0x the peer, step median <= 0.8x the peer\'s, 400 ms turn median '
          '<= 150 ms) all met by: %s' % (', '.join(
              'StillPollHz=%g' % hz for hz in settings
              if summary[hz]['cpu_ms_per_min'] <= peer['cpu_ms_per_min']
              and summary[hz]['step_median'] <= 0.8 * peer['step_median'] and summary[hz]['sweep_median'] <= 150)
              or 'none'))
    png, why = plot(out_dir, summary, peer,
                    [(x['hz'], x['still']['ours']['cpu_ms_per_min'], median(x['step']['ours']),
                      median(x['sweep']['ours'])) for x in sessions],
                    [(x['hz'], x['still']['peer']['cpu_ms_per_min'], median(x['step']['peer']),
                      median(x['sweep']['peer'])) for x in sessions], default_hz)
    print('plot: %s' % (png or why))
    if started is not None:
        print('total %.0f s' % (time.monotonic() - started))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'settings': settings, 'default_hz': default_hz, 'poll_hz': args.poll_hz, 'runs': args.runs,
                       'seconds': args.seconds, 'steps': args.steps, 'sweeps': args.sweeps, 'sweep_ms': args.sweep_ms,
                       'summary': {str(hz): v for hz, v in summary.items()},
                       'summary_device': {str(hz): v for hz, v in device.items()}, 'peer': peer,
                       'below_and_left': both, 'png': png, 'sessions': sessions}, f, indent=1)


if __name__ == '__main__':
    main()
