# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""What the side-by-side benchmarks share: a private dbus-daemon (the peer's "system" bus), one umockdev
testbed holding one fake IIO accelerometer, both daemons spawned directly with umockdev's preload, and
per-process figures read from /proc.

The peer is iio-sensor-proxy (/usr/sbin/iio-sensor-proxy); ours is `orientationd --sensor iio`.
"""
import argparse
import os
import struct
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# The testbed (umockdev's fake /sys) and the work directory live in memory, as sysfs does: on a disk
# file system every attribute umockdev replaces leaves an inode that the kernel frees, through the
# file system's journal, when a daemon holding the old file closes it, a cost real sysfs never has.
# BENCH_TMPDIR chooses another place; /dev/shm is used when it is a writable directory.
if 'BENCH_TMPDIR' in os.environ or os.access('/dev/shm', os.W_OK):
    os.environ['TMPDIR'] = os.environ.get('BENCH_TMPDIR', '/dev/shm')
    tempfile.tempdir = None

import gi
gi.require_version('UMockdev', '1.0')
gi.require_version('Gio', '2.0')
from gi.repository import GLib, Gio, UMockdev  # noqa: E402

SP, SP_PATH = 'net.hadess.SensorProxy', '/net/hadess/SensorProxy'
OD, OD_PATH = 'org.orientationd.Orientation1', '/org/orientationd/Orientation1'
PEER_BIN = '/usr/sbin/iio-sensor-proxy'
RAW_G = 256                       # raw units per g (scale 9.81/256)
SCALE = '0.038320312'
PORTRAIT, LANDSCAPE = (0, -RAW_G, 0), (-RAW_G, 0, 0)
PEER_VALUE = {PORTRAIT: 'normal', LANDSCAPE: 'right-up'}
OUR_VALUE = {PORTRAIT: 1, LANDSCAPE: 3}
NAMES = {'peer': SP, 'ours': OD}

def bus_config(socket):
    """The one private-bus configuration (Harness/private-bus.conf), with room for the benchmark's
    thousand connections."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'Harness', 'private-bus.conf')) as f:
        template = f.read()
    return template.replace('@SOCKET@', socket).replace('@EXTRA@', '<limit name="max_connections_per_user">1000</limit>\n'
                                                         '  <limit name="max_completed_connections">1000</limit>')


PRELOAD = 'libumockdev-preload.so.0'
IIO_GET_EVENT_FD_IOCTL = 0x80046990      # _IOR('i', 0x90, int)
MOTION_EVENT = 'events/in_accel_x&y&z_mag_rising_en'


def clean_environment():
    """This process's environment without umockdev (see `preload_self`)."""
    env = dict(os.environ)
    env.pop('UMOCKDEV_DIR', None)
    rest = [lib for lib in env.get('LD_PRELOAD', '').split(':') if lib and 'umockdev' not in lib]
    if rest:
        env['LD_PRELOAD'] = ':'.join(rest)
    else:
        env.pop('LD_PRELOAD', None)
    return env


def preload_self():
    """Re-executes this script under umockdev's preload, once.

    umockdev builds an emulated uevent with the sender's own libudev, which must see the testbed's
    /sys: without the preload in the process that owns the testbed, add_device and remove_device
    send nothing."""
    if PRELOAD not in os.environ.get('LD_PRELOAD', ''):
        env = dict(os.environ, LD_PRELOAD=PRELOAD + (':' + os.environ['LD_PRELOAD'] if os.environ.get('LD_PRELOAD') else ''))
        os.execve(sys.executable, [sys.executable] + sys.argv, env)


def arguments(**options):
    """The options every side-by-side benchmark takes (--daemon, --keep, --json, --motion-events) and
    `options`: name=(type, default) each, as --name."""
    ap = argparse.ArgumentParser()
    ap.add_argument('--daemon', required=True, help='our binary (release build)')
    ap.add_argument('--keep', action='store_true', help='keep the logs and the testbed')
    ap.add_argument('--motion-events', action='store_true',
                    help='the accelerometer offers a motion event (SideBySide, motion_events)')
    ap.add_argument('--json', help='also write the figures to this file (for Benchmarks/run.sh)')
    for name, (kind, default) in options.items():
        ap.add_argument('--' + name.replace('_', '-'), type=kind, default=default)
    return ap.parse_args()


