# SPDX-FileCopyrightText: 2026 orientationd maintainers
#
# SPDX-License-Identifier: MIT

import os, socket, sys
path = sys.argv[1]
if os.path.exists(path):
    os.unlink(path)
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path)
server.listen(16)
print("listening", flush=True)
clients = []
while True:
    client, _ = server.accept()
    clients.append(client)
    if client.recv(4096):
        print("accepted", flush=True)
