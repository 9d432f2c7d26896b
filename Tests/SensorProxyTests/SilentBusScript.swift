// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import TestSupport

/// A "bus" that accepts connections on a Unix socket and reads, but never writes a byte: a client
/// stalls in authentication, before its `Hello`, as with a system bus that hangs. Run with
/// /usr/bin/python3; argv[1] is the socket's path. Prints "listening", then "accepted" each time a
/// client has connected and sent its first bytes.
let silentBusScript = fixtureText("SensorProxyTests/Fixtures/silent-bus.py")
