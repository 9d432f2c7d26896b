#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""A buffered accelerometer that reports only on change (Docs/performance.md): orientationd beside
iio-sensor-proxy, the peer, in one run, both claimed at once.

The device is what a HID sensor hub presents: scan elements x, y, z (le:s16) and a timestamp (16-byte
frames), its trigger accel_3d-dev0, a buffer, and /dev/iio:device0 (a umockdev pty) that carries a frame
only when the reading changes; its raw attributes read 0, so only frames can orient a daemon. It is
marked IIO_SENSOR_PROXY_TYPE=iio-buffer-accel, as the peer's udev rules mark such a device, which
selects the peer's buffered driver. A real /dev/iio:deviceN opens once (EBUSY after), so each daemon
gets its own umockdev testbed holding the same device, and every frame is written to both at once.

Both claimed (the peer: ClaimAccelerometer; ours: BeginGeneratingDeviceOrientationNotifications), one
portrait frame, the only one until the turns, and up to 5 s for both to report portrait; 2 s to settle;
then
- still: SECONDS with no frame at all;
- turning: TURNS times, every 2 s, one frame of the other pose (portrait <-> landscape, right edge up).
Per daemon and phase: CPU time per minute (schedstat of every thread) and wake-ups per second
(voluntary context switches of every thread), as Benchmarks/sidebyside.py's Sample measures them;
while turning,
the turns each daemon announced and the median time from the frame's write to the announcement, so a
daemon that saves power by missing turns shows it. What each daemon made of the device is printed:
whether its node is open, whether its buffer is enabled.

Run through Benchmarks/run.sh. Prints figures; never fails on a time. --json FILE writes them.
"""
import json
import os
import shutil
import statistics
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from sidebyside import (arguments, LANDSCAPE, OUR_VALUE, PEER_VALUE, PORTRAIT, SCALE, Sample,  # noqa: E402
                        SideBySide)
from gi.repository import UMockdev  # noqa: E402

NODE = '/dev/iio:device0'
DEVICE = ('P: /devices/iio:device0\nN: iio:device0\nE: DEVNAME=/dev/iio:device0\nE: SUBSYSTEM=iio\n'
          'E: IIO_SENSOR_PROXY_TYPE=iio-buffer-accel\nA: dev=241:0\nA: name=accel_3d\n'
          'A: in_accel_scale=%s\nA: buffer/enable=0\nA: buffer/length=8\nA: trigger/current_trigger=\n' % SCALE
          + ''.join('A: in_accel_%s_raw=0\nA: scan_elements/in_accel_%s_en=0\nA: scan_elements/in_accel_%s_index=%d\n'
                    'A: scan_elements/in_accel_%s_type=le:s16/16>>0\n' % (a, a, a, i, a) for i, a in enumerate('xyz'))
          + 'A: scan_elements/in_timestamp_en=1\nA: scan_elements/in_timestamp_index=3\n'
          'A: scan_elements/in_timestamp_type=le:s64/64>>0\n')
TRIGGER = 'P: /devices/trigger0\nE: SUBSYSTEM=iio\nA: name=accel_3d-dev0\n'


class Buffered(SideBySide):
    """SideBySide with the polled accelerometer replaced by the buffered one, in a testbed per daemon."""

    def __init__(self, daemon, keep):
        super().__init__(daemon, keep=keep)
        self.testbed.remove_device(self.accel)
        self.beds = {'ours': self.testbed, 'peer': UMockdev.Testbed.new()}
        for bed in self.beds.values():
            bed.add_from_string(DEVICE)
            bed.add_from_string(TRIGGER)

    def start(self, who):
        self.mock_env['UMOCKDEV_DIR'] = self.beds[who].get_root_dir()
        return super().start(who)

    def feed(self, pose):
        """One frame of `pose` on each daemon's node; returns when it was written."""
        frame = struct.pack('<hhhxxq', *pose, time.monotonic_ns())
        t = time.monotonic()
        for bed in self.beds.values():
            os.write(bed.get_dev_fd(NODE), frame)
        return t

    def attribute(self, who, name):
        with open(self.beds[who].get_root_dir() + '/sys/devices/iio:device0/' + name) as f:
            return f.read().strip()

    def close(self):
        super().close()
        if not self.keep:
            shutil.rmtree(self.beds['peer'].get_root_dir(), ignore_errors=True)


def node_open(pid):
    """Whether the process holds a pty (the fake /dev/iio:device0) open."""
    fds = os.listdir('/proc/%d/fd' % pid)
    return any(os.readlink('/proc/%d/fd/%s' % (pid, fd)).startswith('/dev/pts/') for fd in fds)


