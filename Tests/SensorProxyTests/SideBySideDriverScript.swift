/// The side-by-side driver the tests run with /usr/bin/python3 (it needs gi with UMockdev and Gio).
/// Kept here as text so the test target has no resource files.
let sideBySideDriverScript = #"""
# One umockdev fake accelerometer shared by the REAL iio-sensor-proxy and orientationd --sensor iio,
# both spawned with the testbed's environment (umockdev-wrapper, UMOCKDEV_DIR) on a given bus, used
# as the proxy's system bus and as our daemon's bus.
# argv: ADDRESS WORKDIR DAEMON [RAW_X RAW_Y RAW_Z [MOUNT_MATRIX]]
# First line: "ok DAEMON_PID" once both own their names, or "error ...".
# stdin commands, one per line; each answered by one stdout line:
#   pose X Y Z   set in_accel_{x,y,z}_raw (scale 9.81/256)          -> ok
#   quit         SIGTERM both, wait                                  -> bye DAEMON_STATUS PROXY_STATUS
#                (a status is the exit code, or "died:CODE" when the process had exited before)
import os, signal, subprocess, sys, time
import gi
gi.require_version('UMockdev', '1.0')
from gi.repository import UMockdev, Gio, GLib

address, workdir, daemon_path = sys.argv[1:4]
initial = sys.argv[4:7] if len(sys.argv) >= 7 else ['0', '-256', '0']
mount_matrix = sys.argv[7] if len(sys.argv) >= 8 else None
testbed = UMockdev.Testbed.new()
props = ['NAME', '"IIO Accelerometer"', 'IIO_SENSOR_PROXY_TYPE', 'iio-poll-accel']
if mount_matrix:
    props += ['ACCEL_MOUNT_MATRIX', mount_matrix]
accel = testbed.add_device('iio', 'iio:device0', None,
    ['in_accel_x_raw', initial[0], 'in_accel_y_raw', initial[1], 'in_accel_z_raw', initial[2],
     'in_accel_scale', '0.038320312', 'name', 'IIO Test Accelerometer'], props)
env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=address, UMOCKDEV_DIR=testbed.get_root_dir())
env.pop('DBUS_SESSION_BUS_ADDRESS', None)
bus = Gio.DBusConnection.new_for_address_sync(address,
    Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
procs = {}

def has_owner(name):
    r = bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'NameHasOwner',
                      GLib.Variant('(s)', (name,)), None, Gio.DBusCallFlags.NONE, -1, None)
    return r.unpack()[0]

def spawn(key, argv, name, log):
    p = subprocess.Popen(['umockdev-wrapper'] + argv, env=env, stdin=subprocess.DEVNULL,
                         stdout=open(os.path.join(workdir, log), 'w'), stderr=subprocess.STDOUT)
    procs[key] = p
    deadline = time.time() + 10
    while time.time() < deadline:
        if p.poll() is not None:
            return 'error %s exited with %s (see %s)' % (argv[0], p.returncode, log)
        if has_owner(name):
            return None
        time.sleep(0.02)
    return 'error %s did not take %s in 10 s' % (argv[0], name)

def stop(key):
    p = procs.get(key)
    if p is None:
        return 'none'
    if p.poll() is not None:
        return 'died:%s' % p.returncode
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        return 'hung'
    return str(p.returncode)

error = spawn('proxy', ['/usr/sbin/iio-sensor-proxy', '-v'], 'net.hadess.SensorProxy', 'iio-sensor-proxy.log') \
    or spawn('daemon', [daemon_path, '--address', address, '--sensor', 'iio',
                        '--state-dir', os.path.join(workdir, 'state')], 'org.orientationd.Orientation1', 'daemon.log')
print(error or 'ok %d' % procs['daemon'].pid, flush=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == 'pose':
        # Non-zero axes first: a read between two writes never sees (0, 0, 0).
        for axis, value in sorted(zip('xyz', words[1:4]), key=lambda av: float(av[1]) == 0):
            testbed.set_attribute(accel, 'in_accel_%s_raw' % axis, value)
        answer = 'ok'
    elif words[0] == 'quit':
        break
    else:
        answer = 'error unknown command ' + words[0]
    print(answer, flush=True)
print('bye %s %s' % (stop('daemon'), stop('proxy')), flush=True)
"""#
