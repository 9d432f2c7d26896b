// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// A presentation checked before it is made: `presenter` would present `presented`.
struct PendingPresentation {
    let presenter: ControllerID
    let presented: ControllerID
}
