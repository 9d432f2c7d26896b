# Fake IIO accelerometers (umockdev) shared by the REAL iio-sensor-proxy and orientationd --sensor iio,
# both spawned with the testbed's environment (umockdev-wrapper, UMOCKDEV_DIR) on a given bus, used
# as the proxy's system bus and as our daemon's bus.
# argv: ADDRESS WORKDIR DAEMON SPEC
#   SPEC is JSON: {"devices": [{"attrs": {NAME: VALUE}, "props": {NAME: VALUE}}, ...],
#                  "daemon": [EXTRA ARGUMENTS]}
#   Devices are iio:device0, iio:device1, ... in the order given; each gets the peer's
#   IIO_SENSOR_PROXY_TYPE=iio-poll-accel (its udev rules would set it) unless it says otherwise.
# First line: "ok DAEMON_PID" once both own their names, or "error ...".
# stdin commands, one per line; each answered by one stdout line:
#   pose [N] X Y Z      set device N's (default 0) in_accel_{x,y,z}_raw              -> ok
#   set N ATTR VALUE    set one sysfs attribute                                      -> ok
#   prop N KEY VALUE    set one udev property (VALUE may hold blanks)                -> ok
#   uevent N ACTION     send a uevent (add, change, remove) for device N             -> ok
#   read N ATTR         read one sysfs attribute                                     -> value TEXT
#   quit                SIGTERM both, wait                                           -> bye DAEMON_STATUS PROXY_STATUS
#                       (a status is the exit code, or "died:CODE" when the process had exited before)
import json, os, signal, subprocess, sys, time
import gi
gi.require_version('UMockdev', '1.0')
from gi.repository import UMockdev, Gio, GLib

address, workdir, daemon_path, spec = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
testbed = UMockdev.Testbed.new()
devices = []
for n, device in enumerate(spec['devices']):
    props = {'NAME': '"IIO Accelerometer"', 'IIO_SENSOR_PROXY_TYPE': 'iio-poll-accel'}
    props.update(device.get('props', {}))
    attrs = {'name': 'IIO Test Accelerometer'}
    attrs.update(device.get('attrs', {}))
    flat = lambda d: [x for kv in d.items() for x in kv]
    devices.append(testbed.add_device('iio', 'iio:device%d' % n, None, flat(attrs), flat(props)))
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
                        '--state-dir', os.path.join(workdir, 'state')] + spec.get('daemon', []),
             'org.orientationd.Orientation1', 'daemon.log')
print(error or 'ok %d' % procs['daemon'].pid, flush=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    try:
        if words[0] == 'pose':
            n, values = (int(words[1]), words[2:5]) if len(words) == 5 else (0, words[1:4])
            # Non-zero axes first: a read between two writes never sees (0, 0, 0).
            for axis, value in sorted(zip('xyz', values), key=lambda av: float(av[1]) == 0):
                testbed.set_attribute(devices[n], 'in_accel_%s_raw' % axis, value)
            answer = 'ok'
        elif words[0] == 'set':
            testbed.set_attribute(devices[int(words[1])], words[2], words[3])
            answer = 'ok'
        elif words[0] == 'prop':
            testbed.set_property(devices[int(words[1])], words[2], line.split(None, 3)[3].rstrip('\n'))
            answer = 'ok'
        elif words[0] == 'uevent':
            testbed.uevent(devices[int(words[1])], words[2])
            answer = 'ok'
        elif words[0] == 'read':
            with open(testbed.get_root_dir() + devices[int(words[1])] + '/' + words[2]) as f:
                answer = 'value ' + f.read().strip()
        elif words[0] == 'quit':
            break
        else:
            answer = 'error unknown command ' + words[0]
    except Exception as e:
        answer = 'error ' + repr(e)
    print(answer, flush=True)
print('bye %s %s' % (stop('daemon'), stop('proxy')), flush=True)
