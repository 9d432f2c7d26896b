# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""A client that pipelines its calls, as one creating its views at start does.

Usage: pipeline.py ADDRESS BUS_NAME PATH INTERFACE METHOD SIGNATURE ARGUMENT COUNT FINAL

Connects, makes one awaited call (Properties.Get of the interface's InterfaceOrientation, so the
daemon has asked the bus who it is), prints "ready NAME" (its unique name), and waits for SIGUSR1. Then sends COUNT calls
of METHOD on PATH with one argument of SIGNATURE (ARGUMENT is a Python expression, e.g. "'view'" or
"['/a/%d' % i for i in range(9)]") back to back without waiting for replies (NO_REPLY_EXPECTED), and
then one call whose answer it waits for: the same call when FINAL is "call", Properties.Get of the
interface's InterfaceOrientation when FINAL is "get", org.freedesktop.DBus.Peer.Ping when FINAL is
"ping". With COUNT negative, the -COUNT calls all want
replies instead (sent at once, answered in any order) and there is no final call. Prints "sent T"
(monotonic seconds) once everything is written, and each answer as "reply VALUE" or "error NAME
MESSAGE". Then stays connected, so that what it created stays, until a second SIGUSR1 (or SIGTERM).
"""
import signal
import sys
import time

from gi.repository import Gio, GLib

from pipelined import send_without_replies

address, name, path, interface, method, signature, argument, count, final = sys.argv[1:10]
count = int(count)
body = GLib.Variant('(' + signature + ')', (eval(argument),))
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
bus = Gio.DBusConnection.new_for_address_sync(
    address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
bus.call_sync(name, path, 'org.freedesktop.DBus.Properties', 'Get', GLib.Variant('(ss)', (interface, 'InterfaceOrientation')),
              None, Gio.DBusCallFlags.NONE, 5000, None)
print('ready', bus.get_unique_name(), flush=True)
signal.sigwait({signal.SIGUSR1})


def answer(finish):
    """Prints the answer `finish()` gives."""
    try:
        reply = finish()
        print('reply', reply.unpack()[0] if reply.n_children() else '', flush=True)
    except GLib.Error as error:
        remote = Gio.DBusError.get_remote_error(error)
        Gio.DBusError.strip_remote_error(error)
        print('error', remote, error.message, flush=True)


if count >= 0:
    send_without_replies(bus, name, path, interface, method, [body], count)
    if final == 'ping':
        answer(lambda: bus.call_sync(name, path, 'org.freedesktop.DBus.Peer', 'Ping', None, None,
                                     Gio.DBusCallFlags.NONE, 120000, None))
    elif final == 'get':
        answer(lambda: bus.call_sync(name, path, 'org.freedesktop.DBus.Properties', 'Get',
                                     GLib.Variant('(ss)', (interface, 'InterfaceOrientation')), None,
                                     Gio.DBusCallFlags.NONE, 120000, None))
    else:
        answer(lambda: bus.call_sync(name, path, interface, method, body, None, Gio.DBusCallFlags.NONE, 120000, None))
else:
    loop = GLib.MainLoop()
    left = [-count]

    def done(connection, result):
        answer(lambda: connection.call_finish(result))
        left[0] -= 1
        if left[0] == 0:
            loop.quit()

    for _ in range(-count):
        bus.call(name, path, interface, method, body, None, Gio.DBusCallFlags.NONE, 120000, None, done)
    bus.flush_sync(None)
    print('sent', time.monotonic(), flush=True)
    loop.run()

signal.sigwait({signal.SIGUSR1})
