# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

"""A headless sway (wlroots' headless backend, pixman renderer, no input devices) run as an unprivileged
user, as the follow sway tests run it, and a client of its IPC socket (sway-ipc(7))."""
import json
import os
import pwd
import shutil
import socket
import struct
import subprocess
import tempfile
import time

MAGIC = b'i3-ipc'
RUN_COMMAND, GET_OUTPUTS, SUBSCRIBE = 0, 3, 2
USER = 'swaytest'


class Ipc:
    """One connection to sway's IPC socket."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)

    def send(self, kind, payload=''):
        data = payload.encode()
        self.sock.sendall(MAGIC + struct.pack('=II', len(data), kind) + data)

    def _exactly(self, n):
        buf = b''
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise EOFError('sway closed its IPC socket')
            buf += chunk
        return buf

    def receive(self):
        """(type, decoded JSON payload) of the next message."""
        head = self._exactly(14)
        length, kind = struct.unpack('=II', head[6:])
        return kind, json.loads(self._exactly(length) or b'null')

    def request(self, kind, payload=''):
        self.send(kind, payload)
        return self.receive()[1]

    def transform(self, output):
        for o in self.request(GET_OUTPUTS):
            if o.get('name') == output:
                return o.get('transform')
        return None

    def close(self):
        self.sock.close()


class HeadlessSway:
    """sway with one 800x600 output, HEADLESS-1, in its own XDG_RUNTIME_DIR; as `swaytest` under root
    (sway refuses to run as root)."""

    def __init__(self, log):
        self.runtime = tempfile.mkdtemp(prefix='sway-run-')
        user = None
        if os.getuid() == 0:
            try:
                user = pwd.getpwnam(USER)
            except KeyError:
                subprocess.run(['useradd', '--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent',
                                '--shell', '/usr/sbin/nologin', USER], check=False)
                user = pwd.getpwnam(USER)
        config = os.path.join(self.runtime, 'config')
        with open(config, 'w') as f:
            f.write('output HEADLESS-1 mode 800x600\nxwayland disable\n')
        prefix = []
        if user:
            for path in (self.runtime, config):
                os.chown(path, user.pw_uid, user.pw_gid)
            prefix = ['/usr/bin/setpriv', '--reuid=%d' % user.pw_uid, '--regid=%d' % user.pw_gid, '--clear-groups']
        os.chmod(self.runtime, 0o700)
        env = ['HOME=' + self.runtime, 'XDG_RUNTIME_DIR=' + self.runtime, 'WLR_BACKENDS=headless',
               'WLR_RENDERER=pixman', 'WLR_LIBINPUT_NO_DEVICES=1', 'PATH=/usr/bin:/bin']
        self.log = open(log, 'a')
        self.proc = subprocess.Popen(prefix + ['env', '-i'] + env + ['sway', '-c', config], stdin=subprocess.DEVNULL,
                                     stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 15
        self.socket = self.display = None
        while time.monotonic() < deadline and self.proc.poll() is None:
            names = sorted(os.listdir(self.runtime))
            sock = [n for n in names if n.startswith('sway-ipc.') and n.endswith('.sock')]
            disp = [n for n in names if n.startswith('wayland-') and not n.endswith('.lock')]
            if sock and disp:
                try:
                    Ipc(os.path.join(self.runtime, sock[0])).close()
                    self.socket, self.display = os.path.join(self.runtime, sock[0]), disp[0]
                    break
                except OSError:
                    pass
            time.sleep(0.05)
        if not self.socket:
            self.stop()
            raise RuntimeError('headless sway did not start; its log: ' + log)

    def environment(self, base):
        """`base` with what sway's own children would get."""
        return dict(base, XDG_RUNTIME_DIR=self.runtime, WAYLAND_DISPLAY=self.display, SWAYSOCK=self.socket)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.runtime, ignore_errors=True)
