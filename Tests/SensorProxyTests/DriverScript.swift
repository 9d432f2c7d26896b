// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import TestSupport

/// The fake-device driver the tests run with /usr/bin/python3 (it needs gi with UMockdev and Gio).
/// The script is SensorProxyTests/Fixtures/driver.py.
let driverScript = fixtureText("SensorProxyTests/Fixtures/driver.py")
