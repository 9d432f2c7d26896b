# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

import os, signal, sys
import gi
gi.require_version('Gtk', '3.0')
from gi.repository import Gio, GLib, Gtk

address, title, mask = sys.argv[1], sys.argv[2], int(sys.argv[3])
# An application id (the Wayland app_id, from the program name); with mask 0 the client is an
# unmodified application: it registers no window, and only its desktop file can declare anything.
if len(sys.argv) > 4:
    GLib.set_prgname(sys.argv[4])
BUS, MANAGER = 'org.orientationd.Orientation1', '/org/orientationd/Orientation1'
bus = Gio.DBusConnection.new_for_address_sync(address,
    Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)

def call(path, interface, method, args=None):
    return bus.call_sync(BUS, path, interface, method, args, None, Gio.DBusCallFlags.NONE, 5000, None)

window_path = '/'
if mask:
    window_path = call(MANAGER, BUS, 'RegisterWindow').unpack()[0]
    call(window_path, 'org.freedesktop.DBus.Properties', 'Set',
         GLib.Variant('(ssv)', (BUS + '.Window', 'DelegateMask', GLib.Variant('u', mask))))

window = Gtk.Window(title=title)
window.set_default_size(320, 200)
announced = []

def on_map(*_):
    if not announced:
        announced.append(True)
        print('ready', os.getpid(), window_path, flush=True)
    return False

def make_key():
    try:
        call(window_path, BUS + '.Window', 'MakeKeyAndVisible')
        print('ok', flush=True)
    except GLib.Error as e:
        name = Gio.DBusError.get_remote_error(e) or 'unknown'
        Gio.DBusError.strip_remote_error(e)
        print('error', name, e.message, flush=True)
    return True

window.connect('map-event', on_map)
window.connect('destroy', Gtk.main_quit)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, make_key)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, lambda: Gtk.main_quit() or False)
window.show_all()
Gtk.main()
