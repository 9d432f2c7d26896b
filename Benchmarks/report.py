#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""One table of every side-by-side figure, from the JSON files Benchmarks/run.sh leaves in OUT, and
OUT/latency.png: both daemons' rotation latency distributions (gnuplot, when installed).

    report.py OUT
"""
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys


def load(out, name):
    try:
        with open(os.path.join(out, name + '.json')) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))] if s else float('nan')


def machine():
    cpu = 'unknown CPU'
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('model name'):
                    cpu = line.split(':', 1)[1].strip()
                    break
    except OSError:
        pass
    return '%s, %d CPUs, Linux %s' % (cpu, os.cpu_count() or 0, platform.release())


def plot(out, latency):
    """Writes OUT/latency.png: the share of steps seen within t ms, for each daemon; the data as OUT/latency.dat."""
    if not shutil.which('gnuplot'):
        return 'gnuplot is missing (apt: gnuplot-nox): no plot'
    series = [('peer', 'iio-sensor-proxy 3.0'), ('ours', 'orientationd')]
    for who, _ in series:
        values = sorted(latency['latencies'][who])
        with open(os.path.join(out, 'latency-%s.dat' % who), 'w') as f:
            for i, v in enumerate(values):
                f.write('%.1f %.4f\n' % (v, (i + 1) / len(values)))
    script = """set terminal pngcairo size 900,540 font ",11"
