#!/usr/bin/python3

# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""The scale row's client: ONE process opening CONNECTIONS connections to the bus; on each, WINDOWS
windows and CONTROLLERS controllers, every window with a root (a tab controller holding two
navigation stacks of 3 and one view controller; 10 controllers a window; the rest stay detached),
one window made key per connection. The daemon's VmRSS before and after gives the memory per
controller; its CPU time (schedstat ns, and utime+stime) over ROTATIONS forced rotations
(SetDeviceOrientation alternating 1 and 3, a claim held) gives the cost of a rotation, measured
first on the empty daemon, then at scale.
argv: ADDRESS DAEMON_PID [options]; prints one JSON line."""
import argparse
import json
import os
import time

import gi
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

OD, OD_PATH = "org.orientationd.Orientation1", "/org/orientationd/Orientation1"
WIN_IFACE, CTL_IFACE = OD + ".Window", OD + ".Controller"

ap = argparse.ArgumentParser()
ap.add_argument("address")
ap.add_argument("pid", type=int)
ap.add_argument("--connections", type=int, default=100)
ap.add_argument("--windows", type=int, default=10)
ap.add_argument("--controllers", type=int, default=100)
ap.add_argument("--rotations", type=int, default=200)
args = ap.parse_args()
TICK = os.sysconf("SC_CLK_TCK")


def rss_kb():
    with open("/proc/%d/status" % args.pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])


def cpu():
    """(ns on CPU summed over the daemon's threads, utime+stime in ticks)."""
    ns = 0
    for tid in os.listdir("/proc/%d/task" % args.pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (args.pid, tid)) as f:
                ns += int(f.read().split()[0])
        except FileNotFoundError:
            pass
    with open("/proc/%d/stat" % args.pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return ns, int(fields[11]) + int(fields[12])   # fields 14 and 15 of stat(5)


def connect():
    return Gio.DBusConnection.new_for_address_sync(
        args.address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None, None)


def call(conn, path, iface, method, sig=None, values=None):
    return conn.call_sync(OD, path, iface, method, GLib.Variant(sig, values) if sig else None, None,
                          Gio.DBusCallFlags.NONE, 10000, None).unpack()


def set_prop(conn, path, iface, prop, variant):
    call(conn, path, "org.freedesktop.DBus.Properties", "Set", "(ssv)", (iface, prop, variant))


control = connect()
did_change = [0]
control.signal_subscribe(OD, OD, "DidChange", OD_PATH, None, Gio.DBusSignalFlags.NONE,
                         lambda *a: did_change.__setitem__(0, did_change[0] + 1), None)
call(control, OD_PATH, OD, "BeginGeneratingDeviceOrientationNotifications")


def rotations():
    ctx = GLib.MainContext.default()
    call(control, OD_PATH, OD, "SetDeviceOrientation", "(u)", (1,))
    time.sleep(0.2)
    while ctx.pending():
        ctx.iteration(False)
    did_change[0] = 0
    ns0, t0 = cpu()
    for i in range(args.rotations):
        call(control, OD_PATH, OD, "SetDeviceOrientation", "(u)", (3 if i % 2 == 0 else 1,))
    time.sleep(0.2)   # the daemon's work after its last reply (nothing else wakes it)
    ns1, t1 = cpu()
    while ctx.pending():
        ctx.iteration(False)
    return {"sched": (ns1 - ns0) / 1000 / args.rotations, "ticks": (t1 - t0) * 1e6 / TICK / args.rotations,
            "did_change": did_change[0]}


time.sleep(0.5)
empty = rotations()
time.sleep(0.5)
rss0 = rss_kb()

t_reg = time.monotonic()
conns = []
nwindows = ncontrollers = 0
for c in range(args.connections):
    conn = connect()
    conns.append(conn)
    def create(kind):
        return call(conn, OD_PATH, OD, "CreateController", "(s)", (kind,))[0]
    windows = []
    per_window = 10 if args.controllers >= 10 * args.windows else 0
    for w in range(args.windows):
        window = call(conn, OD_PATH, OD, "RegisterWindow")[0]
        windows.append(window)
        if per_window:
            tab, navs, views = create("tab"), [create("navigation") for _ in range(2)], [create("view") for _ in range(7)]
            call(conn, navs[0], CTL_IFACE, "SetViewControllers", "(ao)", (views[0:3],))
            call(conn, navs[1], CTL_IFACE, "SetViewControllers", "(ao)", (views[3:6],))
            call(conn, tab, CTL_IFACE, "SetViewControllers", "(ao)", ([navs[0], navs[1], views[6]],))
            set_prop(conn, window, WIN_IFACE, "RootController", GLib.Variant("o", tab))
    for _ in range(args.controllers - per_window * args.windows):   # detached, if more than 10 a window
        create("view")
    ncontrollers += args.controllers
    call(conn, windows[-1], WIN_IFACE, "MakeKeyAndVisible")
    nwindows += len(windows)
register_seconds = time.monotonic() - t_reg
time.sleep(1)
rss1 = rss_kb()
loaded = rotations()
print(json.dumps({"connections": len(conns), "windows": nwindows, "controllers": ncontrollers,
                  "register_seconds": register_seconds, "rss0": rss0, "rss1": rss1, "rotations": args.rotations,
                  "empty": empty, "loaded": loaded}))
