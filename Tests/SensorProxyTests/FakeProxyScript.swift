// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import TestSupport

/// A minimal fake net.hadess.SensorProxy with AccelerometerTilt (newer than the installed 3.0),
/// run with /usr/bin/python3 (gi, Gio). The script is SensorProxyTests/Fixtures/fake-proxy.py.
let fakeProxyScript = fixtureText("SensorProxyTests/Fixtures/fake-proxy.py")
