#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""Device churn (Docs/performance.md): how often unrelated device events wake orientationd
and iio-sensor-proxy, the peer, in one run.

- umockdev: both daemons run on one testbed (one fake accelerometer); DEVICES non-IIO devices
  (subsystem usb, which neither daemon watches) are plugged and unplugged one after the other
  (umockdev's add_device / remove_device: an "add" and a "remove" uevent each, in udev's monitor
  format, delivered to every netlink uevent socket of the testbed's processes; umockdev emulates
  the socket with a Unix datagram socket). Nobody claims.
- kernel: ours alone, in a network namespace of its own (`unshare -n`, needs root), with no
  umockdev: DEVICES network devices (veth pairs) are created and deleted there with `ip`; each
  sends the kernel's own uevents (net and queues) to the namespace's NETLINK_KOBJECT_UEVENT
  sockets. The peer is not run there: it listens to udev's group only, and no udev runs in the
  namespace, so it would hear nothing either way. Skipped, with a note, when `unshare` or `ip` fail.
Wake-ups are voluntary context switches of all threads over the churn (plus a second after it).
A daemon still running and answering afterwards is checked.

Run through run.sh. Prints figures; never fails on a time. --json FILE writes them for Benchmarks/run.sh.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# The testbed goes to the temporary directory, not /dev/shm as the other benchmarks' does:
# umockdev's preload takes every file this process opens under /dev/ for a device node and keeps it
# in a table of 50 that files closed by stdio never leave, so plugging devices into a testbed under
# /dev/shm aborts this process ("fd_map_add(): overflow") after a few dozen. Wake-ups, which this
# benchmark counts, do not depend on where the files are.
os.environ.setdefault('BENCH_TMPDIR', os.environ.get('TMPDIR', '/tmp'))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from sidebyside import arguments, OD, OD_PATH, SideBySide, clean_environment, preload_self, voluntary_switches  # noqa: E402


def umockdev_churn(args):
    sbs = SideBySide(args.daemon, keep=args.keep)
    try:
        procs = {who: sbs.start(who)[0] for who in ('ours', 'peer')}
        sbs.pump(1)
        before = {who: voluntary_switches(p.pid) for who, p in procs.items()}
        t0 = time.monotonic()
        for i in range(args.devices):
            path = sbs.testbed.add_device('usb', 'churn%d' % i, None, ['idVendor', '1d6b', 'idProduct', '0002'],
                                          ['DEVTYPE', 'usb_device', 'PRODUCT', '1d6b/2/0'])
            sbs.testbed.remove_device(path)
        seconds = time.monotonic() - t0
        sbs.pump(1)
        after = {who: voluntary_switches(p.pid) for who, p in procs.items()}
        alive = {who: p.poll() is None for who, p in procs.items()}
        alive['ours'] = alive['ours'] and sbs.get(OD, OD_PATH, OD, 'HasAccelerometer')
        return {'events': 2 * args.devices, 'seconds': seconds,
                'wakeups': {who: after[who] - before[who] for who in procs}, 'alive': alive}
    finally:
        sbs.close()


def kernel_churn(args):
    if os.geteuid() != 0 or not shutil.which('unshare') or not shutil.which('ip'):
        return {'skipped': 'needs root, unshare and ip'}
    sbs = SideBySide(args.daemon, keep=args.keep)
    batch = tempfile.NamedTemporaryFile('w', suffix='.ip', delete=False)
    try:
        p, _ = sbs.start('ours', mock=False, wrapper=['unshare', '-n', '--'])
        sbs.pump(1)
        pairs = max(1, args.devices // 2)
        for i in range(pairs):
            batch.write('link add churn%da type veth peer name churn%db\n' % (i, i))
        for i in range(pairs):
            batch.write('link del churn%da\n' % i)
        batch.close()
        # The daemon's namespace: the unshare process execs the daemon, so its pid is the daemon's.
        listener = subprocess.Popen(['nsenter', '-t', str(p.pid), '-n', sys.executable, '-c', COUNTER],
                                    stdout=subprocess.PIPE, text=True, env=clean_environment())
        listener.stdout.readline()   # bound
        before = voluntary_switches(p.pid)
        t0 = time.monotonic()
        r = subprocess.run(['nsenter', '-t', str(p.pid), '-n', 'ip', '-batch', batch.name],
                           capture_output=True, text=True, env=clean_environment())
        seconds = time.monotonic() - t0
        sbs.pump(1)
        after = voluntary_switches(p.pid)
        listener.send_signal(signal.SIGTERM)
        events = int(listener.stdout.readline() or 0)
        listener.wait()
        if r.returncode != 0:
            return {'skipped': 'ip -batch failed: ' + r.stderr.strip()[:200]}
        alive = p.poll() is None and sbs.get(OD, OD_PATH, OD, 'HasAccelerometer') is not None
        return {'devices': 2 * pairs, 'events': events, 'seconds': seconds, 'wakeups': after - before,
                'alive': alive}
    except (RuntimeError, OSError) as e:
        return {'skipped': str(e)[:200]}
    finally:
        os.unlink(batch.name)
        sbs.close()


# Counts the kernel's uevents in the namespace, to say how many the daemon could have heard.
COUNTER = r'''
import socket, signal, sys, select
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 15)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 24)
s.bind((0, 1))
print("bound", flush=True)
n = 0
stop = []
signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
while not stop:
    try:
        if select.select([s], [], [], 0.2)[0]:
            s.recv(65536)
            n += 1
    except InterruptedError:
        pass
print(n, flush=True)
'''


def main():
    args = arguments(devices=(int, 1000))
    preload_self()

    mock = umockdev_churn(args)
    kernel = kernel_churn(args)
    print('device churn: %d non-IIO devices plugged and unplugged' % args.devices)
    print('%-58s %18s %14s  %s' % ('figure', 'iio-sensor-proxy', 'orientationd', 'target'))
    print('%-58s %18d %14d  %s' % ('wake-ups, umockdev usb devices (%d uevents, %.1f s)' % (mock['events'], mock['seconds']),
                                   mock['wakeups']['peer'], mock['wakeups']['ours'], '0'))
    if 'skipped' in kernel:
        print('kernel uevents in a network namespace: skipped (%s)' % kernel['skipped'])
    else:
        print('%-58s %18s %14d  %s' % ('wake-ups, kernel veth devices (%d uevents, %.1f s)' % (kernel['events'], kernel['seconds']),
                                       'not run', kernel['wakeups'], '0'))
    print('  daemons alive and answering afterwards: umockdev peer %s, ours %s; kernel ours %s'
          % (mock['alive']['peer'], mock['alive']['ours'], kernel.get('alive', '-')))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'umockdev': mock, 'kernel': kernel, 'devices': args.devices}, f, indent=1)


if __name__ == '__main__':
    main()
