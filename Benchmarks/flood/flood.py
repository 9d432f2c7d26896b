# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""A client that floods the daemon with changes of its own controllers, beside a listener that never
reads and a bystander that keeps asking a property.

Usage: flood.py ADDRESS ROUNDS VIEWS

The flooding client registers a window whose root is a navigation controller, creates VIEWS view
controllers, claims the device orientation and then, ROUNDS times, sets the navigation's view
controllers to all of them, then to none, and turns the device (landscape-left, then portrait):
each round changes every view controller's parent, and rotates the interface.
The listener connects, adds a match for every signal and never reads again. The bystander calls
Properties.Get of InterfaceOrientation every 20 ms from its own thread. Prints "flood MAX_MS" (the
longest any of the flooding client's calls took to be answered), "get MEDIAN_MS P95_MS MAX_MS COUNT"
and "errors N" with the first error, and exits 0.
"""
import os
import socket
import statistics
import sys
import threading
import time

from gi.repository import Gio, GLib

address, rounds, views = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
NAME, PATH, IFACE = 'org.orientationd.Orientation1', '/org/orientationd/Orientation1', 'org.orientationd.Orientation1'
FLAGS = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION


def listener_that_never_reads():
    """A raw connection: authenticates, says Hello, matches every signal, then never reads."""
    path = dict(part.split('=', 1) for part in address.split(':', 1)[1].split(','))['path']
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall(b'\0AUTH EXTERNAL ' + str(os.getuid()).encode().hex().encode() + b'\r\n')
    assert s.recv(4096).startswith(b'OK'), 'authentication refused'
    s.sendall(b'BEGIN\r\n')
    for serial, (member, body) in enumerate([('Hello', None), ('AddMatch', GLib.Variant('(s)', ("type='signal'",)))], 1):
        m = Gio.DBusMessage.new_method_call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', member)
        if body is not None:
            m.set_body(body)
        m.set_serial(serial)
        s.sendall(m.to_blob(Gio.DBusCapabilityFlags.NONE))
    time.sleep(0.3)  # the bus has read both; from now on nothing is read from it
    return s


listener = listener_that_never_reads()
client = Gio.DBusConnection.new_for_address_sync(address, FLAGS, None, None)
errors = []
longest = [0.0]


def call(path, interface, method, body, timeout=25000):
    start = time.monotonic()
    try:
        reply = client.call_sync(NAME, path, interface, method, body, None, Gio.DBusCallFlags.NONE, timeout, None)
    except GLib.Error as error:
        errors.append(error.message)
        reply = None
    longest[0] = max(longest[0], (time.monotonic() - start) * 1000)
    return reply


window = call(PATH, IFACE, 'RegisterWindow', None).unpack()[0]
nav = call(PATH, IFACE, 'CreateController', GLib.Variant('(s)', ('navigation',))).unpack()[0]
for _ in range(views):
    m = Gio.DBusMessage.new_method_call(NAME, PATH, IFACE, 'CreateController')
    m.set_body(GLib.Variant('(s)', ('view',)))
    m.set_flags(Gio.DBusMessageFlags.NO_REPLY_EXPECTED)
    client.send_message(m, Gio.DBusSendMessageFlags.NONE)
call(PATH, 'org.freedesktop.DBus.Peer', 'Ping', None)  # every creation has taken effect
managed = call(PATH, 'org.freedesktop.DBus.ObjectManager', 'GetManagedObjects', None, 120000).unpack()[0]
created = sorted(p for p in managed if '/controller/' in p and p != nav)
call(window, 'org.freedesktop.DBus.Properties', 'Set',
     GLib.Variant('(ssv)', (IFACE + '.Window', 'RootController', GLib.Variant('o', nav))))
call(PATH, IFACE, 'BeginGeneratingDeviceOrientationNotifications', None)
longest[0] = 0.0

gets = []
stop = threading.Event()


def bystander():
    other = Gio.DBusConnection.new_for_address_sync(address, FLAGS, None, None)
    while not stop.is_set():
        start = time.monotonic()
        try:
            other.call_sync(NAME, PATH, 'org.freedesktop.DBus.Properties', 'Get', GLib.Variant('(ss)', (IFACE, 'InterfaceOrientation')),
                            None, Gio.DBusCallFlags.NONE, 25000, None)
            gets.append((time.monotonic() - start) * 1000)
        except GLib.Error as error:
            errors.append('bystander: ' + error.message)
        time.sleep(0.02)


thread = threading.Thread(target=bystander)
thread.start()
for n in range(rounds):
    call(nav, IFACE + '.Controller', 'SetViewControllers', GLib.Variant('(ao)', (created if n % 2 == 0 else [],)))
    call(PATH, IFACE, 'SetDeviceOrientation', GLib.Variant('(u)', (3 if n % 2 == 0 else 1,)))
stop.set()
thread.join()
print('created', len(created), flush=True)
print('flood %.1f' % longest[0], flush=True)
gets.sort()
print('get %.1f %.1f %.1f %d' % (statistics.median(gets), gets[int(len(gets) * 0.95)], gets[-1], len(gets)), flush=True)
print('errors', len(errors), *(errors[:1]), flush=True)
listener.close()
