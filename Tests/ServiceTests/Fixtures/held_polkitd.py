# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

'''polkitd mock whose held checks can be answered out of order and cancelled'''
import dbus
from dbusmock import MOCK_IFACE
from dbusmock.templates.polkitd import *  # noqa: F401,F403 (BUS_NAME, load, SetAllowed, SimulateHang, …)
from dbusmock.templates.polkitd import load as stock_load


def load(mock, parameters):
    stock_load(mock, parameters)
    mock.held = []
    mock.cancelled = []


@dbus.service.method(MAIN_IFACE, in_signature='(sa{sv})sa{ss}us', out_signature='(bba{ss})',
                     async_callbacks=('ok_cb', 'err_cb'))
def CheckAuthorization(self, _subject, action_id, _details, _flags, cancellation_id, ok_cb, err_cb):
    ret = (action_id in self.allowed or self.allow_unknown, False, {})
    if self.simulate_hang:
        self.held.append((cancellation_id, ok_cb, err_cb, ret))
    else:
        ok_cb(ret)


@dbus.service.method(MAIN_IFACE, in_signature='s', out_signature='')
def CancelCheckAuthorization(self, cancellation_id):
    self.cancelled.append(cancellation_id)
    for entry in [e for e in self.held if e[0] == cancellation_id]:
        self.held.remove(entry)
        entry[2](dbus.exceptions.DBusException('the check was cancelled',
                                               name='org.freedesktop.PolicyKit1.Error.Cancelled'))


@dbus.service.method(MOCK_IFACE, in_signature='', out_signature='u')
def ReleaseHeldReversed(self):
    held, self.held = self.held, []
    for (_id, ok_cb, _err_cb, ret) in reversed(held):
        ok_cb(ret)
    return len(held)


@dbus.service.method(MOCK_IFACE, in_signature='', out_signature='u')
def HeldCount(self):
    return len(self.held)


@dbus.service.method(MOCK_IFACE, in_signature='', out_signature='as')
def Cancelled(self):
    return self.cancelled
