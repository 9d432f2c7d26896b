# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""One client flooding orientationd with changes of its own controllers: it builds a window whose
root is a navigation controller and VIEWS view controllers, then sends CALLS no-reply
SetViewControllers alternating all the views and none, then one Get. Prints `sent T` once
everything is written and `done T` when the Get came back (monotonic seconds), then, once no
signal came for 0.5 s, `signals N`: its own controllers' PropertiesChanged it received.

Usage: flood-client.py ADDRESS VIEWS CALLS
"""
import sys
import time

from gi.repository import Gio, GLib

from pipelined import send_without_replies

NAME, PATH, IFACE = 'org.orientationd.Orientation1', '/org/orientationd/Orientation1', 'org.orientationd.Orientation1'
address, view_count, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
bus = Gio.DBusConnection.new_for_address_sync(
    address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)


def call(path, iface, method, args):
    return bus.call_sync(NAME, path, iface, method, args, None, Gio.DBusCallFlags.NONE, 120000, None)


nav = call(PATH, IFACE, 'CreateController', GLib.Variant('(s)', ('navigation',))).unpack()[0]
views = [call(PATH, IFACE, 'CreateController', GLib.Variant('(s)', ('view',))).unpack()[0] for _ in range(view_count)]
window = call(PATH, IFACE, 'RegisterWindow', None).unpack()[0]
call(window, 'org.freedesktop.DBus.Properties', 'Set',
     GLib.Variant('(ssv)', (IFACE + '.Window', 'RootController', GLib.Variant('o', nav))))
# Its controllers' changes come to it alone: counted as they are dispatched.
seen = [0]


def changed(*args):
    if '/controller/' in args[2]:
        seen[0] += 1


bus.signal_subscribe(None, 'org.freedesktop.DBus.Properties', 'PropertiesChanged', None, None,
                     Gio.DBusSignalFlags.NONE, changed)
send_without_replies(bus, NAME, nav, IFACE + '.Controller', 'SetViewControllers',
                     [GLib.Variant('(ao)', (views,)), GLib.Variant('(ao)', ([],))], calls)
call(PATH, 'org.freedesktop.DBus.Properties', 'Get', GLib.Variant('(ss)', (IFACE, 'InterfaceOrientation')))
print('done', time.monotonic(), flush=True)
context, quiet = GLib.MainContext.default(), time.monotonic()
while time.monotonic() - quiet < 0.5:
    if context.iteration(False):
        quiet = time.monotonic()
    else:
        time.sleep(0.01)
print('signals', seen[0], flush=True)
