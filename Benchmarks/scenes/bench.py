#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""False and missed screen changes on the scenes of traces/scenes/ (Docs/sensors.md, "Scenes"):
orientationd beside iio-sensor-proxy, the peer, on the same umockdev samples, in one run.

Each scene is played in real time (its 50 Hz samples written into one fake IIO accelerometer as they
come, and, for a convertible, its hinge angle into a fake hinge sensor, `name` hinge, as the HID
custom hinge sensor of Intel sensor hubs shows it). Both daemons are claimed by one client, which
timestamps the peer's AccelerometerOrientation changes and our DidChange (the interface orientation:
what the screen shows). The peer's orientation is what a shell applies (normal 1, bottom-up 2,
right-up 3, left-up 4, as sensors.md maps the compatibility interface).

Phones and tablets also have a touchscreen (an input device, ELAN's as an i2c HID one shows it),
with umockdev's ioctl handler standing for evdev (it accepts the EVIOCSMASK our daemon asks for and
answers EVIOCGKEY): a scene's touches are written into it as BTN_TOUCH events, and its pointer (a
detachable's keyboard cover) is a touchpad plugged in and out. The peer reads neither.

Scored as the scene tests score the daemon's chain (Tests/SceneTests): a truth change is met by the
first change to the same orientation from 1 s before it to 1.5 s after it; every other change is
false; every truth change not met is missed. Phones run with `Idiom=phone`, convertibles and tablets
with `Idiom=tablet` (the peer knows neither idiom nor posture; it ignores the hinge, the touches and
the pointers).

Prints a table, scene by scene; never fails on a count. --json FILE writes the figures; --only TEXT plays
the scenes whose name holds TEXT; --keep keeps the logs (ours with --verbose).
"""
import json
import math
import os
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from sidebyside import OD, SCALE, SideBySide, UMockdev, arguments, preload_self  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
SCENES = os.path.join(ROOT, 'traces', 'scenes')
TRUTH = {'portrait': 1, 'portrait-upside-down': 2, 'landscape-left': 3, 'landscape-right': 4}
PEER = {'normal': 1, 'bottom-up': 2, 'right-up': 3, 'left-up': 4}
NAMES = {1: 'portrait', 2: 'upside-down', 3: 'landscape-right', 4: 'landscape-left'}
BEFORE, AFTER = 1.0, 1.5
SCREEN_INPUT = '/devices/platform/i2c-ELAN2514:00/0018:04F3:2A4C.0001/input/input12'
SCREEN_NODE = '/dev/input/event12'
TOUCHSCREEN = """P: %(input)s/event12
N: input/event12
E: DEVNAME=/dev/input/event12
E: SUBSYSTEM=input
E: ID_INPUT=1
E: ID_INPUT_TOUCHSCREEN=1
A: dev=13:76
L: device=../../input12

P: %(input)s
E: SUBSYSTEM=input
E: NAME="ELAN2514:00 04F3:2A4C"
A: name=ELAN2514:00 04F3:2A4C
A: capabilities/ev=b
""" % {'input': SCREEN_INPUT}
TOUCHPAD = """P: /devices/platform/i2c-MSFT0001:00/0018:06CB:CD7D.%(n)04d/input/input%(n)d/event%(n)d
N: input/event%(n)d
E: DEVNAME=/dev/input/event%(n)d
E: SUBSYSTEM=input
E: ID_INPUT=1
E: ID_INPUT_TOUCHPAD=1
A: dev=13:%(n)d
L: device=../../input%(n)d

