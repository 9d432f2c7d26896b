// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import Orientation
import DesktopSession

/// How a property's value is shown: names for people, names plus raw numbers for scripts.
///
/// JSON scheme: `"Name": <shown value>` (an orientation's name, a mask's array of
/// names, a bool, a number, a string or a `WxH` string) and, for values coded as
/// numbers on the wire (orientations, masks, ScreenBounds), `"NameValue": <raw>`
/// (the number, or `[width, height]`).
enum PropertyFormat {
    /// The manager's properties in the contract's order; `status` prints them in this order.
    static let managerProperties = [
        "DeviceOrientation", "InterfaceOrientation", "SupportedMask", "ApplicationMask", "Idiom", "IdiomSource",
        "RotationLocked", "HasAccelerometer", "KeyWindow", "RotationDuration", "ScreenBounds", "FocusedProcess",
        "FocusedApplication", "FocusedApplicationMask", "FocusedApplicationSource", "ApplicationOrientations",
        "InterfaceLockedByApplication", "Posture", "HingeAngle", "SuggestedOrientation",
        "TouchHold", "MountMatrixSuspect",
    ]

    /// Process ids, where 0 means none.
    private static let processProperties: Set = ["FocusedProcess"]

    private static let deviceOrientationProperties: Set = ["DeviceOrientation"]
    private static let interfaceOrientationProperties: Set = ["InterfaceOrientation", "PreferredOrientation", "SuggestedOrientation"]
    /// Orientations where 0 means none.
    private static let noneWhenZero: Set = ["SuggestedOrientation"]
    private static let maskProperties: Set = ["SupportedMask", "ApplicationMask", "DelegateMask", "EffectiveMask",
                                              "FocusedApplicationMask"]
    /// Strings where empty means none.
    private static let noneWhenEmpty: Set = ["FocusedApplication"]

    /// A device orientation's name, or the number when it is out of range.
    static func deviceName(_ raw: UInt32) -> String {
        DeviceOrientation(rawValue: raw)?.name ?? String(raw)
    }

    /// An interface orientation's name, or the number when it is out of range.
    static func interfaceName(_ raw: UInt32) -> String {
        InterfaceOrientation(rawValue: raw)?.name ?? String(raw)
    }

    /// Which edge of the device is up in a pose, as iio-sensor-proxy's `monitor-sensor` says it
    /// (`right-up`): UIKit's landscape names cross (device landscape-left is the right edge up, and
    /// shows the interface in landscape-right), so people are told the edge beside the name.
    static func edge(device raw: UInt32) -> String? {
        switch DeviceOrientation(rawValue: raw) {
        case .faceUp?: "screen up"
        case .faceDown?: "screen down"
        case let pose?: pose.edgeUp.map { "\($0) edge up" }
        case nil: nil
        }
    }

    /// The edge up when the interface shows in this orientation (the pose that asks for it).
    static func edge(interface raw: UInt32) -> String? { (1...4).contains(raw) ? edge(device: raw) : nil }

    /// As `text`, with the edge that is up after an orientation's name: `landscape-right (right edge up)`.
    /// For people (status, monitor); `get` prints the bare name for scripts.
    static func described(_ name: String, _ value: Value) -> String {
        let plain = text(name, value)
        guard let raw = (value.variantValue ?? value).uint32Value else { return plain }
        let edge = deviceOrientationProperties.contains(name) ? edge(device: raw)
            : interfaceOrientationProperties.contains(name) ? edge(interface: raw) : nil
        return edge.map { "\(plain) (\($0))" } ?? plain
    }

    /// A mask's member names; `nil` when it holds bits outside the four orientations.
    static func maskNames(_ raw: UInt32) -> [String]? {
        let mask = OrientationMask(rawValue: raw)
        guard raw & ~OrientationMask.all.rawValue == 0 else { return nil }
        return mask.names
    }

