#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""The ambient light sensor while claimed (Docs/performance.md, "Ambient light"): orientationd beside
iio-sensor-proxy, the peer, on one umockdev polled light sensor (`in_illuminance_input`), one daemon at
a time, each serving `net.hadess.SensorProxy` (ours with --sensor-proxy-compat).

For each daemon: started, ClaimLight from this client; then STEPS changes of the illuminance at random
phases (0.9-1.6 s apart, so a change never lines up with a poll), each timed from the write to the
PropertiesChanged carrying the new LightLevel; then SECONDS with the light still, its CPU time
(schedstat, every thread) and wake-ups (voluntary context switches). Prints both side by side.
Never fails on a time. --json FILE writes the figures.
"""
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from sidebyside import SP, SP_PATH, Sample, SideBySide, arguments  # noqa: E402
from gi.repository import Gio  # noqa: E402


def median(values):
    s = sorted(values)
    return s[len(s) // 2] if s else float('nan')


def measure(args, who, rng):
    sbs = SideBySide(args.daemon, extra_args=['--sensor-proxy-compat'], keep=args.keep)
    try:
        light = sbs.testbed.add_device('iio', 'iio:device1', None, ['in_illuminance_input', '100', 'name', 'als'],
                                       ['IIO_SENSOR_PROXY_TYPE', 'iio-poll-als'])
        p, _ = sbs.start(who)
        # Ours takes its own name first and net.hadess.SensorProxy right after: a claim sent in between,
        # on a loaded machine, would find no one there.
        deadline = time.monotonic() + 10
        while not (sbs.owners.get(SP) or (0, ''))[1] and time.monotonic() < deadline:
            sbs.pump(0.01)
        seen = []   # (time, LightLevel)

        def changed(conn, sender, path, iface, signal_name, params, data):
            _, values, _ = params.unpack()
            if 'LightLevel' in values:
                seen.append((time.monotonic(), values['LightLevel']))
        sbs.bus.signal_subscribe(None, 'org.freedesktop.DBus.Properties', 'PropertiesChanged', SP_PATH, None,
                                 Gio.DBusSignalFlags.NONE, changed, None)
        sbs.call(SP, SP_PATH, SP, 'ClaimLight')
        sbs.pump(2)
        latencies, missed = [], 0
        level = 100
        for _ in range(args.steps):
            sbs.pump(rng.uniform(0.9, 1.6))
            level = 300 if level != 300 else 100
            level += rng.randint(1, 50)
            t0 = time.monotonic()
            sbs.testbed.set_attribute(light, 'in_illuminance_input', str(level))
            deadline = t0 + 3
            while time.monotonic() < deadline and not any(v == level and t >= t0 for t, v in seen):
                sbs.pump(0.002)
            hit = [t for t, v in seen if v == level and t >= t0]
            if hit:
                latencies.append((hit[0] - t0) * 1000)
            else:
                missed += 1
        sbs.pump(3)
        before = Sample({who: p.pid})
        sbs.pump(args.seconds)
        cost = Sample({who: p.pid}).since(before)[who]
        return {'latency_median_ms': median(latencies), 'latency_max_ms': max(latencies) if latencies else float('nan'),
                'missed': missed, 'steps': args.steps,
                'cpu_ms_per_minute': cost['cpu_ms'] * 60 / args.seconds, 'wakeups_per_s': cost['wakeups'] / args.seconds}
    finally:
        sbs.close()


def main():
    args = arguments(steps=(int, 20), seconds=(float, 20))
    rng = random.Random(20261201)
    result = {who: measure(args, who, rng) for who in ('ours', 'peer')}
    print('ambient light, claimed (%d changes at random phases, then %g s still)' % (args.steps, args.seconds))
    print('%-40s %14s %16s' % ('', 'orientationd', 'iio-sensor-proxy'))
    for key, label, form in [('latency_median_ms', 'change -> LightLevel, median ms', '%.0f'),
                             ('latency_max_ms', 'change -> LightLevel, max ms', '%.0f'),
                             ('missed', 'changes never announced', '%d'),
                             ('cpu_ms_per_minute', 'CPU ms per minute, still', '%.1f'),
                             ('wakeups_per_s', 'wake-ups per second, still', '%.2f')]:
        print('%-40s %14s %16s' % (label, form % result['ours'][key], form % result['peer'][key]))
    if args.json:
        import json
        with open(args.json, 'w') as f:
            json.dump(result, f, indent=1)


if __name__ == '__main__':
    main()
