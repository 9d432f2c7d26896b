// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import Orientation
import OrientationAPI
import Configuration

/// The tables the manager, the windows and the controllers are exported with, each built once, and
/// the values announcements read through their getters.
struct ExportedTables: AnnouncedValues {
    let manager: Interface
    let window: Interface
    let controller: Interface
    /// The screen's size held upright, for `ScreenBounds`; nil when not configured.
    let portraitSize: ScreenSize?
    /// Who owns a window or a controller, as the policy says.
    let owners: (AnnouncedObject) -> String?
    /// The table another part of the daemon exported an object with (`ObjectServer.interfaces(at:)`).
    let exported: (_ path: String, _ interface: String) -> Interface?

    func table(of object: AnnouncedObject) -> Interface? {
        switch object {
        case .manager: manager
        case .window: window
        case .controller: controller
        case .exported(let path, let interface): exported(path, interface)
        }
    }

    func value(_ property: String, of object: AnnouncedObject) -> Value? {
        table(of: object)?.property(named: property)?.get(object.key)
    }

    func properties(of object: AnnouncedObject) -> [(String, Value)] {
        table(of: object)?.properties.map { ($0.name, $0.get(object.key)) } ?? []
    }

    func owner(of object: AnnouncedObject) -> String? { owners(object) }

    func screenBounds(_ orientation: InterfaceOrientation) -> Value {
        Self.screenBounds(orientation, portraitSize)
    }

    /// `ScreenBounds`: the size as the interface shows it, (0, 0) when no size is configured.
    static func screenBounds(_ orientation: InterfaceOrientation, _ size: ScreenSize?) -> Value {
        guard let size else { return .structure([.uint32(0), .uint32(0)]) }
        return orientation.isLandscape
            ? .structure([.uint32(size.height), .uint32(size.width)])
            : .structure([.uint32(size.width), .uint32(size.height)])
    }

    /// `ApplicationOrientations`: every override, app id → mask, in the ids' order.
    static func applicationOrientations(_ overrides: [ApplicationID: OrientationMask]) -> Value {
        .dict(keySignature: "s", valueSignature: "u",
              overrides.sorted { $0.key.rawValue < $1.key.rawValue }.map { (.string($0.key.rawValue), .uint32($0.value.rawValue)) })
    }
}
