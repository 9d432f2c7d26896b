# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""Sends NameOwnerChanged as if the bus had said a client left: addressed to the daemon, then
broadcast. A client cannot make the bus's signals, only look like them.

Usage: spoof-name-owner-changed.py ADDRESS DAEMON_NAME VICTIM_NAME
"""
import sys

from gi.repository import Gio, GLib

address, daemon, victim = sys.argv[1:4]
bus = Gio.DBusConnection.new_for_address_sync(
    address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
args = GLib.Variant('(sss)', (victim, victim, ''))
for destination in (daemon, None):
    bus.emit_signal(destination, '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'NameOwnerChanged', args)
bus.flush_sync(None)
