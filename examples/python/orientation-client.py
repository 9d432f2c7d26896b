#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""A Python client of orientationd on GDBus (PyGObject, Debian's python3-gi).

It watches the daemon's objects through the object manager, follows DidChange, creates a window and a
view controller, sets their masks through the setter methods (a refused one raises GLib.Error), turns
the device (a privileged call: run it as root, or allow the action in polkit), then closes the window
and destroys the controller, and sees both leave the object manager.

Usage: orientation-client.py [ADDRESS]   (the system bus without one)
It prints what it sees, one event a line, and exits 0 when all went so.
"""
import sys

from gi.repository import Gio, GLib

BUS_NAME = 'org.orientationd.Orientation1'
MANAGER_PATH = '/org/orientationd/Orientation1'
MANAGER = 'org.orientationd.Orientation1'
WINDOW = MANAGER + '.Window'
CONTROLLER = MANAGER + '.Controller'

# UIKit's values. Interface: 3 landscape-right, 4 landscape-left; masks are 1 << value. The device's
# names are crossed: the device turned left (3) shows the interface's landscape-right (3), turned
# right (4) the interface's landscape-left (4). Compare values, never names.
INTERFACE_LANDSCAPE_RIGHT, INTERFACE_LANDSCAPE_LEFT = 3, 4
DEVICE_LANDSCAPE_LEFT, DEVICE_LANDSCAPE_RIGHT = 3, 4
MASK_LANDSCAPE = (1 << INTERFACE_LANDSCAPE_RIGHT) | (1 << INTERFACE_LANDSCAPE_LEFT)

if len(sys.argv) > 1:
    bus = Gio.DBusConnection.new_for_address_sync(
        sys.argv[1], Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None, None)
else:
    bus = Gio.bus_get_sync(Gio.BusType.SYSTEM, None)
context = GLib.MainContext.default()
seen = {'did_change_to': None, 'removed': None}


def wait_for(condition, seconds=5):
    """Runs the main context until `condition()` holds, for at most `seconds`."""
    deadline = GLib.get_monotonic_time() + seconds * 1000000
    while not condition() and GLib.get_monotonic_time() < deadline:
        context.iteration(False)
        GLib.usleep(1000)
    if not condition():
        sys.exit('timed out waiting')


def proxy(path, interface):
    return Gio.DBusProxy.new_sync(bus, Gio.DBusProxyFlags.NONE, None, BUS_NAME, path, interface, None)


def call(target, method, signature=None, *args):
    """Calls `method` on the proxy `target`; its out values, unpacked."""
    body = GLib.Variant('(' + signature + ')', args) if signature else None
    return target.call_sync(method, body, Gio.DBusCallFlags.NONE, 5000, None).unpack()


objects = Gio.DBusObjectManagerClient.new_sync(bus, Gio.DBusObjectManagerClientFlags.DO_NOT_AUTO_START, BUS_NAME,
                                               MANAGER_PATH, None, None, None)


def on_added(_, obj):
    print('object-added', obj.get_object_path(), flush=True)


def on_removed(_, obj):
    print('object-removed', obj.get_object_path(), flush=True)
    seen['removed'] = obj.get_object_path()


objects.connect('object-added', on_added)
objects.connect('object-removed', on_removed)

manager = proxy(MANAGER_PATH, MANAGER)


def on_signal(_, sender, signal, parameters):
    if signal == 'DidChange':
        before, after = parameters.unpack()
        print('did-change', before, after, flush=True)
        seen['did_change_to'] = after


manager.connect('g-signal', on_signal)
# Claim device orientation notifications, so the sensor runs (UIDevice's beginGenerating…).
call(manager, 'BeginGeneratingDeviceOrientationNotifications')
window_path, = call(manager, 'RegisterWindow')
controller_path, = call(manager, 'CreateController', 's', 'view')
print('window', window_path)
print('controller', controller_path)
window, controller = proxy(window_path, WINDOW), proxy(controller_path, CONTROLLER)

# A landscape-only view controller as the window's root: the setter methods report refusals.
call(controller, 'SetSupportedMask', 'u', MASK_LANDSCAPE)
call(window, 'SetRootController', 'o', controller_path)
try:
    call(controller, 'SetSupportedMask', 'u', 1)
    sys.exit('a mask of 1 (no orientation) was accepted')
except GLib.Error as error:
    remote = Gio.DBusError.get_remote_error(error)
    print('refused %s: %s' % (remote, error.message.split(': ', 1)[-1]), flush=True)
# The proxy's cached properties follow PropertiesChanged: the mask set above, not the refused one.
wait_for(lambda: controller.get_cached_property('SupportedMask').unpack() == MASK_LANDSCAPE)
print('supported-mask', controller.get_cached_property('SupportedMask').unpack())

# Turn the device to the other landscape; the interface follows within the window's landscape mask.
left = manager.get_cached_property('InterfaceOrientation').unpack() == INTERFACE_LANDSCAPE_LEFT
call(manager, 'SetDeviceOrientation', 'u', DEVICE_LANDSCAPE_LEFT if left else DEVICE_LANDSCAPE_RIGHT)
wait_for(lambda: seen['did_change_to'] == (INTERFACE_LANDSCAPE_RIGHT if left else INTERFACE_LANDSCAPE_LEFT))
print('interface-orientation', manager.get_cached_property('InterfaceOrientation').unpack())

# The window closed, the controller destroyed: both leave the object manager.
call(window, 'Close')
wait_for(lambda: seen['removed'] == window_path)
print('window-in-object-manager', 'yes' if objects.get_object(window_path) else 'no')
call(controller, 'Destroy')
wait_for(lambda: seen['removed'] == controller_path)
print('done')
