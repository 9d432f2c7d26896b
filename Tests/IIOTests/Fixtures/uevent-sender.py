# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

import socket, struct, sys
fmt, to, where, sysname = sys.argv[1:5]
devpath = '/devices/forged/' + sysname
props = ['ACTION=add', 'DEVPATH=' + devpath, 'SUBSYSTEM=iio', 'SEQNUM=4242']
body = b''.join(p.encode() + b'\0' for p in props)
def murmur2(data):
    m, h = 0x5bd1e995, len(data)
    i = 0
    while len(data) - i >= 4:
        k = struct.unpack('<I', data[i:i + 4])[0]
        k = (k * m) & 0xffffffff; k ^= k >> 24; k = (k * m) & 0xffffffff
        h = (h * m) & 0xffffffff; h ^= k
        i += 4
    rest = data[i:]
    if len(rest) >= 3: h ^= rest[2] << 16
    if len(rest) >= 2: h ^= rest[1] << 8
    if len(rest) >= 1: h ^= rest[0]; h = (h * m) & 0xffffffff
    h ^= h >> 13; h = (h * m) & 0xffffffff; h ^= h >> 15
    return h
if fmt == 'udev':
    message = b'libudev\0' + struct.pack('>I', 0xfeedcafe) + struct.pack('<III', 40, 40, len(body)) \
        + struct.pack('>IIII', murmur2(b'iio'), 0, 0, 0) + body
else:
    message = ('add@' + devpath).encode() + b'\0' + body
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 15)
s.bind((0, 0))
s.sendto(message, (int(where), 0) if to == 'unicast' else (0, int(where)))