    /// The value as printed by `status` and `get`.
    static func text(_ name: String, _ value: Value) -> String {
        let value = value.variantValue ?? value
        if let raw = value.uint32Value {
            if raw == 0 && noneWhenZero.contains(name) { return "none" }
            if deviceOrientationProperties.contains(name) { return deviceName(raw) }
            if interfaceOrientationProperties.contains(name) { return interfaceName(raw) }
            if maskProperties.contains(name) {
                guard let names = maskNames(raw) else { return String(raw) }
                return names.isEmpty ? "none" : names.joined(separator: ", ")
            }
            if processProperties.contains(name), raw == 0 { return "none" }
            return String(raw)
        }
        if let b = value.boolValue { return b ? "yes" : "no" }
        if let s = value.stringValue { return s.isEmpty && noneWhenEmpty.contains(name) ? "none" : s }
        if let entries = value.dictEntries {
            // ApplicationOrientations: each id with its mask's names.
            guard !entries.isEmpty else { return "none" }
            return entries.map { entry in
                let raw = entry.1.uint32Value ?? 0
                return "\(entry.0.stringValue ?? entry.0.description)=" + (maskNames(raw)?.joined(separator: ",") ?? String(raw))
            }.joined(separator: " ")
        }
        if let p = value.objectPathValue { return p }
        if let d = value.doubleValue { return name == "HingeAngle" && d < 0 ? "unknown" : "\(d)" }
        if let size = bounds(value) { return "\(size.0)x\(size.1)" }
        return value.description
    }

    /// The value's JSON members: the shown value and, where the wire has a number, the raw one.
    static func json(_ name: String, _ value: Value) -> [(String, JSON)] {
        let value = value.variantValue ?? value
        if let raw = value.uint32Value {
            let number = JSON.int(Int64(raw))
            if deviceOrientationProperties.contains(name) {
                return [(name, .string(deviceName(raw))), (name + "Value", number)]
            }
            if interfaceOrientationProperties.contains(name) {
                return [(name, .string(interfaceName(raw))), (name + "Value", number)]
            }
            if maskProperties.contains(name) {
                let names = maskNames(raw).map { JSON.array($0.map(JSON.string)) } ?? .null
                return [(name, names), (name + "Value", number)]
            }
            return [(name, number)]
        }
        if let size = bounds(value) {
            return [(name, .string("\(size.0)x\(size.1)")),
                    (name + "Value", .array([.int(Int64(size.0)), .int(Int64(size.1))]))]
        }
        if let entries = value.dictEntries { return [(name, overridesJSON(entries))] }
        return [(name, plainJSON(value))]
    }

    /// A value with no naming rule, as JSON.
    static func plainJSON(_ value: Value) -> JSON {
        switch value {
        case .bool(let b): return .bool(b)
        case .byte(let n): return .int(Int64(n))
        case .int16(let n): return .int(Int64(n))
        case .uint16(let n): return .int(Int64(n))
        case .int32(let n): return .int(Int64(n))
        case .uint32(let n): return .int(Int64(n))
        case .int64(let n): return .int(n)
        case .uint64(let n): return n <= UInt64(Int64.max) ? .int(Int64(n)) : .string(String(n))
        case .double(let d): return .double(d)
        case .string(let s), .objectPath(let s), .signature(let s): return .string(s)
        case .array(_, let items), .structure(let items): return .array(items.map(plainJSON))
        case .dict(_, _, let entries):
            return .object(entries.map { ($0.0.stringValue ?? $0.0.description, plainJSON($0.1)) })
        case .variant(let inner): return plainJSON(inner)
        }
    }

    /// `ApplicationOrientations` in JSON: each id with its mask's names.
    static func overridesJSON(_ entries: [(Value, Value)]) -> JSON {
        .object(entries.map { ($0.0.stringValue ?? $0.0.description, maskNames($0.1.uint32Value ?? 0).map { .array($0.map(JSON.string)) } ?? .null) })
    }

    /// `(uu)` as width and height.
    private static func bounds(_ value: Value) -> (UInt32, UInt32)? {
        guard let members = value.structureValues, members.count == 2,
              let w = members[0].uint32Value, let h = members[1].uint32Value else { return nil }
        return (w, h)
    }

    /// Properties in the contract's order, then any others in the order received.
    static func ordered(_ properties: [(String, Value)]) -> [(String, Value)] {
        let known = managerProperties.compactMap { name in properties.first { $0.0 == name } }
        let others = properties.filter { !managerProperties.contains($0.0) }
        return known + others
    }
}
