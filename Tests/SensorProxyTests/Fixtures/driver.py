# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# A fake IIO accelerometer (umockdev) for the real iio-sensor-proxy, which the test starts in this
# testbed (UMOCKDEV_DIR) on a given bus as its system bus; dbus-monitor records the calls made to it.
# argv: ADDRESS WORKDIR. First line: "ok ROOT", ROOT the testbed's directory, once dbus-monitor is up.
# stdin commands, one per line; each answered by one stdout line:
#   pose X Y Z   set in_accel_{x,y,z}_raw (scale 9.81/256)      -> ok
#   calls        net.hadess.SensorProxy method calls seen so far -> calls MEMBER:SENDER ...
#   quit         stop dbus-monitor                               -> bye
import os, subprocess, sys, time
import gi
gi.require_version('UMockdev', '1.0')
from gi.repository import UMockdev

address, workdir = sys.argv[1], sys.argv[2]
testbed = UMockdev.Testbed.new()
accel = testbed.add_device('iio', 'iio-accel', None,
    ['in_accel_x_raw', '0', 'in_accel_y_raw', '-256', 'in_accel_z_raw', '0',
     'in_accel_scale', '0.038320312', 'name', 'IIO Test Accelerometer'],
    ['NAME', '"IIO Accelerometer"', 'IIO_SENSOR_PROXY_TYPE', 'iio-poll-accel'])
monitor_log = open(os.path.join(workdir, 'monitor.log'), 'w')
monitor = subprocess.Popen(['dbus-monitor', '--address', address, '--monitor',
                            "type='method_call',interface='net.hadess.SensorProxy'"],
                           stdout=monitor_log, stderr=subprocess.DEVNULL)
def calls():
    monitor_log.flush()
    time.sleep(0.2)  # let dbus-monitor catch up
    out = []
    with open(monitor_log.name) as f:
        for line in f:
            if line.startswith('method call') and 'interface=net.hadess.SensorProxy;' in line:
                fields = dict(p.split('=', 1) for p in line.replace(';', '').split() if '=' in p)
                out.append('%s:%s' % (fields.get('member'), fields.get('sender')))
    return 'calls ' + ' '.join(out)

time.sleep(0.3)  # dbus-monitor is up
print('ok ' + testbed.get_root_dir(), flush=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == 'pose':
        # Non-zero axes first: a read between two writes never sees (0, 0, 0).
        for axis, value in sorted(zip('xyz', words[1:4]), key=lambda av: float(av[1]) == 0):
            testbed.set_attribute(accel, 'in_accel_%s_raw' % axis, value)
        answer = 'ok'
    elif words[0] == 'calls':
        answer = calls()
    elif words[0] == 'quit':
        break
    else:
        answer = 'error unknown command ' + words[0]
    print(answer, flush=True)
monitor.terminate()
monitor.wait()
print('bye', flush=True)
