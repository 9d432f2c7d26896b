// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Sensors

/// A systemd hwdb entry for an accelerometer's mount matrix, its match line built as the header of
/// systemd's `hwdb.d/60-sensor.hwdb` says and `60-sensor.rules` looks it up:
/// `sensor:modalias:<parent modalias>:<dmi modalias>`, or `sensor:<label>:modalias:…` for a device
/// with a `label`. Pure: the strings in, the text out (Docs/sensors.md, "Calibration").
public struct HwdbEntry: Equatable, Sendable {
    /// `sensor:modalias:acpi:BOSC0200*:dmi:*:svnVendor:pnModel:*`.
    public let match: String
    /// `ACCEL_MOUNT_MATRIX=0, -1, 0; 1, 0, 0; 0, 0, 1`.
    public let property: String
    /// `# Vendor Model`, the comment line naming the machine.
    public let comment: String

    /// The DMI fields kept in the match: those that name the model.
    static let modelFields = ["svn", "pn", "pvr", "sku"]
    /// Product names that name no model (firmware placeholders): the SKU is kept beside them.
    static let placeholderNames: Set<String> = ["defaultstring", "tobefilledbyo.e.m.", "systemproductname", "notebook", "none",
                                                "type1productconfigid", ""]

    /// `parentModalias` is the `modalias` of the sensor's parent (`acpi:BOSC0200:BOSC0200:`), `dmi`
    /// the machine's `/sys/class/dmi/id/modalias`, `label` the sensor's `label` attribute when it has
    /// one; `vendor` and `product` name the machine in the comment.
    public init(parentModalias: String, dmi: String, label: String?, matrix: MountMatrix, vendor: String, product: String) {
        var prefix = "sensor:"
        if let label, !label.isEmpty { prefix += Self.ascii(label) + ":" }
        match = prefix + "modalias:" + Self.parentPattern(parentModalias) + ":" + Self.dmiPattern(dmi)
        property = "ACCEL_MOUNT_MATRIX=" + matrix.description
        let name = [vendor, product].map { $0.filter { $0.isASCII && !$0.isNewline }.trimmingBlanks }.filter { !$0.isEmpty }
        comment = "# " + (name.isEmpty ? "this machine" : name.joined(separator: " "))
    }

    /// The entry as a hwdb file holds it: the comment, the match, the property indented by one space.
    public var text: String { comment + "\n" + match + "\n " + property + "\n" }

    /// The string udev looks up for a device: what `match` must match.
    public static func lookup(parentModalias: String, dmi: String, label: String?) -> String {
        "sensor:" + (label.map { $0.isEmpty ? "" : $0 + ":" } ?? "") + "modalias:" + parentModalias + ":" + dmi
    }

    /// The parent's bus and id, then `*`: `acpi:BOSC0200:BOSC0200:` gives `acpi:BOSC0200*`,
    /// `i2c:bmc150_accel` gives `i2c:bmc150_accel*`.
    static func parentPattern(_ modalias: String) -> String {
        let fields = modalias.split(separator: ":", omittingEmptySubsequences: true).map { ascii(String($0)) }
        return fields.prefix(2).joined(separator: ":") + "*"
    }

    /// `dmi:*:svnVendor:pnModel:*`: the model's fields of the machine's DMI modalias, in its order,
    /// with `*:` before each that does not follow another kept. The product version is kept for
    /// Lenovo (whose product name is a type number), the SKU beside a placeholder product name.
    static func dmiPattern(_ dmi: String) -> String {
        let fields = dmi.split(separator: ":", omittingEmptySubsequences: true).map(String.init).filter { $0 != "dmi" }
        func value(_ name: String) -> String? { fields.first { fieldName($0) == name }.map { String($0.dropFirst(name.count)) } }
        var wanted: Set<String> = ["svn", "pn"]
        if value("svn")?.uppercased().hasPrefix("LENOVO") == true { wanted.insert("pvr") }
        if placeholderNames.contains((value("pn") ?? "").lowercased()) { wanted.insert("sku") }
        var parts: [String] = []
        var previousKept = false
        for field in fields {
            let kept = wanted.contains(fieldName(field))
            if kept { parts.append((previousKept ? "" : "*:") + ascii(field) + ":") }
            previousKept = kept
        }
        return "dmi:" + parts.joined() + "*"
    }

    /// A DMI field's name: the lowercase letters before its value (`svn` of `svnLENOVO`).
    static func fieldName(_ field: String) -> String {
        for name in ["bvn", "bvr", "bd", "br", "efr", "svn", "pn", "pvr", "rvn", "rn", "rvr", "cvn", "ct", "cvr", "sku"]
            .sorted(by: { $0.count > $1.count }) where field.hasPrefix(name) {
            return name
        }
        return ""
    }

    /// Printable ASCII only, without blanks and `:` (the kernel's own filter for DMI strings).
    static func ascii(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0.value > 0x20 && $0.value < 0x7f && $0 != ":" }.map(Character.init))
    }
}

private extension String {
    var trimmingBlanks: String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}
