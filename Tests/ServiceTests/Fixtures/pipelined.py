# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""The pipelined sender the flood and pipeline clients share."""
import time

from gi.repository import Gio


def send_without_replies(bus, name, path, interface, method, bodies, count):
    """Sends `count` calls of `method` back to back, the bodies taken in turn from `bodies`, each
    with NO_REPLY_EXPECTED so none waits for the one before; then flushes the connection and prints
    `sent T` (monotonic seconds) once everything is written."""
    messages = []
    for i in range(count):
        m = Gio.DBusMessage.new_method_call(name, path, interface, method)
        m.set_body(bodies[i % len(bodies)])
        m.set_flags(Gio.DBusMessageFlags.NO_REPLY_EXPECTED)
        messages.append(m)
    for m in messages:
        bus.send_message(m, Gio.DBusSendMessageFlags.NONE)
    bus.flush_sync(None)
    print('sent', time.monotonic(), flush=True)
