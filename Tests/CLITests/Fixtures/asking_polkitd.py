'''polkitd mock that asks for a password: a check is granted only when the caller allows
interactive authorization (as if an agent asked the user and the right password was typed);
otherwise it answers polkit's challenge, "authentication required". AskedFlags lists the flags
of every check.'''
import dbus
from dbusmock import MOCK_IFACE
from dbusmock.templates.polkitd import *  # noqa: F401,F403 (BUS_NAME, MAIN_OBJ, MAIN_IFACE, SYSTEM_BUS)
from dbusmock.templates.polkitd import MAIN_IFACE
from dbusmock.templates.polkitd import load as stock_load


def load(mock, parameters):
    stock_load(mock, parameters)
    mock.asked_flags = []


@dbus.service.method(MAIN_IFACE, in_signature='(sa{sv})sa{ss}us', out_signature='(bba{ss})')
def CheckAuthorization(self, _subject, _action_id, _details, flags, _cancellation_id):
    self.asked_flags.append(flags)
    interactive = bool(flags & 1)
    return (interactive, not interactive, {})


@dbus.service.method(MOCK_IFACE, in_signature='', out_signature='au')
def AskedFlags(self):
    return dbus.Array(self.asked_flags, signature='u')
