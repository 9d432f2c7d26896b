# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

# A minimal net.hadess.SensorProxy (accelerometer part, with AccelerometerTilt as newer
# iio-sensor-proxy releases have it) on the bus given as argv[1].
# stdin: "set ORIENTATION TILT" -> emits PropertiesChanged, answers "ok"; "claims" -> "claims N".
import sys
from gi.repository import Gio, GLib

XML = '''<node><interface name="net.hadess.SensorProxy">
<property name="HasAccelerometer" type="b" access="read"/>
<property name="AccelerometerOrientation" type="s" access="read"/>
<property name="AccelerometerTilt" type="s" access="read"/>
<method name="ClaimAccelerometer"/><method name="ReleaseAccelerometer"/>
</interface></node>'''
state = {'HasAccelerometer': GLib.Variant('b', True), 'AccelerometerOrientation': GLib.Variant('s', 'normal'),
         'AccelerometerTilt': GLib.Variant('s', 'vertical')}
claims = set()
bus = Gio.DBusConnection.new_for_address_sync(sys.argv[1],
    Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)

def method(conn, sender, path, iface, name, params, invocation):
    (claims.add if name == 'ClaimAccelerometer' else claims.discard)(sender)
    invocation.return_value(None)

def get(conn, sender, path, iface, name):
    return state[name]

bus.register_object('/net/hadess/SensorProxy', Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0], method, get, None)
bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'RequestName',
              GLib.Variant('(su)', ('net.hadess.SensorProxy', 4)), None, Gio.DBusCallFlags.NONE, -1, None)

def on_stdin(channel, condition):
    line = channel.readline()
    if not line:
        loop.quit()
        return False
    words = line.split()
    if words and words[0] == 'set':
        changed = {'AccelerometerOrientation': GLib.Variant('s', words[1]), 'AccelerometerTilt': GLib.Variant('s', words[2])}
        state.update(changed)
        bus.emit_signal(None, '/net/hadess/SensorProxy', 'org.freedesktop.DBus.Properties', 'PropertiesChanged',
                        GLib.Variant('(sa{sv}as)', ('net.hadess.SensorProxy', changed, [])))
        bus.flush_sync(None)
        print('ok', flush=True)
    elif words and words[0] == 'claims':
        print('claims %d' % len(claims), flush=True)
    return True

loop = GLib.MainLoop()
GLib.io_add_watch(GLib.IOChannel.unix_new(0), GLib.IO_IN | GLib.IO_HUP, on_stdin)
print('ok', flush=True)
loop.run()