set output '%s'
set title 'Rotation latency, %d steps each (umockdev accelerometer, same run)'
set xlabel 'attribute write -> change seen by a client (ms)'
set ylabel 'share of steps seen by then'
set key bottom right
set grid
set xrange [0:*]
set yrange [0:1.02]
set arrow from 150, graph 0 to 150, graph 1 nohead dashtype 2
set label 'target: median <= 150 ms' at 155, 0.08
plot %s
""" % (os.path.join(out, 'latency.png'), len(latency['latencies']['ours']),
       ', '.join("'%s' using 1:2 with steps linewidth 2 title '%s'" % (os.path.join(out, 'latency-%s.dat' % who), label)
                 for who, label in series))
    r = subprocess.run(['gnuplot'], input=script, capture_output=True, text=True)
    if r.returncode != 0:
        # pngcairo is in gnuplot-qt/-x11; gnuplot-nox has the gd-based png terminal.
        r = subprocess.run(['gnuplot'], input=script.replace('pngcairo size 900,540 font ",11"', 'png size 900,540'),
                           capture_output=True, text=True)
    return os.path.join(out, 'latency.png') if r.returncode == 0 else 'gnuplot failed: ' + r.stderr.strip()[:200]


def main():
    out = sys.argv[1]
    rows = []

    def row(figure, peer, ours, ratio='', target=''):
        rows.append((figure, peer, ours, ratio, target))

    def times(a, b):
        return '%.2f×' % (a / b) if b else ('—' if a == 0 else 'n/a')

    def verdict(target, met):
        return '%s: %s' % (target, 'met' if met else '**not met**')

    def power_rows(power, device):
        """Still and turning, CPU and wake-ups, with the targets of a battery-minded daemon."""
        for phase, label in (('still', 'claimed, device still'), ('turning', 'claimed, turning every 2 s')):
            p, o = power[phase + '_peer'], power[phase + '_ours']
            limit = 0.7 if phase == 'still' else 1.5
            row('CPU time per minute, %s%s' % (label, device), '%.1f ms' % p['cpu_ms_per_min'], '%.1f ms' % o['cpu_ms_per_min'],
                times(o['cpu_ms_per_min'], p['cpu_ms_per_min']),
                verdict('≤ %.1f×' % limit, o['cpu_ms_per_min'] <= limit * p['cpu_ms_per_min']))
            row('wake-ups per second, %s%s' % (label, device), '%.1f' % p['wakeups_per_s'], '%.1f' % o['wakeups_per_s'], '',
                verdict('≤ the peer\'s', o['wakeups_per_s'] <= p['wakeups_per_s']) if phase == 'still' else '')

    def curve_rows(curve, device):
        hz = curve.get('default_hz')
        o, p = curve['summary'].get(str(hz)), curve['peer']
        if not o:
            return False
        label = 'StillPollHz=%g (default)%s, %d run(s)' % (hz, device, curve['runs'])
        row('%s: CPU time per minute, claimed, still' % label, '%.1f ms' % p['cpu_ms_per_min'],
            '%.1f ms' % o['cpu_ms_per_min'], times(o['cpu_ms_per_min'], p['cpu_ms_per_min']),
            verdict('≤ 0.7×', o['cpu_ms_per_min'] <= 0.7 * p['cpu_ms_per_min']))
        row('%s: wake-ups per second, claimed, still' % label, '%.2f' % p['wakeups_per_s'],
            '%.2f' % o['wakeups_per_s'], '', verdict('≤ the peer\'s', o['wakeups_per_s'] <= p['wakeups_per_s']))
        row('%s: step after 3 s still, median / p95 (%d steps)' % (label, o['step_n']),
            '%.0f / %.0f ms' % (p['step_median'], p['step_p95']), '%.0f / %.0f ms' % (o['step_median'], o['step_p95']),
            times(o['step_median'], p['step_median']), verdict('≤ 0.5× the peer\'s median', o['step_median'] <= 0.5 * p['step_median']))
        row('%s: %g ms turn, its end → seen, median / p95 (%d turns)' % (label, curve['sweep_ms'], o['sweep_n']),
            '%.0f / %.0f ms' % (p['sweep_median'], p['sweep_p95']),
            '%.0f / %.0f ms' % (o['sweep_median'], o['sweep_p95']), '', verdict('median ≤ 150 ms', o['sweep_median'] <= 150))
        return True

    bus = load(out, 'bus-benchmark')
    if bus:
        med = {k: {w: statistics.median(v) for w, v in bus[k].items()} for k in ('rss', 'private', 'gets', 'starts')}
        row('idle VmRSS, nobody claiming', '%.0f kB' % med['rss']['peer'], '%.0f kB' % med['rss']['ours'],
            times(med['rss']['ours'], med['rss']['peer']), '≤ 1.0×')
        row('idle private memory (Private_Clean + Private_Dirty)', '%.0f kB' % med['private']['peer'],
            '%.0f kB' % med['private']['ours'], times(med['private']['ours'], med['private']['peer']), '≤ 1.0×')
        row('start → bus name owned, median of %d' % len(bus['starts']['ours']), '%.1f ms' % med['starts']['peer'],
            '%.1f ms' % med['starts']['ours'], times(med['starts']['ours'], med['starts']['peer']), '≤ 1.0×')
        row('Properties.Get round trips/s (Python GIO)', '%.0f/s' % med['gets']['peer'], '%.0f/s' % med['gets']['ours'],
            times(med['gets']['ours'], med['gets']['peer']), '≥ 1.0×')
        ctx = {w: statistics.median(v + i for v, i in bus['ctx'][w]) for w in ('peer', 'ours')}
        row('context switches over %g s idle' % bus['idle_seconds'], '%d' % ctx['peer'], '%d' % ctx['ours'], '', '0')
        scale = bus.get('scale')
        if scale:
            row('daemon CPU per forced rotation, empty (schedstat, %d rotations)' % scale['rotations'], '—',
                '%.0f µs' % scale['empty']['sched'], '', '≤ 200 µs')
            row('daemon CPU per forced rotation, %d controllers' % scale['controllers'], '—',
                '%.0f µs' % scale['loaded']['sched'], '', '≤ 1 ms')
    starts = load(out, 'memory-starts')
    if starts:
        def span(who, key):
            values = [r[who][key] for r in starts]
            return '%s–%s kB' % ('{:,}'.format(min(values)), '{:,}'.format(max(values)))

        def each(key):
            return sum(r['ours'][key] <= r['peer'][key] for r in starts)
        n = len(starts)
        for key, label in (('VmRSS', 'VmRSS'), ('Pss', 'PSS'), ('private', 'private memory')):
            worst = max(r['ours'][key] / r['peer'][key] for r in starts)
            target = verdict('≤ the peer\'s in each start', each(key) == n) + ' (%d of %d)' % (each(key), n) \
                if key != 'private' else 'reported'
            row('idle %s, %d alternating cold starts (`memory/starts.py`)' % (label, n), span('peer', key), span('ours', key),
                'up to %.2f×' % worst, target)
    idle = load(out, 'memory-idle')
    if idle:
        n = len(idle['rows'])
        for when, label in (('start', '10 s after start'), ('claim', '10 s after a claim ended')):
            for key, name, limit in (('Pss', 'PSS', 0.7), ('private', 'private memory', 1.0), ('VmRSS', 'VmRSS', 1.0)):
                ratios = [r['ours'][when][key] / r['peer'][when][key] for r in idle['rows']]
                ours = [r['ours'][when][key] for r in idle['rows']]
                peer = [r['peer'][when][key] for r in idle['rows']]
                met = sum(x <= limit for x in ratios)
                row('idle %s, %s, %d alternating cold starts (`memory/idle.py`)' % (name, label, n),
                    '%s–%s kB' % ('{:,}'.format(min(peer)), '{:,}'.format(max(peer))),
                    '%s–%s kB' % ('{:,}'.format(min(ours)), '{:,}'.format(max(ours))),
                    '%.2f–%.2f×' % (min(ratios), max(ratios)),
                    verdict('≤ %.1f× in every start' % limit, met == n) + ' (%d of %d)' % (met, n))
        c = idle['claim']
        row('claim → first reading after 10 s idle, paged out against --keep-pages (median; minor/major faults)',
            '—', '%.1f ms (%d/%d) against %.1f ms (%d/%d)' % (c['paged_ms'], c['paged_faults'][0], c['paged_faults'][1],
                                                              c['kept_ms'], c['kept_faults'][0], c['kept_faults'][1]),
            '%+.1f ms' % (c['paged_ms'] - c['kept_ms']), verdict('≤ +20 ms', c['paged_ms'] - c['kept_ms'] <= 20))
    focus = load(out, 'report-focus')
    if focus:
        pss = [r['pair_pss'] for r in focus]
        row('orientationctl report-focus and its Wayland helper, idle in headless sway, PSS (%d starts)' % len(pss), '—',
            '%s–%s kB' % ('{:,}'.format(min(pss)), '{:,}'.format(max(pss))), '',
            verdict('≤ 1,536 kB', max(pss) <= 1536))
    start = load(out, 'startup')
    if start and 'instructions' in start:
        i = start['instructions']
        row('instructions exec → name owned (callgrind)', '{:,}'.format(int(i['peer'])), '{:,}'.format(int(i['ours'])),
            times(i['ours'], i['peer']), '')
        ld = start['loader']
        row('  of which the dynamic loader', '{:,}'.format(int(ld['peer'])), '{:,}'.format(int(ld['ours'])),
            times(ld['ours'], ld['peer']), '')
    lat = load(out, 'latency')
    png = None
    if lat:
        lp, lo = lat['latencies']['peer'], lat['latencies']['ours']
        row('rotation latency, median (%d steps)' % len(lo), '%.0f ms' % statistics.median(lp),
            '%.0f ms' % statistics.median(lo), '', '≤ 150 ms')
        row('rotation latency, p95', '%.0f ms' % percentile(lp, 95), '%.0f ms' % percentile(lo, 95), '', '≤ 200 ms')
        row('orientation changes on 6 s of 32°–58° jitter, per run', ','.join(str(j['peer']) for j in lat['jitter']),
            ','.join(str(j['ours']) for j in lat['jitter']), '', '0')
        if lat['cost_medians']:
            row('daemon work per sample, median', '—', '%.1f µs' % statistics.median(lat['cost_medians']), '', '≤ 50 µs')
        png = plot(out, lat)
    motion = ' (motion event)'
    lat_m = load(out, 'latency-motion')
    if lat_m:
        lp, lo = lat_m['latencies']['peer'], lat_m['latencies']['ours']
        row('rotation latency%s, median (%d steps)' % (motion, len(lo)), '%.0f ms' % statistics.median(lp),
            '%.0f ms' % statistics.median(lo), times(statistics.median(lo), statistics.median(lp)),
            verdict('≤ 0.5× the peer\'s', statistics.median(lo) <= 0.5 * statistics.median(lp)))
        row('rotation latency%s, p95' % motion, '%.0f ms' % percentile(lp, 95), '%.0f ms' % percentile(lo, 95), '', '')
        row('orientation changes on 6 s of 32°–58° jitter%s, per run' % motion,
            ','.join(str(j['peer']) for j in lat_m['jitter']), ','.join(str(j['ours']) for j in lat_m['jitter']), '', '0')
    power = load(out, 'power')
    if power:
        power_rows(power, ' (polled device)')
    power_m = load(out, 'power-motion')
    if power_m:
        power_rows(power_m, motion)
        row('orientation changes announced while turning%s, per run' % motion,
            ','.join(map(str, power_m['changes']['peer'])), ','.join(map(str, power_m['changes']['ours'])), '',
            'every turn (%s)' % ','.join(map(str, power_m['turns'])))
    wake = load(out, 'wakeup')
    if wake:
        p, o = wake['peer'], wake['ours']
        row('system calls per wake-up, claimed and still (strace -c)', '%.1f' % p['syscalls_per_wakeup_total'],
            '%.1f' % o['syscalls_per_wakeup_total'], '', '')
        row('CPU per wake-up, claimed and still', '%.0f µs' % p['cpu_us_per_wakeup'], '%.0f µs' % o['cpu_us_per_wakeup'],
            times(o['cpu_us_per_wakeup'], p['cpu_us_per_wakeup']), '')
    tmpfs = load(out, 'wakeup-tmpfs')
    if tmpfs:
        per = tmpfs['syscalls_per_wakeup']
        watch = tmpfs['syscalls'].get('read', 0) / tmpfs['traced_wakeups']
        row('system calls per wake-up, claimed and still, attributes on a tmpfs without umockdev (`wakeup/tmpfs.py`)', '—',
            '%.1f, of which %.2f the replaced-file watch, not made on sysfs' % (per, watch), '',
            verdict('≤ 4.2 on sysfs', per - watch <= 4.25))
    floor = load(out, 'wakeup-floor')
    if floor:
        for rate, r in floor['rates'].items():
            peer = r['peer']['cpu_ms_per_minute']
            whos = ('poller-plain', 'poller-glib', 'ours')
            row('CPU time per minute, claimed and still, polled at %s Hz: a program that only reads (poll(2) / GLib) / '
                'orientationd (`wakeup/floor.py`; the peer at 1.43 Hz)' % rate, '%.1f ms' % peer,
                ' / '.join('%.1f ms' % r[who]['cpu_ms_per_minute'] for who in whos),
                ' / '.join(times(r[who]['cpu_ms_per_minute'], peer) for who in whos), '')
    buffered = load(out, 'buffered')
    buffered_notes = []
    if buffered:
        p, o = buffered['peer'], buffered['ours']
        label = 'claimed and still, buffered device fed only on change'

        def unread(f):
            return '' if f['portrait_after_one_frame'] else ' (the frame never oriented it)'
        row('CPU time per minute, ' + label, '%.1f ms%s' % (p['still_cpu_ms_per_min'], unread(p)),
            '%.1f ms%s' % (o['still_cpu_ms_per_min'], unread(o)),
            times(o['still_cpu_ms_per_min'], p['still_cpu_ms_per_min']), '≤ 1.0×')
        row('wake-ups per second, ' + label, '%.2f%s' % (p['still_wakeups_per_s'], unread(p)),
            '%.2f%s' % (o['still_wakeups_per_s'], unread(o)), '', '0')
        row('buffered device, one frame per turn every 2 s: turns announced, median delay',
            *['%d of %d, %s' % (f['turns_seen'], buffered['turns'],
                                '%.0f ms' % f['latency_median_ms'] if f['latency_median_ms'] is not None else 'n/a')
              for f in (p, o)], '', 'every turn')
        buffered_notes.append('buffered device: /dev/iio:device0 held open while claimed: peer %s, ours %s'
                              % ('yes' if p['node_open'] else 'no', 'yes' if o['node_open'] else 'no'))
    light = load(out, 'light')
    if light:
        p, o = light['peer'], light['ours']
        row('ambient light: change → LightLevel, median (%d changes)' % o['steps'], '%.0f ms' % p['latency_median_ms'],
            '%.0f ms' % o['latency_median_ms'], '', '≤ the peer\'s poll (800 ms)')
        row('ambient light: changes never announced', '%d' % p['missed'], '%d' % o['missed'], '', '0')
        row('ambient light: CPU time per minute, claimed and still', '%.1f ms' % p['cpu_ms_per_minute'],
            '%.1f ms' % o['cpu_ms_per_minute'], times(o['cpu_ms_per_minute'], p['cpu_ms_per_minute']), '≤ 1.0×')
        row('ambient light: wake-ups per second, claimed and still', '%.2f' % p['wakeups_per_s'], '%.2f' % o['wakeups_per_s'], '', '')
    curve = load(out, 'pollcurve')
    curve_notes = []
    if curve and len(curve['settings']) > 1:
        p = curve['peer']
        row('poll curve, the peer (%d runs): CPU per minute still / wake-ups per second / step median' % curve['runs'],
            '%.1f ms / %.2f / %.0f ms' % (p['cpu_ms_per_min'], p['wakeups_per_s'], p['step_median']), '', '', '')
        for hz in curve['settings']:
            o = curve['summary'][str(hz)]
            at_peer_rate = abs(hz - 1.43) < 0.005
            target = ''
            if at_peer_rate:
                target = verdict('wake-ups ≤ the peer\'s, CPU ≤ 0.7×, step median ≤ the peer\'s',
                                 o['wakeups_per_s'] <= p['wakeups_per_s'] and o['cpu_ms_per_min'] <= 0.7 * p['cpu_ms_per_min']
                                 and o['step_median'] <= p['step_median'])
            row('poll curve, StillPollHz=%g: CPU per minute still / wake-ups per second / step median' % hz, '',
                '%.1f ms / %.2f / %.0f ms' % (o['cpu_ms_per_min'], o['wakeups_per_s'], o['step_median']),
                '%.2f× / %.2f× / %.2f×' % (o['cpu_ms_per_min'] / p['cpu_ms_per_min'],
                                           o['wakeups_per_s'] / p['wakeups_per_s'] if p['wakeups_per_s'] else float('nan'),
                                           o['step_median'] / p['step_median']), target)
    if curve:
        if not curve_rows(curve, ' (polled device)'):
            curve_notes.append('poll curve: the default StillPollHz (%s) was not among the settings measured'
                               % curve.get('default_hz'))
        if len(curve['settings']) > 1:
            curve_notes.append('poll curve, StillPollHz %s: below and left of the peer (less CPU still, lower step and '
                               'turn latency): %s' % (' '.join(map(str, curve['settings'])),
                                                      ', '.join(map(str, curve['below_and_left'])) or 'none'))
        if curve.get('png'):
            curve_notes.append('poll curve plot: %s' % curve['png'])
    curve_m = load(out, 'pollcurve-motion')
    if curve_m:
        curve_rows(curve_m, motion)
    scenes = load(out, 'scenes')
    if scenes:
        t = scenes['totals']
        truth = sum(e['truth'] for e in scenes['scenes'])
        row('scenes (traces/scenes, %d plays): false / missed screen changes of %d' % (len(scenes['scenes']), truth),
            '%d / %d' % (t['peer']['false'], t['peer']['missed']), '%d / %d' % (t['ours']['false'], t['ours']['missed']),
            '', '0 / 0')
    churn = load(out, 'churn')
    if churn:
        m = churn['umockdev']
        row('wake-ups, %d non-IIO devices plugged + unplugged (umockdev)' % churn['devices'], '%d' % m['wakeups']['peer'],
            '%d' % m['wakeups']['ours'], '', '0')
        k = churn['kernel']
        if 'skipped' not in k:
            row('wake-ups, %d kernel uevents of %d veth devices (netns)' % (k['events'], k['devices']), 'not run',
                '%d' % k['wakeups'], '', '0')

    print()
    print('Every figure beside the peer, one run (%s)' % out)
    print('machine: %s' % machine())
    print()
    w = [max(len(r[i]) for r in rows + [('figure', 'iio-sensor-proxy', 'orientationd', 'ratio', 'target')])
         for i in range(5)]
    print('| ' + ' | '.join(h.ljust(w[i]) for i, h in enumerate(('figure', 'iio-sensor-proxy', 'orientationd',
                                                                   'ratio', 'target'))) + ' |')
    print('|' + '|'.join('-' * (x + 2) for x in w) + '|')
    for r in rows:
        print('| ' + ' | '.join(c.ljust(w[i]) for i, c in enumerate(r)) + ' |')
    if png or curve_notes or buffered_notes:
        print()
    if png:
        print('latency plot: %s' % png)
    for note in buffered_notes + curve_notes:
        print(note)


if __name__ == '__main__':
    main()
