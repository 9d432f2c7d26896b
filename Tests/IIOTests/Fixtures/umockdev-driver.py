# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

import sys, os, json, struct
import gi
gi.require_version('UMockdev', '1.0')
from gi.repository import UMockdev
tb = UMockdev.Testbed.new()
def reply(value):
    sys.stdout.write(json.dumps(value) + "\n")
    sys.stdout.flush()
reply({"root": tb.get_root_dir()})
handlers = []
IIO_GET_EVENT_FD_IOCTL = 0x80046990
def event_fd_handler(fds):
    """Answers IIO_GET_EVENT_FD_IOCTL with the next of fds, then EBUSY; declines other requests."""
    def on_ioctl(base, client):
        if client.get_request() != IIO_GET_EVENT_FD_IOCTL:
            return False
        if not fds:
            client.complete(-1, 16)
            return True
        client.get_arg().resolve(0, 4).update(0, list(struct.pack('i', fds.pop(0))))
        client.complete(0, 0)
        return True
    h = UMockdev.IoctlBase()
    h.connect('handle-ioctl', on_ioctl)
    handlers.append(h)
    return h
EVIOCSMASK = 0x40104593
EVIOCGRAB = 0x40044590
def evdev_recorder(node):
    """Stands for the kernel's evdev on a touchscreen node: records every ioctl and read the daemon
    makes, in order; answers EVIOCSMASK (keeping the bits asked for), EVIOCGRAB and EVIOCGKEY (from
    the state set with touch_state); lets reads through to the node's own queue."""
    state = {"log": [], "keys": bytes(96)}
    def on_ioctl(base, client):
        request = client.get_request()
        if request == EVIOCSMASK:
            mask = client.get_arg().resolve(0, 16)
            kind, size = struct.unpack('II', bytes(mask.retrieve())[:8])
            codes = bytes(mask.resolve(8, size).retrieve()) if size else b''
            bits = [i for i in range(len(codes) * 8) if codes[i // 8] >> (i % 8) & 1]
            state["log"].append({"call": "EVIOCSMASK", "type": kind, "bits": bits})
            client.complete(0, 0)
            return True
        if request == EVIOCGRAB:
            state["log"].append({"call": "EVIOCGRAB"})
            client.complete(0, 0)
            return True
        if (request & 0xffff) == 0x4518:
            length = (request >> 16) & 0x3fff
            state["log"].append({"call": "EVIOCGKEY"})
            client.get_arg().resolve(0, length).update(0, list(state["keys"][:length].ljust(length, b'\0')))
            client.complete(length, 0)
            return True
        state["log"].append({"call": "ioctl", "request": request})
        return False
    def on_read(base, client):
        if not state["log"] or state["log"][-1].get("call") != "read":
            state["log"].append({"call": "read"})
        return False
    h = UMockdev.IoctlBase()
    h.connect('handle-ioctl', on_ioctl)
    h.connect('handle-read', on_read)
    handlers.append(h)
    recorders[node] = state
    return h
recorders = {}
for line in sys.stdin:
    c = json.loads(line)
    op = c["op"]
    try:
        if op == "add":
            attrs, props = [], []
            for k, v in c.get("attrs", {}).items(): attrs += [k, v]
            for k, v in c.get("props", {}).items(): props += [k, v]
            reply({"path": tb.add_device(c.get("subsystem", "iio"), c["name"], c.get("parent"), attrs, props)})
        elif op == "addstr":
            tb.add_from_string(c["text"])
            reply({})
        elif op == "set":
            tb.set_attribute(c["path"], c["attr"], c["value"])
            reply({})
        elif op == "symlink":
            path = tb.get_root_dir() + c["path"]
            os.remove(path) if os.path.lexists(path) else None
            os.symlink(c["target"], path)
            reply({})
        elif op == "set_property":
            tb.set_property(c["path"], c["name"], c["value"])
            reply({})
        elif op == "uevent":
            tb.uevent(c["path"], c["action"])
            reply({})
        elif op == "remove":
            tb.remove_device(c["path"])
            reply({})
        elif op == "load_ioctl":
            tb.load_ioctl(c["node"], c["file"])
            reply({})
        elif op == "event_fd":
            tb.attach_ioctl(c["node"], event_fd_handler(list(c["fds"])))
            reply({})
        elif op == "evdev_recorder":
            tb.attach_ioctl(c["node"], evdev_recorder(c["node"]))
            reply({})
        elif op == "evdev_log":
            reply({"log": recorders[c["node"]]["log"]})
        elif op == "evdev_keys":
            keys = bytearray(96)
            for bit in c["bits"]: keys[bit // 8] |= 1 << (bit % 8)
            recorders[c["node"]]["keys"] = bytes(keys)
            reply({})
        elif op == "write_dev":
            os.write(tb.get_dev_fd(c["node"]), bytes.fromhex(c["hex"]))
            reply({})
        elif op == "read":
            with open(tb.get_root_dir() + c["path"]) as f:
                reply({"value": f.read()})
        else:
            reply({"error": "unknown op " + op})
    except Exception as e:
        reply({"error": repr(e)})
