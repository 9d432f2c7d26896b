# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""A GNOME-style client of net.hadess.SensorProxy on the system bus: watches the name, makes a
proxy, claims, reads AccelerometerOrientation and follows PropertiesChanged (as mutter's
meta-orientation-manager.c does). Prints one line per event; reads `release` and `quit` on stdin."""
import os, sys
from gi.repository import Gio, GLib

loop = GLib.MainLoop()
proxy = None
claimed = False

def say(text):
    print(text, flush=True)

def orientation():
    v = proxy.get_cached_property("AccelerometerOrientation")
    return v.unpack() if v is not None else "none"

def properties_changed(p, changed, invalidated):
    changed = changed.unpack()
    if "HasAccelerometer" in changed:
        say("has-accelerometer %s" % changed["HasAccelerometer"])
    if "AccelerometerOrientation" in changed and claimed:
        say("orientation %s" % orientation())

def claim_done(p, result):
    global claimed
    p.call_finish(result)
    claimed = True
    has = p.get_cached_property("HasAccelerometer").unpack()
    say("claimed has=%s orientation %s" % (has, orientation()))

def proxy_ready(source, result):
    global proxy
    proxy = Gio.DBusProxy.new_finish(result)
    proxy.connect("g-properties-changed", properties_changed)
    proxy.call("ClaimAccelerometer", None, Gio.DBusCallFlags.NONE, -1, None, claim_done)

def appeared(connection, name, owner):
    say("appeared")
    Gio.DBusProxy.new(connection, Gio.DBusProxyFlags.NONE, None, "net.hadess.SensorProxy",
                      "/net/hadess/SensorProxy", "net.hadess.SensorProxy", None, proxy_ready)

def vanished(connection, name):
    say("vanished")

def command(fd, condition):
    global claimed
    data = os.read(0, 4096).decode()
    for line in data.splitlines():
        if line == "release":
            proxy.call_sync("ReleaseAccelerometer", None, Gio.DBusCallFlags.NONE, -1, None)
            claimed = False
            say("released")
        elif line == "quit":
            loop.quit()
            return False
    if not data:
        loop.quit()
        return False
    return True

Gio.bus_watch_name(Gio.BusType.SYSTEM, "net.hadess.SensorProxy", Gio.BusNameWatcherFlags.NONE,
                   appeared, vanished)
GLib.io_add_watch(0, GLib.PRIORITY_DEFAULT, GLib.IOCondition.IN | GLib.IOCondition.HUP, command)
loop.run()
say("bye")
