// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// An input device with a switch the daemon reads (`SW_TABLET_MODE`, `SW_FRONT_PROXIMITY`).
struct InputSwitchDevice {
    /// `event3`.
    let sysname: String
    let path: String
    /// `/dev/input/event3`.
    let node: String
    /// The switch's number (`InputSwitch.tabletMode`, `InputSwitch.frontProximity`).
    let code: Int

    /// The first input device, by name, with switch `code`, skipping `excluded` (`InputSwitch.discover`).
    static func discover(_ code: Int, excluded: String? = nil) -> InputSwitchDevice? {
        InputSwitch.discover(code, excluded: excluded).map { InputSwitchDevice(sysname: $0.sysname, path: $0.path, node: $0.node, code: code) }
    }
}
