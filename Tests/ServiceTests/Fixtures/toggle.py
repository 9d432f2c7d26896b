# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""A client that toggles a durable setting without waiting for each answer, as a flaky switch or a
script in a loop does.

Usage: toggle.py ADDRESS BUS_NAME PATH INTERFACE METHOD COUNT WINDOW

Calls METHOD(b) on PATH COUNT times, alternating true and false, in bursts of WINDOW calls sent
at once, the next burst once the last is answered (a bus lets a connection wait for a bounded
number of replies), each call with a 25 s timeout, libdbus's default. Prints "answered N errors E" when every call has been answered
or has timed out, then "error NAME MESSAGE" for the first few errors.
"""
import sys

from gi.repository import Gio, GLib

address, name, path, interface, method, count, window = sys.argv[1:8]
count, window = int(count), int(window)
bus = Gio.DBusConnection.new_for_address_sync(
    address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
loop = GLib.MainLoop()
state = {'sent': 0, 'answered': 0, 'errors': []}


def send():
    value = state['sent'] % 2 == 0
    state['sent'] += 1
    bus.call(name, path, interface, method, GLib.Variant('(b)', (value,)), None, Gio.DBusCallFlags.NONE, 25000, None, done)


def done(connection, result):
    try:
        connection.call_finish(result)
        state['answered'] += 1
    except GLib.Error as error:
        state['errors'].append(error.message)
    finished = state['answered'] + len(state['errors'])
    if finished == count:
        loop.quit()
    elif finished == state['sent']:
        burst()


def burst():
    for _ in range(min(window, count - state['sent'])):
        send()


burst()
loop.run()
print('answered', state['answered'], 'errors', len(state['errors']), flush=True)
for message in state['errors'][:5]:
    print('error', message, flush=True)
