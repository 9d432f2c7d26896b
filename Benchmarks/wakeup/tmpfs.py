#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""What one still wake-up costs outside umockdev (Docs/performance.md, "What one wake-up costs"):
orientationd reading a polled accelerometer whose attributes are plain files of a tmpfs mounted over
/sys in a mount namespace of its own (`unshare -m`), with no preload at all. The kernel's sysfs cannot
be had here (no IIO device), and umockdev's preload wraps every `read` of the daemon in signal-mask
calls of its own; this stand-in shows the calls the daemon itself makes. The daemon makes its
replaced-file watch there too (the tmpfs is not sysfs): nothing replaces the files, so the watch
must cost nothing per wake-up.

Claimed and still: `strace -c -f` for SECONDS, the calls divided by the wake-ups the trace saw (its
polls); then the wake-ups per second (voluntary context switches) over another SECONDS untraced. Needs root (a mount namespace), strace and dbus-daemon.

    tmpfs.py --daemon BIN [--seconds 10] [--json FILE]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

SETUP = r'''
set -e
mount -t tmpfs none /sys
d=/sys/devices/platform/accel/iio:device0
mkdir -p "$d" /sys/bus/iio/devices
ln -s ../../../devices/platform/accel/iio:device0 /sys/bus/iio/devices/iio:device0
echo accel_3d > "$d/name"
echo 0 > "$d/in_accel_x_raw"; echo -256 > "$d/in_accel_y_raw"; echo 0 > "$d/in_accel_z_raw"
echo 0.038320312 > "$d/in_accel_scale"
echo "DEVNAME=iio:device0" > "$d/uevent"
exec "$@"
'''


def voluntary(pid):
    with open('/proc/%d/status' % pid) as f:
        for line in f:
            if line.startswith('voluntary_ctxt_switches'):
                return int(line.split()[1])
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--daemon', required=True)
    ap.add_argument('--seconds', type=float, default=10)
    ap.add_argument('--json')
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix='orientationd-tmpfs-')
    bus = subprocess.Popen(['dbus-daemon', '--session', '--nofork', '--print-address=1',
                            '--address=unix:path=%s/bus' % work], stdout=subprocess.PIPE, text=True)
    address = bus.stdout.readline().strip()
    env = {k: v for k, v in os.environ.items() if k not in ('LD_PRELOAD', 'UMOCKDEV_DIR')}
    daemon = subprocess.Popen(['unshare', '-m', '--propagation', 'private', 'sh', '-c', SETUP, 'sh',
                               os.path.abspath(args.daemon), '--address', address, '--sensor', 'iio',
                               '--state-dir', work + '/state', '--verbose'],
                              env=env, stdout=open(work + '/daemon.log', 'w'), stderr=subprocess.STDOUT)
    holder = None
    try:
        time.sleep(1.5)
        # The claim lasts while its client stays connected.
        holder = subprocess.Popen([sys.executable, '-c', '''
import sys, time
from gi.repository import Gio
c = Gio.DBusConnection.new_for_address_sync(sys.argv[1], Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT |
    Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
c.call_sync('org.orientationd.Orientation1', '/org/orientationd/Orientation1', 'org.orientationd.Orientation1',
    'BeginGeneratingDeviceOrientationNotifications', None, None, 0, 5000, None)
print('claimed', flush=True)
time.sleep(3600)
''', address], stdout=subprocess.PIPE, text=True)
        holder.stdout.readline()
        time.sleep(3)   # still: the poll rate drops to StillPollHz
        # The daemon is the exec'd child of unshare's sh: the same pid.
        pid = daemon.pid
        out = work + '/strace.txt'
        tracer = subprocess.Popen(['strace', '-c', '-f', '-qq', '-o', out, '-p', str(pid)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        time.sleep(args.seconds)
        tracer.send_signal(2)
        tracer.wait()
        counts = {}
        with open(out) as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 5 and parts[-1] not in ('syscall', 'total') and parts[0][0].isdigit():
                    try:
                        counts[parts[-1]] = int(parts[3])
                    except ValueError:
                        pass
        time.sleep(0.5)
        v0 = voluntary(pid)
        time.sleep(args.seconds)
        v1 = voluntary(pid)
        holder.kill()
        wakeups = (v1 - v0) / args.seconds
        # The traced wake-ups are the loop's sleeps the trace saw end: each still wake-up is one poll, and
        # the sleep the trace found under way ends as restart_syscall. (Context switches cannot count
        # them: strace's stops switch the traced process out too. The untraced interval's wake-ups
        # times SECONDS missed the half second the trace ran before it, 5 % too many calls a wake-up.)
        traced_wakeups = max(1, counts.get('poll', 0) + counts.get('ppoll', 0) + counts.get('restart_syscall', 0))
        total = sum(counts.values())
        log = open(work + '/daemon.log').read()
        print('orientationd on a tmpfs stand-in for sysfs (no preload), claimed and still, %g s traced:' % args.seconds)
        print('  system calls per wake-up: %.1f (%s)' % (total / traced_wakeups, ', '.join(
            '%s %.2f' % (k, v / traced_wakeups) for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))))
        print('  wake-ups per second, untraced: %.2f' % wakeups)
        reads = counts.get('read', 0) / traced_wakeups
        print('  of which the replaced-file watch\'s queue (read): %.2f; on the kernel\'s sysfs the watch is not made: %.1f'
              % (reads, total / traced_wakeups - reads))
        print('  the daemon read the device: %s' % ('yes' if 'accelerometer iio:device0' in log else 'NO:\n' + log))
        if args.json:
            with open(args.json, 'w') as f:
                json.dump({'syscalls': counts, 'traced_wakeups': traced_wakeups,
                           'syscalls_per_wakeup': total / traced_wakeups, 'wakeups_per_s': wakeups}, f, indent=1)
    finally:
        daemon.terminate()
        daemon.wait(10)
        bus.terminate()
        if holder and holder.poll() is None:
            holder.kill()


if __name__ == '__main__':
    main()
