# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

'''polkitd mock that asks for a password: a check is granted only when the caller allows
interactive authorization (as if an agent asked the user and the right password was typed);
otherwise it answers polkit's challenge, "authentication required". AskedFlags lists the flags
of every check, Agents the subject kind of every authentication agent registered.'''
import dbus
from dbusmock import MOCK_IFACE
from dbusmock.templates.polkitd import *  # noqa: F401,F403 (BUS_NAME, MAIN_OBJ, MAIN_IFACE, SYSTEM_BUS)
from dbusmock.templates.polkitd import MAIN_IFACE
from dbusmock.templates.polkitd import load as stock_load


def load(mock, parameters):
    stock_load(mock, parameters)
    mock.asked_flags = []
    mock.agents = []


@dbus.service.method(MAIN_IFACE, in_signature='(sa{sv})sa{ss}us', out_signature='(bba{ss})')
def CheckAuthorization(self, _subject, _action_id, _details, flags, _cancellation_id):
    self.asked_flags.append(flags)
    interactive = bool(flags & 1)
    return (interactive, not interactive, {})


@dbus.service.method(MOCK_IFACE, in_signature='', out_signature='au')
def AskedFlags(self):
    return dbus.Array(self.asked_flags, signature='u')


@dbus.service.method(MAIN_IFACE, in_signature='(sa{sv})ss', out_signature='')
def RegisterAuthenticationAgent(self, subject, _locale, _object_path):
    self.agents.append(str(subject[0]))


@dbus.service.method(MAIN_IFACE, in_signature='(sa{sv})ssa{sv}', out_signature='')
def RegisterAuthenticationAgentWithOptions(self, subject, _locale, _object_path, _options):
    self.agents.append(str(subject[0]))


@dbus.service.method(MAIN_IFACE, in_signature='(sa{sv})s', out_signature='')
def UnregisterAuthenticationAgent(self, _subject, _object_path):
    pass


@dbus.service.method(MOCK_IFACE, in_signature='', out_signature='as')
def Agents(self):
    return dbus.Array(self.agents, signature='s')