P: /devices/platform/i2c-MSFT0001:00/0018:06CB:CD7D.%(n)04d/input/input%(n)d
E: SUBSYSTEM=input
E: NAME="MSFT0001:00 06CB:CD7D Touchpad"
A: name=MSFT0001:00 06CB:CD7D Touchpad
A: capabilities/ev=b
"""
EVIOCSMASK = 0x40104593
BTN_TOUCH = 330


def read_scene(path):
    rows, kind, about = [], None, ''
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith('# kind:'):
                kind = line.split(':', 1)[1].strip()
            elif line.startswith('#') and not about:
                about = line[1:].strip()
            elif line and not line.startswith('#'):
                fields = line.split(',')
                t, x, y, z, hinge, truth = fields[:6]
                touch, pointer = (int(fields[6]), int(fields[7])) if len(fields) == 8 else (0, 0)
                rows.append((int(t) / 1000, float(x), float(y), float(z), float(hinge), TRUTH[truth], touch, pointer))
    return kind, about, rows


def score(changes, truth):
    """(false changes, missed truth changes) as the scene tests count them."""
    unmatched = list(changes)
    missed = []
    for t, want in truth:
        hit = next((c for c in unmatched if c[1] == want and t - BEFORE <= c[0] <= t + AFTER), None)
        if hit:
            unmatched.remove(hit)
        else:
            missed.append((t, want))
    return unmatched, missed


class Run(SideBySide):
    def __init__(self, args, kind):
        super().__init__(args.daemon, keep=args.keep)
        convertible = kind == 'convertible'
        self.conf = os.path.join(self.work, 'orientationd.conf')
        with open(self.conf, 'w') as f:
            f.write('[Application]\nIdiom=%s\n' % ('phone' if kind == 'phone' else 'tablet'))
        self.extra_args = ['--config', self.conf] + (['--verbose'] if args.keep else [])
        self.hinge = None
        self.touching = 0
        self.pointer = None       # the touchpad plugged in: its number, else None
        self.next_pointer = 30
        if not convertible:
            self.testbed.add_from_string(TOUCHSCREEN)
            self.evdev = UMockdev.IoctlBase()
            self.evdev.connect('handle-ioctl', self._evdev)
            self.testbed.attach_ioctl(SCREEN_NODE, self.evdev)
        if convertible:
            self.hinge = self.testbed.add_device(
                'iio', 'iio:device1', None,
                ['name', 'hinge', 'in_angl0_raw', '110', 'in_angl1_raw', '0', 'in_angl2_raw', '0',
                 'in_angl_scale', repr(math.pi / 180), 'in_angl_offset', '0'], [])
        self.hinge_raw = '110'
        self.peer, _ = self.start('peer', log='iio-sensor-proxy.log')
        self.ours, _ = self.start('ours', sensor='iio', log='orientationd.log')
        self.record_changes({'DidChange': 'ours'})
        self.claim('peer')
        self.claim('ours')

    def _evdev(self, handler, client):
        """evdev on the touchscreen: EVIOCSMASK accepted, EVIOCGKEY answered with BTN_TOUCH as it is."""
        request = client.get_request()
        if request == EVIOCSMASK:
            client.complete(0, 0)
            return True
        if request & 0xffff == 0x4518:
            length = (request >> 16) & 0x3fff
            keys = bytearray(length)
            if self.touching and length > BTN_TOUCH // 8:
                keys[BTN_TOUCH // 8] |= 1 << (BTN_TOUCH % 8)
            client.get_arg().resolve(0, length).update(0, list(keys))
            client.complete(length, 0)
            return True
        return False

    def touch(self, touching):
        if touching == self.touching:
            return
        self.touching = touching
        event = lambda kind, code, value: struct.pack('llHHi', 0, 0, kind, code, value)
        os.write(self.testbed.get_dev_fd(SCREEN_NODE), event(1, BTN_TOUCH, touching) + event(0, 0, 0))

    def plug(self, pointer):
        if bool(pointer) == (self.pointer is not None):
            return
        if pointer:
            # A new node each time: umockdev cannot make a removed node again.
            self.pointer = self.next_pointer
            self.next_pointer += 1
            self.testbed.add_from_string(TOUCHPAD % {'n': self.pointer})
        else:
            base = '/sys/devices/platform/i2c-MSFT0001:00/0018:06CB:CD7D.%04d/input/input%d' % (self.pointer, self.pointer)
            for path in (base + '/event%d' % self.pointer, base):
                self.testbed.uevent(path, 'remove')
                self.testbed.remove_device(path)
            self.pointer = None

    def put(self, x, y, z, hinge, touch=0, pointer=0):
        if self.hinge is None:
            self.touch(touch)
            self.plug(pointer)
        for axis, v in zip('xyz', (x, y, z)):
            raw = round(v / float(SCALE))
            if self.raw.get(axis) != raw:
                self.testbed.set_attribute(self.accel, 'in_accel_%s_raw' % axis, str(raw))
                self.raw[axis] = raw
        if self.hinge is not None and hinge >= 0:
            text = str(round(hinge))
            if text != self.hinge_raw:
                self.testbed.set_attribute(self.hinge, 'in_angl0_raw', text)
                self.hinge_raw = text

    def shown(self, who):
        """What the screen shows now by `who`: our InterfaceOrientation, the peer's orientation."""
        if who == 'peer':
            return PEER.get(self.orientation('peer'), 0)
        return self.get(OD, '/org/orientationd/Orientation1', OD, 'InterfaceOrientation')

    def play(self, rows):
        """Plays one scene; returns {who: [(seconds from the scene's start, orientation)]} and what each
        showed when it started."""
        first = rows[0]
        self.put(0.0, -9.81, 0.0, first[4], 0, first[7])       # upright, as every scene starts
        self.pump(2.0)
        self.put(*first[1:5], *first[6:8])
        self.pump(1.5)
        start_state = {who: self.shown(who) for who in ('peer', 'ours')}
        mark = len(self.events)
        t0 = time.monotonic()
        self.late = []
        for t, x, y, z, hinge, _, touch, pointer in rows:
            wait = t0 + t - time.monotonic()
            if wait > 0.001:
                self.pump(wait)
            self.late.append(time.monotonic() - t0 - t)
            self.put(x, y, z, hinge, touch, pointer)
        self.touch(0)
        self.pump(AFTER + 0.5)
        out = {'peer': [], 'ours': []}
        for (when, who, value) in self.events[mark:]:
            if who in out:
                out[who].append((when - t0, PEER.get(value, 0) if who == 'peer' else int(value)))
        return out, start_state


