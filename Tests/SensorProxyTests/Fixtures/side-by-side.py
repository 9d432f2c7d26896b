# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# Fake IIO accelerometers (umockdev) shared by the REAL iio-sensor-proxy and orientationd --sensor iio,
# which the test starts in this testbed (UMOCKDEV_DIR).
# argv: SPEC, JSON: {"devices": [{"attrs": {NAME: VALUE}, "props": {NAME: VALUE}}, ...]}
#   Devices are iio:device0, iio:device1, ... in the order given; each gets the peer's
#   IIO_SENSOR_PROXY_TYPE=iio-poll-accel (its udev rules would set it) unless it says otherwise.
# First line: "ok ROOT", ROOT the testbed's directory.
# stdin commands, one per line; each answered by one stdout line:
#   pose [N] X Y Z      set device N's (default 0) in_accel_{x,y,z}_raw              -> ok
#   set N ATTR VALUE    set one sysfs attribute                                      -> ok
#   prop N KEY VALUE    set one udev property (VALUE may hold blanks)                -> ok
#   uevent N ACTION     send a uevent (add, change, remove) for device N             -> ok
#   read N ATTR         read one sysfs attribute                                     -> value TEXT
#   quit                end                                                          -> bye
import json, sys
import gi
gi.require_version('UMockdev', '1.0')
from gi.repository import UMockdev

spec = json.loads(sys.argv[1])
testbed = UMockdev.Testbed.new()
devices = []
for n, device in enumerate(spec['devices']):
    props = {'NAME': '"IIO Accelerometer"', 'IIO_SENSOR_PROXY_TYPE': 'iio-poll-accel'}
    props.update(device.get('props', {}))
    attrs = {'name': 'IIO Test Accelerometer'}
    attrs.update(device.get('attrs', {}))
    flat = lambda d: [x for kv in d.items() for x in kv]
    devices.append(testbed.add_device('iio', 'iio:device%d' % n, None, flat(attrs), flat(props)))
print('ok ' + testbed.get_root_dir(), flush=True)
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
print('bye', flush=True)