def threads_sum(pid, read):
    """Sum of `read(task directory)` over every thread of `pid` (threads that end meanwhile count 0)."""
    total = 0
    try:
        tids = os.listdir('/proc/%d/task' % pid)
    except FileNotFoundError:
        return 0
    for tid in tids:
        try:
            total += read('/proc/%d/task/%s' % (pid, tid))
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def _status_field(task, field):
    with open(task + '/status') as f:
        for line in f:
            if line.startswith(field + ':'):
                return int(line.split()[1])
    return 0


def voluntary_switches(pid):
    """Times the process's threads went to sleep (waited for something): its wake-ups."""
    return threads_sum(pid, lambda t: _status_field(t, 'voluntary_ctxt_switches'))


def involuntary_switches(pid):
    return threads_sum(pid, lambda t: _status_field(t, 'nonvoluntary_ctxt_switches'))


def cpu_ns(pid):
    """CPU time of every thread, in ns (/proc/PID/task/*/schedstat, first field)."""
    def read(task):
        with open(task + '/schedstat') as f:
            return int(f.read().split()[0])
    return threads_sum(pid, read)


def memory_kb(pid):
    """{'VmRSS', 'private', 'Private_Clean', 'Private_Dirty', 'Pss'} in kB, from status and smaps_rollup."""
    out = {}
    with open('/proc/%d/status' % pid) as f:
        for line in f:
            if line.startswith('VmRSS:'):
                out['VmRSS'] = int(line.split()[1])
    with open('/proc/%d/smaps_rollup' % pid) as f:
        for line in f:
            key, _, value = line.partition(':')
            if key in ('Private_Clean', 'Private_Dirty', 'Pss'):
                out[key] = int(value.split()[0])
    out['private'] = out['Private_Clean'] + out['Private_Dirty']
    return out


