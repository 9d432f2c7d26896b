// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import TestSupport

/// A real Wayland application that is also an orientationd client, run with /usr/bin/python3
/// (gi: Gtk 3 with `GDK_BACKEND=wayland`, Gio for the bus), so the compositor and the daemon see
/// the same process. The script is CLITests/Fixtures/focus-client.py.
///
/// argv: BUS-ADDRESS TITLE DELEGATE-MASK. It registers one orientationd window with that
/// `DelegateMask`, then maps a GTK window titled TITLE and prints `ready PID WINDOW-PATH`.
/// SIGUSR1 calls `MakeKeyAndVisible` and prints `ok` or `error NAME MESSAGE`; SIGTERM ends it.
let focusClientScript = fixtureText("CLITests/Fixtures/focus-client.py")
