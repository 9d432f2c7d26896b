// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// An application's id: its desktop-file id without `.desktop` (`org.gnome.Maps`), the Wayland app
/// id, GTK's and Flatpak's application id. Checked before any file name is built from it.
public struct ApplicationID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// 1–255 bytes of `[A-Za-z0-9_.-]`, not starting with `.` or `-`, without `..`; nil otherwise.
    public init?(rawValue: String) {
        let bytes = Array(rawValue.utf8)
        guard (1...255).contains(bytes.count), bytes[0] != UInt8(ascii: "."), bytes[0] != UInt8(ascii: "-"),
              !zip(bytes, bytes.dropFirst()).contains(where: { $0 == UInt8(ascii: ".") && $1 == UInt8(ascii: ".") }),
              bytes.allSatisfy({ b in
                  (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)
                      || b == UInt8(ascii: "_") || b == UInt8(ascii: ".") || b == UInt8(ascii: "-")
              })
        else { return nil }
        self.rawValue = rawValue
    }

    /// As `init(rawValue:)`, with a message a person understands when the id is not valid.
    public init(parsing text: String) throws(OrientationParseError) {
        guard let id = ApplicationID(rawValue: text) else {
            throw OrientationParseError("'\(text.prefix(80))' is not an application id: 1-255 characters among letters, digits, "
                + "'_', '.' and '-', not starting with '.' or '-', without '..' (a desktop file's name without .desktop)")
        }
        self = id
    }

    public var description: String { rawValue }
}

/// The orientations an application declares in its desktop file, read from either key
/// (applications.md, "The declaration in force").
public enum ApplicationDeclaration {
    /// Where desktop files are looked for by default: `XDG_DATA_DIRS` (default
    /// `/usr/local/share:/usr/share`), then Flatpak's exports. The daemon reads them, and
    /// `orientationctl app show` explains from the same ones.
    public static func dataDirectories(xdgDataDirs: String?) -> [String] {
        let listed = (xdgDataDirs ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return (listed.isEmpty ? ["/usr/local/share", "/usr/share"] : listed) + ["/var/lib/flatpak/exports/share"]
    }

    /// orientationd's own key: mask names (`OrientationMask(parsing:)`), `;`-separated as desktop-file lists are.
    public static let key = "X-Orientationd-SupportedOrientations"
    /// Lomiri's key, read when orientationd's is absent.
    public static let lomiriKey = "X-Ubuntu-Supported-Orientations"

    /// `X-Orientationd-SupportedOrientations`: `portrait;landscape;`.
    public static func mask(orientationd value: String) throws(OrientationParseError) -> OrientationMask {
        let names = value.split(separator: ";").map { String($0).trimmingBlanks }.filter { !$0.isEmpty }
        guard !names.isEmpty else { throw OrientationParseError("\(key) is empty; it lists orientation names, e.g. portrait;landscape;") }
        return try OrientationMask(parsing: names.joined(separator: ","))
    }

    /// Lomiri's values, with Qt's meanings (`Qt::ScreenOrientation`), as interface orientations. Qt's
    /// landscape is the screen turned 90° clockwise from portrait: the device's left edge up, which
    /// shows the interface in landscape-left; its inverted landscape is the other way. `primary` is the
    /// panel's natural orientation, portrait under orientationd's axes.
    public static let lomiriValues: [(String, OrientationMask)] = [
        ("portrait", .portrait), ("invertedPortrait", .portraitUpsideDown),
        ("landscape", .landscapeLeft), ("invertedLandscape", .landscapeRight), ("primary", .portrait),
    ]

    /// `X-Ubuntu-Supported-Orientations`: Lomiri's names, separated by `,`, `;` or `|`.
    public static func mask(lomiri value: String) throws(OrientationParseError) -> OrientationMask {
        var mask: OrientationMask = []
        for part in value.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == "|" }) {
            let name = String(part).trimmingBlanks
            if name.isEmpty { continue }
            guard let found = lomiriValues.first(where: { $0.0.lowercased() == name.lowercased() }) else {
                throw OrientationParseError("'\(name)' in \(lomiriKey) is not one of Lomiri's orientations: "
                    + lomiriValues.map(\.0).joined(separator: ", "))
            }
            mask.formUnion(found.1)
        }
        guard !mask.isEmpty else { throw OrientationParseError("\(lomiriKey) names no orientation") }
        return mask
    }

    /// What a desktop file's keys declare: the mask of the first key that holds a valid one, ours
    /// before Lomiri's, and what was wrong with each key read before it.
    public struct Reading: Sendable {
        /// The mask declared; nil when neither key holds a valid one.
        public let mask: OrientationMask?
        /// The key `mask` came from.
        public let key: String?
        /// Each key read that held a bad value, in the order read: the key, its value and why.
        public let problems: [(key: String, value: String, why: String)]
    }

    /// The one rule for both keys (applications.md, "The declaration in force"): orientationd's key
    /// when it holds a valid mask, else Lomiri's; `value` gives a key's value, nil when absent.
    public static func read(_ value: (String) -> String?) -> Reading {
        var problems: [(key: String, value: String, why: String)] = []
        if let text = value(key) {
            do { return Reading(mask: try mask(orientationd: text), key: key, problems: problems) } catch {
                problems.append((key, text, error.message))
            }
        }
        if let text = value(lomiriKey) {
            do { return Reading(mask: try mask(lomiri: text), key: lomiriKey, problems: problems) } catch {
                problems.append((lomiriKey, text, error.message))
            }
        }
        return Reading(mask: nil, key: nil, problems: problems)
    }
}
