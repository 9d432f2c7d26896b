# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""The fault suite (Docs/security.md, "Faults"): orientationd on a full and on a read-only state
directory, started on corrupt state and config files, killed with SIGKILL while a client's changes
are acknowledged, left by clients cut off mid-message, and rotated while clients that never read
match every signal. Prints the figures of each part and, last, "faults: N invariant(s) broken".

Usage: faults.py ADDRESS DAEMON WORK [PART...]
  PART: full, read-only, corrupt, kill, cut-off, silent (default: all, in that order)
  LOOPS=100 (kill), CLIENTS=5000 (cut-off), SECONDS=30 LISTENERS=10 (silent)
The full and read-only parts mount small tmpfs file systems under WORK, so they need root.
"""
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time

from gi.repository import Gio, GLib

ADDRESS, DAEMON, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
PARTS = sys.argv[4:] or ['full', 'read-only', 'corrupt', 'kill', 'cut-off', 'silent']
NAME, PATH, IFACE = 'org.orientationd.Orientation1', '/org/orientationd/Orientation1', 'org.orientationd.Orientation1'
FLAGS = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
MASKS = [2, 4, 8, 16, 10, 18, 24, 26, 30, 6]
broken = []


def check(ok, what):
    if not ok:
        broken.append(what)
        print(f'   BROKEN: {what}')


def connect():
    return Gio.DBusConnection.new_for_address_sync(ADDRESS, FLAGS, None, None)


bus = connect()


def call(conn, method, params=None, timeout_ms=25_000, iface=IFACE, path=PATH):
    """Calls and returns (reply, None) or (None, error text)."""
    try:
        return conn.call_sync(NAME, path, iface, method, params, None, Gio.DBusCallFlags.NONE, timeout_ms, None), None
    except GLib.Error as error:
        name = Gio.DBusError.get_remote_error(error)
        return None, f'{name}: {error.message.split(name + ": ", 1)[-1]}' if name else error.message


def get(conn, prop, timeout_ms=25_000):
    reply, error = call(conn, 'Get', GLib.Variant('(ss)', (IFACE, prop)), timeout_ms, 'org.freedesktop.DBus.Properties')
    return (reply.unpack()[0], None) if reply else (None, error)


def name_owned():
    reply = bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'NameHasOwner',
                          GLib.Variant('(s)', (NAME,)), None, Gio.DBusCallFlags.NONE, 5_000, None)
    return reply.unpack()[0]


class Daemon:
    """One orientationd on the bus, its log in WORK/daemon-N.log."""
    count = 0

    def __init__(self, state_dir, *extra, wait=True):
        Daemon.count += 1
        self.log = f'{WORK}/daemon-{Daemon.count}.log'
        with open(self.log, 'w') as log:
            self.process = subprocess.Popen([DAEMON, '--address', ADDRESS, '--sensor', 'simulated', '--state-dir', state_dir,
                                             *extra], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
        self.owned = False
        if wait:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and self.process.poll() is None:
                if name_owned():
                    self.owned = True
                    break
                time.sleep(0.01)

    def alive(self):
        return self.process.poll() is None

    def rss_kb(self):
        with open(f'/proc/{self.process.pid}/status') as status:
            return int(next(line for line in status if line.startswith('VmRSS')).split()[1])

    def stop(self, sig=signal.SIGTERM):
        if self.process.poll() is None:
            self.process.send_signal(sig)
        status = self.process.wait(10)
        deadline = time.monotonic() + 5
        while name_owned() and time.monotonic() < deadline:
            time.sleep(0.01)
        return status

    def log_lines(self):
        with open(self.log, errors='replace') as log:
            return [line.rstrip('\n') for line in log]


def mount_tmpfs(where, size):
    os.makedirs(where, exist_ok=True)
    subprocess.run(['mount', '-t', 'tmpfs', '-o', f'size={size},mode=0755', 'tmpfs', where], check=True)


def umount(where):
    subprocess.run(['umount', '-l', where], check=False)


def fill(where):
    """Writes a file in `where` until the file system is full; returns the bytes written."""
    written = 0
    try:
        with open(f'{where}/filler', 'wb') as filler:
            while True:
                filler.write(b'\0' * 4096)
                filler.flush()
                written += 4096
    except OSError:
        pass
    return written


def timed(conn, method, params):
    start = time.monotonic()
    reply, error = call(conn, method, params)
    return reply, error, (time.monotonic() - start) * 1000


def part_full():
    print('== full: the state directory on a 1 MiB tmpfs, filled while the daemon runs')
    where = f'{WORK}/full'
    mount_tmpfs(where, '1m')
    try:
        daemon = Daemon(f'{where}/state')
        conn = connect()
        _, error, ms = timed(conn, 'SetRotationLocked', GLib.Variant('(b)', (True,)))
        check(error is None, f'a change on a disk with room failed: {error}')
        filled = fill(where)
        print(f'   filled with {filled:,} bytes')
        _, error, ms = timed(conn, 'SetRotationLocked', GLib.Variant('(b)', (False,)))
        print(f'   SetRotationLocked(false) on the full disk: {ms:.1f} ms, {error}')
        check(error is not None and error.startswith('org.freedesktop.DBus.Error.Failed'), 'the full disk was not reported')
        value, _ = get(conn, 'RotationLocked')
        print(f'   RotationLocked now reads {value} (the change took effect)')
        check(value is False, 'the change did not take effect')
        _, error, ms = timed(conn, 'SetApplicationOrientations', GLib.Variant('(su)', ('org.example.Full', 2)))
        print(f'   SetApplicationOrientations on the full disk: {ms:.1f} ms, {error}')
        check(error is not None, 'the full disk was not reported')
        os.unlink(f'{where}/filler')
        _, error, ms = timed(conn, 'SetRotationLocked', GLib.Variant('(b)', (True,)))
        print(f'   room again: SetRotationLocked(true) {ms:.1f} ms, {error or "answered"}')
        check(error is None, 'the change after freeing room failed')
        with open(f'{where}/state/state') as state:
            text = state.read()
        check('RotationLocked=true' in text and 'org.example.Full=' in text, 'the state file misses a change: ' + text)
        warnings = [line for line in daemon.log_lines() if 'state' in line]
        print(f'   log lines about the state file: {len(warnings)}; first: {warnings[0] if warnings else "none"}')
        check(daemon.alive(), 'the daemon died')
        daemon.stop()
        daemon = Daemon(f'{where}/state')
        value, _ = get(connect(), 'RotationLocked')
        print(f'   restarted: RotationLocked reads {value}')
        check(value is True, 'the saved lock was lost')
        daemon.stop()
    finally:
        umount(where)


def part_read_only():
    print('== read-only: the state directory on a tmpfs remounted read-only, while running and at start')
    where = f'{WORK}/ro'
    mount_tmpfs(where, '1m')
    try:
        daemon = Daemon(f'{where}/state')
        conn = connect()
        call(conn, 'SetRotationLocked', GLib.Variant('(b)', (True,)))
        subprocess.run(['mount', '-o', 'remount,ro', where], check=True)
        _, error, ms = timed(conn, 'SetRotationLocked', GLib.Variant('(b)', (False,)))
        print(f'   while running: SetRotationLocked(false) {ms:.1f} ms, {error}')
        check(error is not None and error.startswith('org.freedesktop.DBus.Error.Failed'), 'the read-only disk was not reported')
        check(daemon.alive(), 'the daemon died')
        print(f'   log: {[line for line in daemon.log_lines() if "state" in line][:1]}')
        daemon.stop()
        daemon = Daemon(f'{where}/state')
        check(daemon.owned, 'the daemon did not start on a read-only state directory')
        value, _ = get(connect(), 'RotationLocked')
        print(f'   at start: took its name {daemon.owned}, RotationLocked reads {value} (saved: true)')
        check(value is True, 'the saved state was not read from the read-only directory')
        _, error, ms = timed(connect(), 'SetRotationLocked', GLib.Variant('(b)', (False,)))
        print(f'   at start: SetRotationLocked(false) {ms:.1f} ms, {error}')
        check(error is not None, 'the read-only disk was not reported')
        lines = [line for line in daemon.log_lines() if 'state' in line]
        print(f'   log: {lines[:2]}')
        check(any('read-only' in line.lower() for line in lines), 'no log line names the read-only file system')
        daemon.stop()
    finally:
        umount(where)


def corrupt_cases(valid):
    """(name, how to make it at path) for state files no daemon ever wrote."""
    cases = [('empty', b''), ('one NUL', b'\0'), ('no group', b'RotationLocked=true\n'),
             ('bad boolean', valid.replace(b'RotationLocked=false', b'RotationLocked=maybe')),
             ('lock twice', valid + b'RotationLocked=true\n'), ('group twice', valid + valid),
             ('mask 0', b'[State]\nApplicationMask=0\n'), ('mask 999', b'[State]\nApplicationMask=999\n'),
             ('mask -1', b'[State]\nApplicationMask=-1\n'), ('mask text', b'[State]\nApplicationMask=portrait\n'),
             ('orientation 9', b'[State]\nInterfaceOrientation=9\n'), ('orientation 0', b'[State]\nInterfaceOrientation=0\n'),
             ('bad app id', b'[State]\n[Applications]\n..bad=2\n'), ('app mask 0', b'[State]\n[Applications]\norg.a.B=0\n'),
             ('app mask 64', b'[State]\n[Applications]\norg.a.B=64\n'),
             ('2,000 apps', b'[State]\n[Applications]\n' + b''.join(b'org.a.B%d=2\n' % i for i in range(2000))),
             ('invalid UTF-8', b'[State]\nRotationLocked=\xff\xfe\n'), ('NUL inside', valid[:10] + b'\0' + valid[10:]),
             ('overlong line', b'[State]\nRotationLocked=' + b't' * 200_000 + b'\n'),
             ('600 KiB', b'#' * 600 * 1024), ('CRLF', valid.replace(b'\n', b'\r\n')),
             ('no newline', valid.rstrip(b'\n')), ('unknown keys', valid + b'Unknown=1\n[Other]\nx=y\n')]
    cases += [(f'cut at byte {n}', valid[:n]) for n in range(1, len(valid), max(1, len(valid) // 20))]
    rng = random.Random(28)
    cases += [(f'random bytes {n}', bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4096)))) for n in range(8)]
    cases += [(f'flipped bit {n}', bytes(b ^ (1 << rng.randrange(8)) if i == rng.randrange(len(valid)) else b
                                         for i, b in enumerate(valid))) for n in range(4)]
    specials = ['symbolic link', 'FIFO', 'directory', 'link to /dev/zero', 'no read permission']
    return cases, specials


def part_corrupt():
    print('== corrupt: a state file or a config file no daemon wrote, at start')
    state = f'{WORK}/corrupt-state'
    os.makedirs(state, exist_ok=True)
    daemon = Daemon(state)
    conn = connect()
    call(conn, 'SetRotationLocked', GLib.Variant('(b)', (False,)))
    call(conn, 'SetApplicationOrientations', GLib.Variant('(su)', ('org.example.Valid', 24)))
    daemon.stop()
    with open(f'{state}/state', 'rb') as file:
        valid = file.read()
    cases, specials = corrupt_cases(valid)
    outcomes = {'started': 0, 'died': 0}
    replaced, left = 0, []
    for name, content in cases + [(name, None) for name in specials]:
        path = f'{state}/state'
        subprocess.run(['rm', '-rf', path], check=True)
        if content is not None:
            with open(path, 'wb') as file:
                file.write(content)
        elif name == 'symbolic link':
            os.symlink(f'{WORK}/elsewhere', path)
        elif name == 'FIFO':
            os.mkfifo(path)
        elif name == 'directory':
            os.mkdir(path)
        elif name == 'link to /dev/zero':
            os.symlink('/dev/zero', path)
        else:
            with open(path, 'wb') as file:
                file.write(valid)
            os.chmod(path, 0)
        daemon = Daemon(state)
        value, error = get(connect(), 'InterfaceOrientation', 5_000) if daemon.owned else (None, 'no name')
        if daemon.owned and value is not None and daemon.alive():
            outcomes['started'] += 1
        else:
            outcomes['died'] += 1
            check(False, f'state "{name}": {error}, exit {daemon.process.poll()}')
        status = daemon.stop()
        check(status == 0, f'state "{name}": stopped with status {status}')
        if os.path.isfile(path) and not os.path.islink(path):
            replaced += 1
        else:
            left.append(name)
    print(f'   {len(cases) + len(specials)} corrupt state files: the daemon took its name and answered on '
          f'{outcomes["started"]}, stopped cleanly on every one; a regular state file afterwards in {replaced}'
          + (f' (not: {", ".join(left)})' if left else ''))
    config_cases = [('empty', b''), ('binary', bytes(range(256)) * 4), ('no group', b'Idiom=phone\n'),
                    ('bad idiom', b'[Application]\nIdiom=toaster\n'), ('mask 0', b'[Application]\nSupportedOrientations=0\n'),
                    ('bad classifier', b'[Classifier]\nSettleMs=-5\n'), ('unknown group', b'[Nothing]\nA=1\n'),
                    ('invalid UTF-8', b'[Application]\nIdiom=\xff\n'), ('2 MiB', b'#' * 2 * 1024 * 1024),
                    ('overlong line', b'[Application]\nIdiom=' + b'x' * 100_000 + b'\n')]
    started = refused = 0
    for name, content in config_cases + [('FIFO', None)]:
        path = f'{WORK}/corrupt.conf'
        subprocess.run(['rm', '-rf', path], check=True)
        if content is None:
            os.mkfifo(path)
        else:
            with open(path, 'wb') as file:
                file.write(content)
        daemon = Daemon(state, '--config', path)
        if daemon.owned:
            started += 1
            warning = next((line for line in daemon.log_lines() if 'ignored' in line), 'no warning')
            print(f'   config "{name}": started ({warning[:120]})')
            status = daemon.stop()
            check(status == 0, f'config "{name}": stopped with status {status}')
        else:
            status = daemon.process.wait(10)
            message = (daemon.log_lines() or ['(nothing)'])[-1]
            check(status == 2 and message != '(nothing)', f'config "{name}": exit {status} with {message}')
            refused += 1
            print(f'   config "{name}": exit {status}: {message[:150]}')
    print(f'   {len(config_cases) + 1} corrupt config files: started with it {started}, refused with status 2 and a '
          f'line saying why {refused}, crashed 0' if not any('config' in b for b in broken) else '   config: see BROKEN')
    return len(cases) + len(specials) + len(config_cases) + 1


def part_kill():
    loops = int(os.environ.get('LOOPS', '100'))
    print(f'== kill: {loops} loops of SIGKILL at a random moment while one client\'s changes are acknowledged')
    state = f'{WORK}/kill-state'
    os.makedirs(state, exist_ok=True)
    ids = [f'org.example.Kill{n}' for n in range(32)]
    acked = {}
    in_flight = None
    total_acked = lost = applied_in_flight = 0
    rng = random.Random(100)
    for loop in range(loops + 1):
        daemon = Daemon(state)
        conn = connect()
        saved, error = get(conn, 'ApplicationOrientations')
        check(saved is not None, f'loop {loop}: {error}')
        saved = saved or {}
        for app, mask in acked.items():
            if saved.get(app) != mask:
                if in_flight and in_flight[0] == app and saved.get(app) == in_flight[1]:
                    continue
                lost += 1
                check(False, f'loop {loop}: {app} acknowledged as {mask}, reads {saved.get(app)}')
        if in_flight and saved.get(in_flight[0]) == in_flight[1]:
            applied_in_flight += 1
            acked[in_flight[0]] = in_flight[1]
        if loop == loops:
            daemon.stop()
            break
        in_flight = None
        timer = threading.Timer(rng.uniform(0.05, 0.6), daemon.process.kill)
        timer.start()
        while True:
            app = rng.choice(ids)
            mask = rng.choice([m for m in MASKS if m != acked.get(app)])
            in_flight = (app, mask)
            _, error = call(conn, 'SetApplicationOrientations', GLib.Variant('(su)', (app, mask)), 5_000)
            if error is not None:
                break
            acked[app] = mask
            in_flight = None
            total_acked += 1
        timer.join()
        daemon.process.wait()
        while name_owned():
            time.sleep(0.01)
    print(f'   {total_acked:,} changes acknowledged before {loops} SIGKILLs; lost after the restart: {lost}; '
          f'the change in flight at the kill was found saved {applied_in_flight} times (it may or may not be)')


def auth(sock):
    sock.sendall(b'\0AUTH EXTERNAL ' + str(os.getuid()).encode().hex().encode() + b'\r\n')
    assert sock.recv(4096).startswith(b'OK'), 'authentication refused'
    sock.sendall(b'BEGIN\r\n')


def blob(serial, destination, path, iface, member, body=None):
    if destination is None:
        message = Gio.DBusMessage.new_method_call(NAME, path, iface, member)
    else:
        message = Gio.DBusMessage.new_method_call(destination, path, iface, member)
    if body is not None:
        message.set_body(body)
    message.set_serial(serial)
    return message.to_blob(Gio.DBusCapabilityFlags.NONE)


def raw_client(*messages, cut=None, read_hello=True):
    """Connects, says Hello, sends the messages (the last cut to `cut` bytes) and closes at once."""
    path = dict(part.split('=', 1) for part in ADDRESS.split(':', 1)[1].split(','))['path']
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    auth(sock)
    data = blob(1, 'org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'Hello')
    data += b''.join(messages[:-1]) + (messages[-1][:cut] if cut is not None else messages[-1])
    sock.sendall(data)
    sock.close()


def managed_objects(conn):
    reply, error = call(conn, 'GetManagedObjects', None, iface='org.freedesktop.DBus.ObjectManager')
    return len(reply.unpack()[0]) if reply else error


def part_cut_off():
    clients = int(os.environ.get('CLIENTS', '5000'))
    print(f'== cut-off: {clients:,} clients that leave mid-message or before their replies')
    daemon = Daemon(f'{WORK}/cut-state')
    conn = connect()
    before_objects = managed_objects(conn)
    before_rss = daemon.rss_kb()
    register = blob(2, None, PATH, IFACE, 'RegisterWindow')
    create = blob(3, None, PATH, IFACE, 'CreateController', GLib.Variant('(s)', ('navigation',)))
    big = blob(4, None, PATH, IFACE, 'ApplicationDeclaration', GLib.Variant('(s)', ('org.example.' + 'a' * 200_000,)))
    claim = blob(5, None, PATH, IFACE, 'BeginGeneratingDeviceOrientationNotifications')
    kinds = [('half of RegisterWindow', (register,), len(register) // 2),
             ('header of a 200 kB call', (big,), 64),
             ('half of a 200 kB call', (big,), len(big) // 2),
             ('a window and a controller, no reply read', (register, create), None),
             ('a claim, no reply read', (claim,), None)]
    start = time.monotonic()
    for n in range(clients):
        _, messages, cut = kinds[n % len(kinds)]
        raw_client(*messages, cut=cut)
    elapsed = time.monotonic() - start
    time.sleep(1)
    after_objects = managed_objects(conn)
    claimed, _ = get(conn, 'DeviceOrientation')
    value, error = get(conn, 'InterfaceOrientation')
    print(f'   {clients:,} clients in {elapsed:.1f} s ({", ".join(kind for kind, _, _ in kinds)}, in turn)')
    print(f'   objects before {before_objects}, after {after_objects}; VmRSS {before_rss:,} kB before, '
          f'{daemon.rss_kb():,} kB after; a Get afterwards: {error or "answered"}')
    check(daemon.alive() and error is None, 'the daemon stopped answering')
    check(after_objects == before_objects, 'objects of departed clients were left behind')
    log = daemon.log_lines()
    print(f'   log lines: {len(log)} {log[:2]}')
    daemon.stop()


def silent_listener():
    path = dict(part.split('=', 1) for part in ADDRESS.split(':', 1)[1].split(','))['path']
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    auth(sock)
    sock.sendall(blob(1, 'org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'Hello')
                 + blob(2, 'org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'AddMatch',
                        GLib.Variant('(s)', ("type='signal'",))))
    return sock


def part_silent():
    seconds, listeners = float(os.environ.get('SECONDS', '30')), int(os.environ.get('LISTENERS', '10'))
    print(f'== silent: {seconds:g} s of rotations while {listeners} clients match every signal and never read')
    daemon = Daemon(f'{WORK}/silent-state')
    sockets = [silent_listener() for _ in range(listeners)]
    time.sleep(0.3)
    driver = connect()
    call(driver, 'BeginGeneratingDeviceOrientationNotifications')
    window, _ = call(driver, 'RegisterWindow')
    window_path = window.unpack()[0]
    view, _ = call(driver, 'CreateController', GLib.Variant('(s)', ('view',)))
    driver.call_sync(NAME, window_path, IFACE + '.Window', 'SetRootController',
                     GLib.Variant('(o)', (view.unpack()[0],)), None, Gio.DBusCallFlags.NONE, 5_000, None)
    gets, errors, stop = [], [], threading.Event()

    def bystander():
        conn = connect()
        while not stop.is_set():
            start = time.monotonic()
            _, error = get(conn, 'InterfaceOrientation', 25_000)
            gets.append((time.monotonic() - start) * 1000)
            if error:
                errors.append(error)
            time.sleep(0.02)

    thread = threading.Thread(target=bystander)
    thread.start()
    answers, calls, end = [], 0, time.monotonic() + seconds
    while time.monotonic() < end:
        for pose in (3, 1, 4, 1):
            start = time.monotonic()
            _, error = call(driver, 'SetDeviceOrientation', GLib.Variant('(u)', (pose,)))
            answers.append((time.monotonic() - start) * 1000)
            calls += 1
            if error:
                errors.append(error)
    stop.set()
    thread.join()
    orientation, error = get(driver, 'InterfaceOrientation')
    gets.sort()
    print(f'   {calls:,} device turns answered, median {statistics.median(answers):.2f} ms, longest {max(answers):.1f} ms')
    print(f'   a bystander\'s Get: {len(gets)} answered, median {statistics.median(gets):.2f} ms, 95th percentile '
          f'{gets[int(len(gets) * 0.95)]:.1f} ms, longest {gets[-1]:.1f} ms; errors {len(errors)} {errors[:1]}')
    print(f'   daemon VmRSS afterwards {daemon.rss_kb():,} kB; its last Get: {error or "answered"}')
    check(not errors and error is None and daemon.alive(), 'a call was not answered')
    for sock in sockets:
        sock.close()
    daemon.stop()


for part in PARTS:
    started = time.monotonic()
    {'full': part_full, 'read-only': part_read_only, 'corrupt': part_corrupt, 'kill': part_kill,
     'cut-off': part_cut_off, 'silent': part_silent}[part]()
    print(f'   ({time.monotonic() - started:.0f} s)')
print(f'faults: {len(broken)} invariant(s) broken')
sys.exit(1 if broken else 0)