def evict(path):
    """Drops a file's pages from the page cache (written back first); pages mapped by a running
    process stay."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


class Sample:
    """CPU time and wake-ups of a set of processes, thread by thread, to subtract from a later Sample.

    Per thread, because a thread that ends in between (the peer's GLib pool thread ends 15 s after its
    last task) would take its whole count away from a sum over threads; here it drops out, and only
    what it did in between is lost."""

    def __init__(self, pids):
        self.t = time.monotonic()
        self.threads = {who: {} for who in pids}
        for who, pid in pids.items():
            for tid in os.listdir('/proc/%d/task' % pid):
                task = '/proc/%d/task/%s' % (pid, tid)
                try:
                    with open(task + '/schedstat') as f:
                        cpu = int(f.read().split()[0])
                    self.threads[who][tid] = (cpu, _status_field(task, 'voluntary_ctxt_switches'),
                                              _status_field(task, 'nonvoluntary_ctxt_switches'))
                except (FileNotFoundError, ProcessLookupError):
                    pass

    def since(self, earlier):
        out = {}
        for who, now in self.threads.items():
            then = earlier.threads[who]
            cpu, vol, inv = (sum(v[i] - then.get(tid, (0, 0, 0))[i] for tid, v in now.items()) for i in range(3))
            out[who] = {'seconds': self.t - earlier.t, 'cpu_ms': cpu / 1e6, 'wakeups': vol, 'involuntary': inv}
        return out


class SideBySide:
    """A private bus, a testbed with one accelerometer, and the daemons started on them.

    `daemon`: our binary; `extra_args`: more arguments for ours (e.g. a config file).

    motion_events: the accelerometer is one whose driver offers a motion event, as an mma8452's
    (`events/in_accel_x&y&z_mag_rising_en`), with its node /dev/iio:device0. umockdev emulates the
    ioctl that asks for the event descriptor (IIO_GET_EVENT_FD_IOCTL) but cannot make a descriptor in
    the daemon's process, so it answers with the read end of a pipe our daemon is started holding;
    each write() that moves the device while the event is enabled puts one 16-byte iio_event_data
    into the pipe first, as the chip would raise its interrupt. The peer does not use events: for it
    the device is the same polled accelerometer."""

    def __init__(self, daemon, extra_args=(), keep=False, motion_events=False):
        self.daemon = daemon
        self.extra_args = list(extra_args)
        self.keep = keep
        self.work = tempfile.mkdtemp(prefix='orientationd-bench-')
        sock = os.path.join(self.work, 'bus')
        conf = os.path.join(self.work, 'bus.conf')
        with open(conf, 'w') as f:
            f.write(bus_config(sock))
        clean = clean_environment()
        self.bus_proc = subprocess.Popen(['dbus-daemon', '--config-file=' + conf, '--nofork', '--print-address=1'],
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=clean)
        self.address = self.bus_proc.stdout.readline().strip()
        self.testbed = UMockdev.Testbed.new()
        if motion_events:
            self.testbed.add_from_string(
                'P: /devices/iio:device0\nN: iio:device0\nE: DEVNAME=/dev/iio:device0\nE: SUBSYSTEM=iio\n'
                'E: NAME="IIO Accelerometer"\nE: IIO_SENSOR_PROXY_TYPE=iio-poll-accel\nA: dev=241:0\n'
                'A: in_accel_x_raw=0\nA: in_accel_y_raw=%d\nA: in_accel_z_raw=0\nA: in_accel_scale=%s\n'
                'A: name=IIO Test Accelerometer\nA: %s=0\nA: events/in_accel_x&y&z_mag_rising_value=0.5\n\n'
                % (-RAW_G, SCALE, MOTION_EVENT))
            self.accel = '/sys/devices/iio:device0'
            self.event_read, self.event_write = os.pipe()
            os.set_blocking(self.event_write, False)
            self.event_handler = UMockdev.IoctlBase()
            self.event_handler.connect('handle-ioctl', self._answer_event_fd)
            self.testbed.attach_ioctl('/dev/iio:device0', self.event_handler)
        else:
            self.accel = self.testbed.add_device(
                'iio', 'iio:device0', None,
                ['in_accel_x_raw', '0', 'in_accel_y_raw', str(-RAW_G), 'in_accel_z_raw', '0',
                 'in_accel_scale', SCALE, 'name', 'IIO Test Accelerometer'],
                ['NAME', '"IIO Accelerometer"', 'IIO_SENSOR_PROXY_TYPE', 'iio-poll-accel'])
        self.motion_events = motion_events
        self.raw = dict(zip('xyz', PORTRAIT))
        base = dict(clean, DBUS_SYSTEM_BUS_ADDRESS=self.address)
        base.pop('DBUS_SESSION_BUS_ADDRESS', None)
        preload = PRELOAD + (':' + base['LD_PRELOAD'] if base.get('LD_PRELOAD') else '')
        self.mock_env = dict(base, LD_PRELOAD=preload, UMOCKDEV_DIR=self.testbed.get_root_dir())
        self.plain_env = base
        self.bus = Gio.DBusConnection.new_for_address_sync(
            self.address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT |
            Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
        self.context = GLib.MainContext.default()
        self.owners = {}   # name -> (time seen, new owner)
        self.bus.signal_subscribe('org.freedesktop.DBus', 'org.freedesktop.DBus', 'NameOwnerChanged',
                                  '/org/freedesktop/DBus', None, Gio.DBusSignalFlags.NONE, self._on_owner, None)
        self.procs = []
        self.state = os.path.join(self.work, 'state')
        self.loop = GLib.MainLoop()
        self.events = []   # (time seen, who, value), once record_changes is called

    def _answer_event_fd(self, handler, client):
        """IIO_GET_EVENT_FD_IOCTL on the node: the pipe's read end, which our daemon holds."""
        if client.get_request() != IIO_GET_EVENT_FD_IOCTL:
            return False
        client.get_arg().resolve(0, 4).update(0, list(struct.pack('i', self.event_read)))
        client.complete(0, 0)
        return True

    def moved(self):
        """The device is about to move: one motion event, if the daemon enabled it."""
        if not self.motion_events:
            return
        try:
            with open(self.testbed.get_root_dir() + self.accel + '/' + MOTION_EVENT) as f:
                if f.read().strip() != '1':
                    return
            # IIO_EVENT_CODE(IIO_ACCEL, 0, IIO_MOD_X_OR_Y_OR_Z, IIO_EV_TYPE_MAG, IIO_EV_DIR_RISING, ...) and a timestamp.
            os.write(self.event_write, struct.pack('<Qq', (3 << 32) | (4 << 40) | (2 << 48) | (1 << 56), time.monotonic_ns()))
        except OSError:   # the pipe full (nobody drained it): the daemon is awake anyway
            pass

    def _on_owner(self, conn, sender, path, iface, signal_name, params, data):
        name, old, new = params.unpack()
        self.owners[name] = (time.monotonic(), new)

    def argv(self, who, sensor='iio', wrapper=()):
        if who == 'peer':
            return list(wrapper) + [PEER_BIN]
        return list(wrapper) + [self.daemon, '--address', self.address, '--sensor', sensor, '--state-dir',
                                self.state] + self.extra_args

    def start(self, who, sensor='iio', mock=True, log=None, wrapper=(), timeout=10, cold=False):
        """Spawns `who`; returns (process, ms from spawn to its NameOwnerChanged seen here).

        cold: first drop the program's file from the page cache, as after a boot. How a file came into
        the page cache changes what a process mapping it keeps resident: a file just written (our
        copy in OUT) is cached in large folios, which the kernel maps whole, and one read at start
        in the folios readahead makes; a memory figure taken warm would measure how the file was
        last copied. Memory benchmarks start both daemons cold."""
        name = NAMES[who]
        if cold:
            evict(self.daemon if who == 'ours' else PEER_BIN)
        self.owners.pop(name, None)
        log = open(os.path.join(self.work, log or (who + '.log')), 'a')
        t0 = time.monotonic()
        p = subprocess.Popen(self.argv(who, sensor, wrapper), env=self.mock_env if mock else self.plain_env,
                             stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                             pass_fds=[self.event_read] if self.motion_events and who == 'ours' else [])
        deadline = t0 + timeout
        while True:
            seen = self.owners.get(name)
            if seen and seen[1]:
                break
            if p.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError('%s did not take %s (exit %s); logs in %s' % (who, name, p.returncode, self.work))
            self.context.iteration(True) if self.context.pending() else time.sleep(0.0002)
        self.procs.append(p)
        return p, (seen[0] - t0) * 1000

    def wait_gone(self, who, timeout=5):
        end = time.monotonic() + timeout
        while time.monotonic() < end and self.owners.get(NAMES[who], (0, ''))[1]:
            self.context.iteration(True)

    def stop(self, p):
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if p in self.procs:
            self.procs.remove(p)

    def call(self, dest, path, iface, method, args=None, sig=None):
        return self.bus.call_sync(dest, path, iface, method, GLib.Variant(sig, args) if sig else None, None,
                                  Gio.DBusCallFlags.NONE, 5000, None).unpack()

    def get(self, dest, path, iface, prop):
        return self.call(dest, path, 'org.freedesktop.DBus.Properties', 'Get', (iface, prop), '(ss)')[0]

    def claim(self, who):
        if who == 'peer':
            self.call(SP, SP_PATH, SP, 'ClaimAccelerometer')
        else:
            self.call(OD, OD_PATH, OD, 'BeginGeneratingDeviceOrientationNotifications')

    def orientation(self, who):
        if who == 'peer':
            return self.get(SP, SP_PATH, SP, 'AccelerometerOrientation')
        return self.get(OD, OD_PATH, OD, 'DeviceOrientation')

    def pump(self, seconds):
        """Runs the main loop for `seconds`: this client's bus messages are dispatched (and signals
        timestamped by record_changes) as they arrive."""
        GLib.timeout_add(max(1, int(seconds * 1000)), self.loop.quit)
        self.loop.run()

    def record_changes(self, ours):
        """Appends each orientation change either daemon announces to self.events as (time seen,
        who, value): the peer's AccelerometerOrientation as 'peer', and each of our signals named in
        `ours` ({signal name: who}) with its last argument, the new orientation."""
        def on_peer(conn, sender, path, iface, name, params, data):
            changed = params.unpack()[1]
            if 'AccelerometerOrientation' in changed:
                self.events.append((time.monotonic(), 'peer', changed['AccelerometerOrientation']))

        def on_ours(conn, sender, path, iface, name, params, data):
            if name in ours:
                self.events.append((time.monotonic(), ours[name], params.unpack()[-1]))
        self.bus.signal_subscribe(SP, 'org.freedesktop.DBus.Properties', 'PropertiesChanged', SP_PATH, SP,
                                  Gio.DBusSignalFlags.NONE, on_peer, None)
        self.bus.signal_subscribe(OD, OD, None, OD_PATH, None, Gio.DBusSignalFlags.NONE, on_ours, None)

    def write(self, raw):
        """Sets the three raw attributes, one file at a time.

        A daemon may read between two writes, so every state on the way keeps the magnitude within
        0.7-1.25 g: a turn portrait -> landscape goes (0, -g) -> (-0.7g, -g) -> (-0.7g, 0) -> (-g, 0).
        Writing (-g, -g) on the way would read as 1.41 g, a shake, and start the classifier's hold-off;
        (0, 0) would read as free fall."""
        steps = [{a: round(v * 0.707) for a, v in zip('xyz', raw) if v and not self.raw.get(a)},
                 {a: 0 for a, v in zip('xyz', raw) if not v},
                 dict(zip('xyz', raw))]
        if any(self.raw.get(a) != v for a, v in zip('xyz', raw)):
            self.moved()
        for step in steps:
            for axis, value in step.items():
                if self.raw.get(axis) != value:
                    self.testbed.set_attribute(self.accel, 'in_accel_%s_raw' % axis, str(value))
                    self.raw[axis] = value

    def turn(self, rng, steps):
        """Turns the device portrait <-> landscape `steps` times at random phases (0.9-1.6 s apart,
        so a step never lines up with a poll); returns (time written, pose) per step."""
        self.pump(rng.uniform(0.9, 1.6))
        marks = []
        pose = PORTRAIT
        for _ in range(steps):
            pose = LANDSCAPE if pose == PORTRAIT else PORTRAIT
            t0 = time.monotonic()
            self.write(pose)
            marks.append((t0, pose))
            self.pump(rng.uniform(0.9, 1.6))
        self.pump(0.8)
        return marks

    def settle_in(self, pose, whos, timeout=5):
        """Puts the device in `pose` and waits until each of `whos` reports it."""
        self.write(pose)
        deadline = time.monotonic() + timeout
        want = {'peer': PEER_VALUE[pose], 'ours': OUR_VALUE[pose]}
        while time.monotonic() < deadline:
            self.pump(0.1)
            if all(self.orientation(w) == want[w] for w in whos):
                return True
        return False

    def close(self):
        for p in list(self.procs):
            self.stop(p)
        self.bus.close_sync(None)
        if self.motion_events:
            os.close(self.event_read)
            os.close(self.event_write)
        self.bus_proc.terminate()
        self.bus_proc.wait()
        if not self.keep:
            shutil.rmtree(self.work, ignore_errors=True)
            shutil.rmtree(self.testbed.get_root_dir(), ignore_errors=True)