def main():
    args = arguments(seconds=(float, 30), turns=(int, 10))
    sbs = Buffered(args.daemon, args.keep)
    seen = sbs.events   # (time, who, value)
    try:
        procs = {who: sbs.start(who)[0] for who in ('ours', 'peer')}
        pids = {who: p.pid for who, p in procs.items()}
        sbs.record_changes({'DeviceOrientationDidChange': 'ours'})
        for who in pids:
            sbs.claim(who)
        sbs.pump(0.5)
        sbs.feed(PORTRAIT)
        want = {'peer': PEER_VALUE[PORTRAIT], 'ours': OUR_VALUE[PORTRAIT]}
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not all(sbs.orientation(w) == want[w] for w in pids):
            sbs.pump(0.1)
        state = {who: {'portrait_after_one_frame': sbs.orientation(who) == want[who],
                       'node_open': node_open(pid), 'buffer_enable': sbs.attribute(who, 'buffer/enable'),
                       'trigger': sbs.attribute(who, 'trigger/current_trigger')} for who, pid in pids.items()}
        sbs.pump(2)
        before = Sample(pids)
        sbs.pump(args.seconds)
        still = Sample(pids).since(before)

        del seen[:]
        marks, pose = [], PORTRAIT
        before = Sample(pids)
        for _ in range(args.turns):
            pose = LANDSCAPE if pose == PORTRAIT else PORTRAIT
            marks.append((sbs.feed(pose), pose))
            sbs.pump(2.0)
        turning = Sample(pids).since(before)
        sbs.pump(1.0)
    finally:
        sbs.close()

    figures = {'seconds': args.seconds, 'turns': args.turns}
    for who in ('peer', 'ours'):
        value = PEER_VALUE if who == 'peer' else OUR_VALUE
        latencies = []
        for n, (t0, pose) in enumerate(marks):
            t1 = marks[n + 1][0] if n + 1 < len(marks) else float('inf')
            hits = [t for t, w, v in seen if w == who and t0 <= t < t1 and v == value[pose]]
            if hits:
                latencies.append((hits[0] - t0) * 1000)
        s, t = still[who], turning[who]
        figures[who] = dict(state[who], still_cpu_ms_per_min=s['cpu_ms'] * 60 / s['seconds'],
                            still_wakeups_per_s=s['wakeups'] / s['seconds'], still_wakeups=s['wakeups'],
                            still_involuntary=s['involuntary'],
                            turning_cpu_ms_per_min=t['cpu_ms'] * 60 / t['seconds'],
                            turning_wakeups_per_s=t['wakeups'] / t['seconds'],
                            changes=sum(1 for _, w, _ in seen if w == who), turns_seen=len(latencies),
                            latency_median_ms=statistics.median(latencies) if latencies else None)

    p, o = figures['peer'], figures['ours']
    print('buffered accelerometer fed only on change: both claimed, %g s still after one frame, then %d turns '
          '2 s apart (one frame each)' % (args.seconds, args.turns))
    print('%-52s %18s %18s' % ('figure', 'iio-sensor-proxy', 'orientationd'))
    rows = [('portrait after the one frame', 'portrait_after_one_frame', '%s'),
            ('node open while claimed', 'node_open', '%s'),
            ('buffer/enable, trigger/current_trigger', None, None),
            ('CPU per minute, still', 'still_cpu_ms_per_min', '%.1f ms'),
            ('wake-ups per second, still', 'still_wakeups_per_s', '%.2f/s'),
            ('wake-ups in all, still (involuntary apart)', None, None),
            ('CPU per minute, turning every 2 s', 'turning_cpu_ms_per_min', '%.1f ms'),
            ('wake-ups per second, turning every 2 s', 'turning_wakeups_per_s', '%.2f/s'),
            ('turns announced / orientation changes', None, None),
            ('frame -> announced, median', 'latency_median_ms', '%.0f ms')]
    for label, key, form in rows:
        if label.startswith('buffer/'):
            cells = ['%s, %s' % (f['buffer_enable'], f['trigger'] or '(none)') for f in (p, o)]
        elif label.startswith('wake-ups in all'):
            cells = ['%d (%d)' % (f['still_wakeups'], f['still_involuntary']) for f in (p, o)]
        elif label.startswith('turns'):
            cells = ['%d of %d / %d' % (f['turns_seen'], args.turns, f['changes']) for f in (p, o)]
        else:
            cells = [form % f[key] if f[key] is not None else 'n/a' for f in (p, o)]
        print('%-52s %18s %18s' % (label, cells[0], cells[1]))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(figures, f, indent=1)


if __name__ == '__main__':
    main()
