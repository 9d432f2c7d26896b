// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import SystemCalls
import Orientation

/// One event node of an input device (`/sys/class/input/eventN`), as udev classified it: what the
/// touch hold (P20) opens and what pointer evidence (posture source 4) counts. Listing never opens a node.
struct InputDevice: Equatable {
    /// `event5`.
    let sysname: String
    /// `/dev/input/event5`.
    let node: String
    /// udev's `ID_INPUT_TOUCHSCREEN=1`: a finger on the screen.
    let isTouchscreen: Bool
    /// udev's `ID_INPUT_TABLET=1`: a pen.
    let isPen: Bool
    /// udev's `ID_INPUT_MOUSE=1` or `ID_INPUT_TOUCHPAD=1`.
    let isPointer: Bool
    /// Made by a program through uinput (its device under `/sys/devices/virtual/input/`): a remote
    /// desktop's or a test's pointer, not one on the desk. Bluetooth LE mice, under uhid, are not.
    let isVirtual: Bool
    /// Marked by the administrator not to count as a pointer: `ORIENTATIOND_IGNORE_POINTER=1`, or
    /// KWin's tag `kwin-ignore-tablet-mode`.
    let isIgnoredPointer: Bool
    /// The physical device above the input device (its sysfs path less `input/inputN/eventN`): a
    /// touchscreen's own mouse node shares it with the touchscreen.
    let physical: String

    /// Every event node whose udev properties can be read, by name; `excluded` (a sysname, a device
    /// going away whose files may linger) is passed over.
    static func list(excluding excluded: String? = nil) -> [InputDevice] {
        let directory = Sysfs.inputClass
        return Sysfs.list(directory).sorted().compactMap { sysname in
            guard sysname.hasPrefix("event"), sysname != excluded else { return nil }
            let path = directory + "/" + sysname
            let udev = UdevProperties(devicePath: path)
            let target = FileSystem.linkTarget(path) ?? path
            var parts = target.split(separator: "/", omittingEmptySubsequences: false)
            let virtual = parts.indices.dropLast(2).contains { parts[$0] == "devices" && parts[$0 + 1] == "virtual" && parts[$0 + 2] == "input" }
            if parts.count > 3, parts[parts.count - 3] == "input" { parts.removeLast(3) }
            return InputDevice(sysname: sysname, node: udev.deviceNode(else: "input/" + sysname),
                               isTouchscreen: udev["ID_INPUT_TOUCHSCREEN"] == "1", isPen: udev["ID_INPUT_TABLET"] == "1",
                               isPointer: udev["ID_INPUT_MOUSE"] == "1" || udev["ID_INPUT_TOUCHPAD"] == "1",
                               isVirtual: virtual,
                               isIgnoredPointer: udev["ORIENTATIOND_IGNORE_POINTER"] == "1"
                                   || udev.tags.contains("kwin-ignore-tablet-mode"),
                               physical: parts.joined(separator: "/"))
        }
    }

    /// Whether a finger or pen on it is a hand on the screen (P20).
    var isTouched: Bool { isTouchscreen || isPen }
}

/// What the input devices plugged in say of the posture (posture source 4, Docs/sensors.md, "Posture"): a
/// touchscreen and no pointer is `tablet`, a touchscreen and a pointer `laptop`, no touchscreen nothing
/// (`unknown`). Two readings are the same when they give the same posture: a mouse replaced by another
/// changes nothing.
struct PointerEvidence: Equatable {
    let posture: Posture
    /// The pointers that count, by sysname, for the log.
    let pointers: [String]

    init(_ devices: [InputDevice]) {
        let screens = devices.filter(\.isTouchscreen)
        let screenDevices = Set(screens.map(\.physical))
        pointers = devices.filter {
            $0.isPointer && !$0.isTouchscreen && !$0.isVirtual && !$0.isIgnoredPointer && !screenDevices.contains($0.physical)
        }.map(\.sysname)
        posture = screens.isEmpty ? .unknown : pointers.isEmpty ? .tablet : .laptop
    }

    static func == (a: PointerEvidence, b: PointerEvidence) -> Bool { a.posture == b.posture }

    /// What it says, for the log.
    var description: String {
        switch posture {
        case .tablet: "a touchscreen and no pointer, tablet"
        case .laptop: "a touchscreen and a pointer (\(pointers.joined(separator: ", "))), laptop"
        default: "no touchscreen, the posture is unknown"
        }
    }
}
