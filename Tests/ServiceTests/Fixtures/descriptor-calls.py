# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""Sends CALLS no-reply calls to orientationd each carrying 16 file descriptors, then one that
wants a reply, and counts the daemon's open descriptors meanwhile. Prints the reply's error name
(or `ok`), its message, and the most descriptors the daemon held open beyond those before.

Usage: descriptor-calls.py ADDRESS DAEMON_PID CALLS
"""
import os
import sys

from gi.repository import Gio

NAME, PATH, IFACE = 'org.orientationd.Orientation1', '/org/orientationd/Orientation1', 'org.orientationd.Orientation1'
address, daemon, calls = sys.argv[1], sys.argv[2], int(sys.argv[3])
bus = Gio.DBusConnection.new_for_address_sync(
    address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)


def call(no_reply):
    m = Gio.DBusMessage.new_method_call(NAME, PATH, IFACE, 'AttemptRotationToDeviceOrientation')
    fds = Gio.UnixFDList.new()
    for _ in range(16):
        fd = os.open('/dev/null', os.O_RDONLY)
        fds.append(fd)
        os.close(fd)
    m.set_unix_fd_list(fds)
    if no_reply:
        m.set_flags(Gio.DBusMessageFlags.NO_REPLY_EXPECTED)
        bus.send_message(m, Gio.DBusSendMessageFlags.NONE)
        return None
    return bus.send_message_with_reply_sync(m, Gio.DBusSendMessageFlags.NONE, 10000, None)[0]


def open_descriptors():
    return len(os.listdir('/proc/%s/fd' % daemon))


before = open_descriptors()
most = 0
for i in range(calls):
    call(True)
    if i % 10 == 0:
        most = max(most, open_descriptors())
reply = call(False)
print(reply.get_error_name() if reply.get_message_type() == Gio.DBusMessageType.ERROR else 'ok')
print(reply.get_body().unpack()[0] if reply.get_body() else '')
print(most - before)
