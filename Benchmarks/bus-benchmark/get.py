#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""One Python GIO client: Properties.Get of one property in a loop for SECONDS; prints calls per second.
argv: ADDRESS SECONDS DEST PATH INTERFACE PROPERTY"""
import sys
import time

import gi
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

address, seconds, dest, path, iface, prop = sys.argv[1], float(sys.argv[2]), *sys.argv[3:7]
flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
conn = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
args = GLib.Variant("(ss)", (iface, prop))


def get():
    return conn.call_sync(dest, path, "org.freedesktop.DBus.Properties", "Get", args, None,
                          Gio.DBusCallFlags.NONE, -1, None)


for _ in range(200):  # warm up
    get()
n, start = 0, time.monotonic()
deadline = start + seconds
while time.monotonic() < deadline:
    for _ in range(100):
        get()
    n += 100
print(f"{n / (time.monotonic() - start):.0f}")
