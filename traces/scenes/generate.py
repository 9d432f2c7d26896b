#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""Writes the scenes of traces/scenes/: physically plausible accelerometer traces, each sample with
the truth beside it (the orientation the user wants the screen in), for the scene tests and the
false/missed change benchmark (Benchmarks/scenes).

Deterministic (one seed per scene): run it again and the files do not change. Each scene is a list
of segments; a segment moves the device's pose (its roll in the screen's plane, the screen's tilt
from upright, the hinge angle of a convertible) from where the last one left it to its own end pose
over its duration, and adds what a body, a hand, a bag or a train adds: linear accelerations
(steps, shakes, vibration), hand tremor and sensor noise.

Axes as in sensors.md: x to the right of the screen, y up the screen, z out of it. A pose (roll,
tilt) reads, at rest, x = g sin(roll) cos(tilt), y = -g cos(roll) cos(tilt), z = g sin(tilt):
roll 0 is portrait, +90 the left edge up (landscape-right), -90 the right edge up (landscape-left),
180 upside down; tilt +90 lies face up, -90 face down.

Columns: t_ms, x, y, z (m/s², the display's accelerometer), hinge (degrees, -1 when the device has
no hinge), truth (the device orientation whose interface orientation the screen should show:
portrait, landscape-left, landscape-right or portrait-upside-down). Scenes with a hand on the screen
or a pointer plugged in add two: touch (1 while a finger is on the touchscreen) and pointer (1 while
a mouse or touchpad is plugged in; a detachable's keyboard cover).

Kinds: phone (Idiom=phone), convertible (a hinge; Idiom=tablet), tablet (no hinge, a touchscreen;
Idiom=tablet, so the pointers plugged in give the posture).
"""
import math
import os
import random

G = 9.80665
RATE_MS = 20            # 50 Hz, a phone accelerometer's usual rate
HERE = os.path.dirname(os.path.abspath(__file__))


class Scene:
    def __init__(self, name, kind, description, seed, roll=0.0, tilt=30.0, hinge=-1.0, truth='portrait'):
        self.name, self.kind, self.description = name, kind, description
        self.rng = random.Random(seed)
        self.roll, self.tilt, self.hinge, self.truth = roll, tilt, hinge, truth
        self.t = 0
        self.rows = []
        self.touch = None      # touch(t_ms) -> bool while the scene records touches, else None
        self.pointer = None    # 1 or 0 while the scene records a pointer plugged in, else None
        self.tremor = 1.0      # degrees of hand tremor (random walk, pulled back)
        self.noise = 0.05      # m/s², the sensor's own noise
        self._wobble = [0.0, 0.0]

    def segment(self, ms, roll=None, tilt=None, hinge=None, truth=None, motion=None, truth_at_end=True):
        """Moves to (roll, tilt, hinge) over `ms` along a smooth (cosine) path; `motion(t_ms, u)`
        adds a linear acceleration (x, y, z) in the device's frame. The truth changes to `truth` at
        the end of the segment (when the hand stops), or at its start with truth_at_end=False."""
        start = (self.roll, self.tilt, self.hinge)
        end = (start[0] if roll is None else roll, start[1] if tilt is None else tilt,
               start[2] if hinge is None else hinge)
        if truth is not None and not truth_at_end:
            self.truth = truth
        steps = max(1, ms // RATE_MS)
        for i in range(steps):
            u = (i + 1) / steps
            s = (1 - math.cos(math.pi * u)) / 2
            self.roll, self.tilt, self.hinge = (a + (b - a) * s for a, b in zip(start, end))
            if truth is not None and truth_at_end and i == steps - 1:
                self.truth = truth
            self.sample(motion(self.t, u) if motion else (0.0, 0.0, 0.0))

    def hold(self, ms, truth=None, motion=None):
        self.segment(ms, truth=truth, truth_at_end=False, motion=motion)

    def sample(self, linear):
        self.t += RATE_MS
        for k in range(2):      # tremor: a random walk pulled back to the intended pose
            self._wobble[k] = 0.9 * self._wobble[k] + self.rng.gauss(0, self.tremor * 0.45)
        roll = math.radians(self.roll + self._wobble[0])
        tilt = math.radians(max(-90.0, min(90.0, self.tilt + self._wobble[1])))
        x = G * math.sin(roll) * math.cos(tilt) + linear[0] + self.rng.gauss(0, self.noise)
        y = -G * math.cos(roll) * math.cos(tilt) + linear[1] + self.rng.gauss(0, self.noise)
        z = G * math.sin(tilt) + linear[2] + self.rng.gauss(0, self.noise)
        hinge = -1 if self.hinge < 0 else round(self.hinge % 360.0 if self.hinge < 360 else 360.0, 1)
        touched = 1 if self.touch is not None and self.touch(self.t) else 0
        self.rows.append((self.t, x, y, z, hinge, self.truth, touched, self.pointer or 0))

    def write(self):
        path = os.path.join(HERE, self.name + '.csv')
        with open(path, 'w') as f:
            f.write('# %s\n' % self.description)
            f.write('# kind: %s\n' % self.kind)
            extra = self.kind == 'tablet' or any(row[6] or row[7] for row in self.rows)
            f.write('# t_ms,x,y,z in m/s² (the display), hinge in degrees (-1: none), truth%s\n'
                    % (', touch (1: a finger on the screen), pointer (1: a mouse or touchpad plugged in)' if extra else ''))
            for t, x, y, z, hinge, truth, touched, pointer in self.rows:
                f.write('%d,%.3f,%.3f,%.3f,%s,%s%s\n' % (t, x, y, z, ('%g' % hinge), truth,
                                                         ',%d,%d' % (touched, pointer) if extra else ''))


# -- what bodies and vehicles add -------------------------------------------------------------------

def walking(rng, sway=0.8, bounce=2.0, hz=1.9):
    phase = rng.uniform(0, 2 * math.pi)

    def motion(t, u):
        a = 2 * math.pi * hz * t / 1000 + phase
        # Each step lifts and drops the hand (along y when held upright) and sways it sideways at
        # half the step rate; the heel strike adds a short jerk.
        strike = 3.0 * math.exp(-((a % (2 * math.pi)) - 0.3) ** 2 / 0.05)
        return (sway * math.sin(a / 2), -bounce * math.sin(a) - strike, 0.4 * math.cos(a))
    return motion


def shake(hz=4.0, amplitude=12.0):
    def motion(t, u):
        envelope = math.sin(math.pi * u)           # the shake grows and dies away
        return (amplitude * envelope * math.sin(2 * math.pi * hz * t / 1000), 0.0, 0.0)
    return motion


def lift(up=2.5):
    """Lifting from a table: the hand accelerates up, then slows (along the device's z while flat)."""
    def motion(t, u):
        return (0.0, 0.0, up * math.sin(2 * math.pi * u))
    return motion


def train(rng, lateral=0.0):
    """A train's table: vibration of a few m/s² at 8-15 Hz, and the sway of a curve along x."""
    def motion(t, u):
        v = rng.gauss(0, 0.35)
        return (lateral * math.sin(math.pi * u) + v + 0.3 * math.sin(2 * math.pi * 11 * t / 1000),
                0.2 * math.sin(2 * math.pi * 8 * t / 1000), v * 0.5)
    return motion


def flicks(period=650, down=250, start=0):
    """Scrolling a feed: a flick of `down` ms every `period` ms (the gaps shorter than the touch hold)."""
    return lambda t: (t - start) % period < down


def taps(period=260, down=110):
    """Typing: a tap every `period` ms."""
    return lambda t: t % period < down


# -- the scenes ---------------------------------------------------------------------------------------

def scenes():
    out = []

    s = Scene('phone-picked-up', 'phone', 'a phone lying on a table, picked up by its long edge and held to read in portrait', 1,
              roll=0, tilt=90)
    s.tremor = 0.2
    s.hold(3000)
    s.tremor = 1.0
    # Grabbed by the right edge: the left edge tips up first (landscape reading), then the wrist
    # turns the phone upright.
    s.segment(400, roll=90, tilt=45, motion=lift())
    s.segment(450, roll=0, tilt=35)
    s.hold(4000)
    s.segment(500, tilt=90, motion=lift(-1.5))      # put back
    s.tremor = 0.2
    s.hold(2000)
    s.tremor = 1.0
    s.segment(350, roll=-80, tilt=50, motion=lift())  # grabbed the other way, by the left edge
    s.segment(500, roll=0, tilt=35)
    s.hold(3000)
    out.append(s)

    s = Scene('phone-put-down', 'phone', 'a phone read in portrait, put down on a table with a sideways wobble, left there, picked up again', 2,
              roll=0, tilt=35)
    s.hold(3000)
    s.segment(600, roll=25, tilt=70, motion=lift(-1.5))
    s.segment(300, roll=-10, tilt=88)
    s.tremor = 0.2
    s.segment(200, roll=0, tilt=90)
    s.hold(4000)
    s.tremor = 1.0
    s.segment(700, tilt=35, motion=lift())
    s.hold(3000)
    out.append(s)

    s = Scene('phone-walking', 'phone', 'a phone read in portrait while walking for 12 s, with steps, sway and a stumble', 3,
              roll=0, tilt=40)
    s.hold(2000)
    s.tremor = 3.0
    s.hold(6000, motion=walking(s.rng))
    s.segment(250, roll=35, tilt=30, motion=walking(s.rng, sway=4.0))    # a stumble tips the phone
    s.segment(400, roll=0, tilt=40, motion=walking(s.rng))
    s.hold(6000, motion=walking(s.rng))
    s.tremor = 1.0
    s.hold(2000)
    out.append(s)

    s = Scene('phone-shaken', 'phone', 'a phone in portrait shaken sideways hard for 3 s, twice', 4, roll=0, tilt=30)
    s.hold(2000)
    s.hold(3000, motion=shake(4.5, 14.0))
    s.hold(2000)
    s.hold(2000, motion=shake(6.0, 9.0))
    s.hold(2000)
    out.append(s)

    s = Scene('phone-overhead-in-bed', 'phone', 'reading in portrait, lying back in bed with the phone held above the face, '
              'the arm tiring and tipping the phone sideways, then sitting up', 5, roll=0, tilt=30)
    s.hold(2000)
    s.segment(2000, tilt=-55)               # lying back: the screen ends facing down at the face
    s.hold(4000)
    s.segment(800, roll=70, tilt=-50)       # the arm tires and lowers to the side
    s.hold(3000)
    s.segment(800, roll=-40, tilt=-60)      # shifted to the other hand
    s.hold(3000)
    s.segment(2500, roll=0, tilt=30)        # sitting up
    s.hold(3000)
    out.append(s)

    s = Scene('phone-turned-by-hand', 'phone', 'a phone turned by hand between portrait and landscape at several speeds', 6,
              roll=0, tilt=30)
    s.hold(2000)
    s.segment(300, roll=90, truth='landscape-right')
    s.hold(3000)
    s.segment(600, roll=0, truth='portrait')
    s.hold(3000)
    s.segment(1200, roll=-90, truth='landscape-left')
    s.hold(3000)
    s.segment(2000, roll=0, truth='portrait')
    s.hold(3000)
    s.segment(450, roll=-90, truth='landscape-left')
    s.hold(3000)
    s.segment(900, roll=90, truth='landscape-right')    # straight across, through portrait
    s.hold(3000)
    s.segment(500, roll=0, truth='portrait')
    s.hold(3000)
    out.append(s)

    # The display of a convertible in laptop posture leans back: hinge 110 leaves it 20 degrees from upright.
    s = Scene('convertible-folded', 'convertible', 'a convertible folded from laptop through stand and tent to tablet, '
              'turned as a tablet, and opened back to a laptop', 7, roll=0, tilt=20, hinge=110)
    s.tremor = 0.3
    s.hold(3000)
    s.segment(2000, tilt=85, hinge=175)                # opened flat on the desk
    s.hold(1000)
    s.tremor = 1.0
    s.segment(2500, tilt=20, hinge=280)                # stood up: keyboard down behind the screen
    s.tremor = 0.3
    s.hold(3000)
    s.tremor = 1.0
    s.segment(1500, roll=180, tilt=25, hinge=290, truth='portrait-upside-down')   # turned over into a tent
    s.tremor = 0.3
    s.hold(4000)
    s.tremor = 1.0
    s.segment(1500, roll=180, tilt=40, hinge=358)      # folded into a tablet, still upside down in the hands
    s.segment(1200, roll=0, tilt=40, truth='portrait')  # turned right way up
    s.hold(3000)
    s.segment(600, roll=90, truth='landscape-right')
    s.hold(3000)
    s.segment(600, roll=0, truth='portrait')
    s.hold(2000)
    s.segment(2500, tilt=20, hinge=110)               # opened back to a laptop on the desk
    s.tremor = 0.3
    s.hold(3000)
    s.tremor = 1.0
    s.segment(900, roll=60, tilt=15)                  # the laptop lifted by one side to move it
    s.hold(1500)
    s.segment(900, roll=0, tilt=20)
    s.tremor = 0.3
    s.hold(3000)
    out.append(s)

    s = Scene('convertible-in-a-bag', 'convertible', 'a convertible with its lid closed, slid on its side into a bag, '
              'carried while walking, taken out and opened', 8, roll=0, tilt=-88, hinge=2)
    s.tremor = 0.3
    s.hold(2000)
    s.tremor = 2.0
    s.segment(1200, roll=-90, tilt=-5)                 # picked up, slid into the bag on its side
    s.tremor = 4.0
    s.hold(8000, motion=walking(s.rng, sway=1.5, bounce=3.0))
    s.segment(800, roll=-100, tilt=15, motion=walking(s.rng))   # the bag swung to the other shoulder
    s.hold(5000, motion=walking(s.rng, sway=1.5, bounce=3.0))
    s.tremor = 2.0
    s.segment(1500, roll=0, tilt=-88)                  # taken out and laid on the desk
    s.tremor = 0.3
    s.hold(1500)
    s.segment(1500, tilt=20, hinge=110)                # opened
    s.hold(3000)
    out.append(s)

    s = Scene('convertible-on-a-train', 'convertible', 'a convertible as a laptop on a moving train\'s table: vibration, curves, '
              'braking, passed to a neighbour', 9, roll=0, tilt=22, hinge=115)
    s.tremor = 0.5
    s.hold(5000, motion=train(s.rng))
    s.hold(6000, motion=train(s.rng, lateral=1.5))     # a long curve
    s.hold(3000, motion=train(s.rng))
    s.hold(4000, motion=train(s.rng, lateral=-1.2))    # and the other way
    s.hold(2000, motion=lambda t, u: (0.0, 0.0, -1.5 * math.sin(math.pi * u)))   # braking
    s.tremor = 1.5
    s.segment(1000, roll=55, tilt=10)                  # lifted by one side and passed across
    s.hold(1500)
    s.segment(1000, roll=0, tilt=22)
    s.tremor = 0.5
    s.hold(4000, motion=train(s.rng))
    out.append(s)

    s = Scene('phone-scrolling-in-bed', 'phone', 'a feed scrolled in portrait, the reader lying down on the side while '
              'scrolling on, then sitting up again: the screen should never turn', 10, roll=0, tilt=35)
    s.hold(2000)
    s.touch = flicks()
    s.hold(2000)
    s.segment(1500, roll=80, tilt=15)       # lying down on the side, the phone beside the face
    s.hold(9000)
    s.segment(1500, roll=0, tilt=35)        # sitting up
    s.hold(1300)
    s.touch = None
    s.hold(3000)
    out.append(s)

    s = Scene('tablet-typing-tilted', 'tablet', 'a tablet on the lap, typed on in portrait and tilted sideways to reach a '
              'corner while typing, then turned on purpose to landscape and back', 11, roll=0, tilt=40)
    s.hold(2000)
    s.touch = taps()
    s.hold(2000)
    s.segment(600, roll=65)                 # tilted to reach the right-hand keys
    s.hold(1800)
    s.segment(600, roll=0)
    s.hold(1500)
    s.segment(600, roll=-68)                # and the other way
    s.hold(1800)
    s.segment(600, roll=0)
    s.hold(1000)
    s.touch = None
    s.hold(2000)
    s.segment(800, roll=90, truth='landscape-right')   # turned on purpose, no finger on it
    s.hold(3000)
    s.segment(800, roll=0, truth='portrait')
    s.hold(3000)
    out.append(s)

    s = Scene('tablet-detachable', 'tablet', 'a detachable with its keyboard cover attached (a touchpad), used as a laptop '
              'on the lap of someone lying on the side; the cover taken off and the tablet turned to landscape and back', 12,
              roll=0, tilt=20)
    s.pointer = 1
    s.tremor = 0.5
    s.hold(3000)
    s.tremor = 1.0
    s.segment(1500, roll=75, tilt=10)       # lying down on the side with it
    s.hold(6000)
    s.segment(1500, roll=0, tilt=20)        # sitting up
    s.hold(2000)
    s.pointer = 0                           # the keyboard cover taken off
    s.hold(3000)
    s.segment(700, tilt=40)                 # picked up
    s.hold(1000)
    s.segment(800, roll=90, truth='landscape-right')
    s.hold(3000)
    s.segment(800, roll=0, truth='portrait')
    s.hold(3000)
    out.append(s)
    return out


if __name__ == '__main__':
    for scene in scenes():
        scene.write()
        print('%s: %.1f s' % (scene.name, scene.t / 1000))
