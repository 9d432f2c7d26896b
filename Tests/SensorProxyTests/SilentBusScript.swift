/// A "bus" that accepts connections on a Unix socket and reads, but never writes a byte: a client
/// stalls in authentication, before its `Hello`, as with a system bus that hangs. Run with
/// /usr/bin/python3; argv[1] is the socket's path. Prints "listening", then "accepted" each time a
/// client has connected and sent its first bytes.
let silentBusScript = #"""
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
"""#
