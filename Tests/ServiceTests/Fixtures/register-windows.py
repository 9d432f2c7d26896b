# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""Registers COUNT windows with orientationd, one call at a time, and prints each window's path or
the error (its name and message).

Usage: register-windows.py ADDRESS COUNT
"""
import sys

from gi.repository import Gio, GLib

NAME, PATH, IFACE = 'org.orientationd.Orientation1', '/org/orientationd/Orientation1', 'org.orientationd.Orientation1'
bus = Gio.DBusConnection.new_for_address_sync(
    sys.argv[1], Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
for _ in range(int(sys.argv[2])):
    try:
        r = bus.call_sync(NAME, PATH, IFACE, 'RegisterWindow', None, None, Gio.DBusCallFlags.NONE, 5000, None)
        print(r.unpack()[0])
    except GLib.Error as e:
        print(Gio.DBusError.get_remote_error(e), e.message)
