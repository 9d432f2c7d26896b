// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import TestSupport

/// The side-by-side driver the tests run with /usr/bin/python3 (it needs gi with UMockdev and Gio).
/// The script is SensorProxyTests/Fixtures/side-by-side.py.
let sideBySideDriverScript = fixtureText("SensorProxyTests/Fixtures/side-by-side.py")
