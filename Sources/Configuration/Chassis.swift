// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Orientation

/// The machine's chassis, found as systemd-hostnamed finds it, from the same files (hostnamed itself
/// may not run): `CHASSIS=` in machine-info, else the device tree's `chassis-type`, else DMI's
/// `chassis_type`, else ACPI's `pm_profile` (Docs/dbus-api.md, "Configuration file"; Docs/install.md,
/// "Where orientationd chose"). `Idiom=auto` takes the phone idiom for a handset and the tablet idiom
/// for every other chassis, or when none is found.
public struct Chassis: Equatable, Sendable {
    /// hostnamed's name: `handset`, `tablet`, `convertible`, `laptop`, `desktop`, …; `unknown` when
    /// nothing says.
    public var name: String
    /// Where it was read, e.g. `DMI chassis_type 31 (Convertible)`; `nothing` when unknown.
    public var origin: String
    /// The same in a few words, without a file's path: `machine-info`, `device tree`, `DMI 31`, `ACPI 8`.
    public var source: String

    package init(name: String, origin: String, source: String = "") {
        self.name = name
        self.origin = origin
        self.source = source
    }

    /// The idiom `Idiom=auto` takes: a phone for a handset, a tablet otherwise.
    public var idiom: Idiom { name == "handset" ? .phone : .tablet }

    /// The chassis names machine-info and the device tree may give (hostnamed's list).
    package static let names = ["desktop", "laptop", "convertible", "server", "tablet", "handset", "watch", "embedded",
                                "vm", "container"]

    /// Where each source is read. Under umockdev the sysfs paths are the test bed's.
    package struct Paths: Sendable {
        package var machineInfo = "/etc/machine-info"
        package var deviceTree = "/sys/firmware/devicetree/base/chassis-type"
        package var dmi = "/sys/class/dmi/id/chassis_type"
        package var acpi = "/sys/firmware/acpi/pm_profile"
        package init() {}
    }

    /// The chassis of this machine.
    package static func detect(_ paths: Paths = Paths()) -> Chassis {
        if let text = read(paths.machineInfo), let value = machineInfoChassis(text), names.contains(value) {
            return Chassis(name: value, origin: "CHASSIS= in \(paths.machineInfo)", source: "machine-info")
        }
        if let value = firstLine(paths.deviceTree) {
            if names.contains(value) { return Chassis(name: value, origin: "the device tree's chassis-type", source: "device tree") }
        }
        if let text = firstLine(paths.dmi), let type = Int(text), let (name, what) = dmiChassis(type) {
            return Chassis(name: name, origin: "DMI chassis_type \(type) (\(what))", source: "DMI \(type)")
        }
        if let text = firstLine(paths.acpi), let profile = Int(text), let name = acpiChassis(profile) {
            return Chassis(name: name, origin: "ACPI pm_profile \(profile)", source: "ACPI \(profile)")
        }
        return Chassis(name: "unknown", origin: "nothing", source: "nothing")
    }

    /// The value of `CHASSIS=` in a machine-info file (shell-style lines, the value maybe quoted).
    package static func machineInfoChassis(_ text: String) -> String? {
        var found: String?
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("CHASSIS=") else { continue }
            var value = Substring(trimmed.dropFirst("CHASSIS=".count))
            while let last = value.last, last == " " || last == "\t" || last == "\r" { value.removeLast() }
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = value.dropFirst().dropLast()
            }
            found = String(value)
        }
        return found
    }

    /// hostnamed's reading of an SMBIOS chassis type, with the type's own name.
    package static func dmiChassis(_ type: Int) -> (String, String)? {
        switch type {
        case 0x3: ("desktop", "Desktop")
        case 0x4: ("desktop", "Low Profile Desktop")
        case 0x6: ("desktop", "Mini Tower")
        case 0x7: ("desktop", "Tower")
        case 0xD: ("desktop", "All in One")
        case 0x23: ("desktop", "Mini PC")
        case 0x24: ("desktop", "Stick PC")
        case 0x8: ("laptop", "Portable")
        case 0x9: ("laptop", "Laptop")
        case 0xA: ("laptop", "Notebook")
        case 0xE: ("laptop", "Sub Notebook")
        case 0xB: ("handset", "Hand Held")
        case 0x11: ("server", "Main Server Chassis")
        case 0x1C: ("server", "Blade")
        case 0x1D: ("server", "Blade Enclosure")
        case 0x1E: ("tablet", "Tablet")
        case 0x1F: ("convertible", "Convertible")
        case 0x20: ("convertible", "Detachable")
        case 0x21: ("embedded", "IoT Gateway")
        case 0x22: ("embedded", "Embedded PC")
        default: nil
        }
    }

    /// hostnamed's reading of ACPI's preferred power-management profile.
    package static func acpiChassis(_ profile: Int) -> String? {
        switch profile {
        case 1, 3, 6: "desktop"
        case 2: "laptop"
        case 4, 5, 7: "server"
        case 8: "tablet"
        default: nil
        }
    }

    /// A small file's text; nil when it cannot be read.
    private static func read(_ path: String) -> String? {
        guard let bytes = try? StartupFile.read(path, limit: 64 * 1024) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A firmware file's value: up to its first newline or NUL (the device tree ends its strings with one),
    /// without blanks around.
    private static func firstLine(_ path: String) -> String? {
        read(path).map { String($0.prefix { $0 != "\n" && $0 != "\0" }).trimmed }
    }
}
