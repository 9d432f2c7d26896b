# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""Sends orientationd one oversized call, built without holding millions of values here, and prints
the D-Bus error name (`ok` when answered, `local` for an error of this side) and the seconds until
the answer, then the error's message.

Usage: oversized-call.py ADDRESS CASE [OBJECT]
  set-30mib-bytes       Properties.Set of RotationLocked to 30 MiB of bytes (the wrong type)
  million-paths         SetViewControllers on the navigation controller OBJECT with 1,000,000 paths
  30mib-kind            CreateController with a 30 MiB kind
  30mib-interface       Properties.Get with a 30 MiB interface name
  device-30mib-bytes    SetDeviceOrientation with 30 MiB of bytes (the wrong signature)
"""
import sys
import time

from gi.repository import Gio, GLib

NAME, PATH, IFACE = 'org.orientationd.Orientation1', '/org/orientationd/Orientation1', 'org.orientationd.Orientation1'
PROPERTIES = 'org.freedesktop.DBus.Properties'
MIB30 = 30 * 1024 * 1024


def thirty_mib_of_bytes():
    return GLib.Variant.new_from_bytes(GLib.VariantType('ay'), GLib.Bytes(bytes(MIB30)), True)


address, case = sys.argv[1], sys.argv[2]
calls = {
    'set-30mib-bytes': lambda: (PATH, PROPERTIES, 'Set',
                                GLib.Variant('(ssv)', (IFACE, 'RotationLocked', thirty_mib_of_bytes()))),
    'million-paths': lambda: (sys.argv[3], IFACE + '.Controller', 'SetViewControllers',
                              GLib.Variant('(ao)', (['/a'] * 1000000,))),
    '30mib-kind': lambda: (PATH, IFACE, 'CreateController', GLib.Variant('(s)', ('v' * MIB30,))),
    '30mib-interface': lambda: (PATH, PROPERTIES, 'Get', GLib.Variant('(ss)', ('i' * MIB30, 'x'))),
    'device-30mib-bytes': lambda: (PATH, IFACE, 'SetDeviceOrientation', GLib.Variant.new_tuple(thirty_mib_of_bytes())),
}
path, interface, method, args = calls[case]()
bus = Gio.DBusConnection.new_for_address_sync(
    address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
start = time.monotonic()
try:
    bus.call_sync(NAME, path, interface, method, args, None, Gio.DBusCallFlags.NONE, 20000, None)
    print('ok', time.monotonic() - start)
except GLib.Error as e:
    print(Gio.DBusError.get_remote_error(e) or 'local', time.monotonic() - start)
    print(e.message[:300])
