# Fake IIO accelerometer (umockdev) + the real iio-sensor-proxy on a given bus as its system bus.
# stdin commands, one per line; each answered by one stdout line:
#   pose X Y Z   set in_accel_{x,y,z}_raw (scale 9.81/256)      -> ok
#   kill         stop iio-sensor-proxy (SIGTERM) and wait        -> ok
#   start        start iio-sensor-proxy, wait for its name       -> ok | error ...
#   calls        net.hadess.SensorProxy method calls seen so far -> calls MEMBER:SENDER ...
#   quit         stop everything                                 -> bye
import os, subprocess, sys, time
import gi
gi.require_version('UMockdev', '1.0')
from gi.repository import UMockdev, Gio, GLib

address, workdir = sys.argv[1], sys.argv[2]
start_now = '--no-start' not in sys.argv
testbed = UMockdev.Testbed.new()
accel = testbed.add_device('iio', 'iio-accel', None,
    ['in_accel_x_raw', '0', 'in_accel_y_raw', '-256', 'in_accel_z_raw', '0',
     'in_accel_scale', '0.038320312', 'name', 'IIO Test Accelerometer'],
    ['NAME', '"IIO Accelerometer"', 'IIO_SENSOR_PROXY_TYPE', 'iio-poll-accel'])
env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=address, UMOCKDEV_DIR=testbed.get_root_dir(),
           G_MESSAGES_DEBUG='all')
env.pop('DBUS_SESSION_BUS_ADDRESS', None)
bus = Gio.DBusConnection.new_for_address_sync(address,
    Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
monitor_log = open(os.path.join(workdir, 'monitor.log'), 'w')
monitor = subprocess.Popen(['dbus-monitor', '--address', address, '--monitor',
                            "type='method_call',interface='net.hadess.SensorProxy'"],
                           stdout=monitor_log, stderr=subprocess.DEVNULL)
proxy = None
proxy_log = open(os.path.join(workdir, 'iio-sensor-proxy.log'), 'a')

def has_owner():
    r = bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'NameHasOwner',
                      GLib.Variant('(s)', ('net.hadess.SensorProxy',)), None, Gio.DBusCallFlags.NONE, -1, None)
    return r.unpack()[0]

def start():
    global proxy
    proxy = subprocess.Popen(['umockdev-wrapper', '/usr/sbin/iio-sensor-proxy', '-v'], env=env,
                             stdout=proxy_log, stderr=subprocess.STDOUT)
    deadline = time.time() + 10
    while time.time() < deadline:
        if proxy.poll() is not None:
            return 'error iio-sensor-proxy exited with %s (see %s)' % (proxy.returncode, proxy_log.name)
        if has_owner():
            return 'ok'
        time.sleep(0.02)
    return 'error iio-sensor-proxy did not take its name in 10 s'

def kill():
    global proxy
    if proxy:
        proxy.terminate()
        proxy.wait()
        proxy = None
    while has_owner():
        time.sleep(0.01)
    return 'ok'

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
print(start() if start_now else 'ok', flush=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == 'pose':
        # Non-zero axes first: a read between two writes never sees (0, 0, 0).
        for axis, value in sorted(zip('xyz', words[1:4]), key=lambda av: float(av[1]) == 0):
            testbed.set_attribute(accel, 'in_accel_%s_raw' % axis, value)
        answer = 'ok'
    elif words[0] == 'kill':
        answer = kill()
    elif words[0] == 'start':
        answer = start()
    elif words[0] == 'calls':
        answer = calls()
    elif words[0] == 'quit':
        break
    else:
        answer = 'error unknown command ' + words[0]
    print(answer, flush=True)
kill()
monitor.terminate()
monitor.wait()
print('bye', flush=True)