def main():
    preload_self()
    args = arguments(runs=(int, 1), only=(str, ''))
    names = sorted(n for n in os.listdir(SCENES) if n.endswith('.csv') and args.only in n)
    scenes = [(n[:-4],) + read_scene(os.path.join(SCENES, n)) for n in names]
    totals = {}
    results = []
    for run_number in range(args.runs):
        for kind in ('phone', 'convertible', 'tablet'):
            group = [s for s in scenes if s[1] == kind]
            if not group:
                continue
            run = Run(args, kind)
            try:
                for name, kind, about, rows in group:
                    truth = [(rows[i][0], rows[i][5]) for i in range(1, len(rows)) if rows[i][5] != rows[i - 1][5]]
                    changes, start_state = run.play(rows)
                    entry = {'scene': name, 'run': run_number + 1, 'truth': len(truth), 'seconds': rows[-1][0],
                             'late_ms': round(max(run.late) * 1000, 1)}
                    for who in ('peer', 'ours'):
                        false, missed = score(changes[who], truth)
                        entry[who] = {'false': len(false), 'missed': len(missed), 'changes': changes[who],
                                      'started': start_state[who],
                                      'false_at': [(round(t, 2), NAMES.get(v, v)) for t, v in false],
                                      'missed_at': [(round(t, 2), NAMES.get(v, v)) for t, v in missed]}
                        tot = totals.setdefault(who, {'false': 0, 'missed': 0})
                        tot['false'] += len(false)
                        tot['missed'] += len(missed)
                    results.append(entry)
                    print('%-24s run %d: truth changes %d; peer false %d missed %d; ours false %d missed %d; '
                          'samples written up to %.0f ms late'
                          % (name, run_number + 1, len(truth), entry['peer']['false'], entry['peer']['missed'],
                             entry['ours']['false'], entry['ours']['missed'], entry['late_ms']), file=sys.stderr, flush=True)
            finally:
                if args.keep:
                    print('logs: %s' % run.work, file=sys.stderr)
                run.close()

    print()
    print('scenes benchmark: traces/scenes/ played in real time into one umockdev accelerometer (and a hinge '
          'sensor for convertibles, a touchscreen and touchpad for phones and tablets), %d run(s)' % args.runs)
    print('false = a screen change the truth does not make; missed = a truth change not made within 1.5 s')
    print()
    print('%-26s %6s %8s %15s %15s' % ('scene', 'length', 'truth', 'iio-sensor-proxy', 'orientationd'))
    print('%-26s %6s %8s %15s %15s' % ('', 's', 'changes', 'false/missed', 'false/missed'))
    for e in results:
        tag = e['scene'] + ('' if args.runs == 1 else ' #%d' % e['run'])
        print('%-26s %6.1f %8d %15s %15s' % (tag, e['seconds'], e['truth'],
                                             '%d/%d' % (e['peer']['false'], e['peer']['missed']),
                                             '%d/%d' % (e['ours']['false'], e['ours']['missed'])))
    print('%-26s %6s %8d %15s %15s' % ('total', '', sum(e['truth'] for e in results),
                                       '%d/%d' % (totals['peer']['false'], totals['peer']['missed']),
                                       '%d/%d' % (totals['ours']['false'], totals['ours']['missed'])))
    for e in results:
        for who in ('peer', 'ours'):
            if e[who]['false_at'] or e[who]['missed_at']:
                print('  %s %s: false %s missed %s' % (e['scene'], who, e[who]['false_at'], e[who]['missed_at']))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'runs': args.runs, 'scenes': results, 'totals': totals}, f, indent=1)


if __name__ == '__main__':
    main()
