// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import CGLib

/// A GLib key file (`GKeyFile`), read from a file or from bytes, and turned into bytes.
package final class KeyFile {
    private let raw: OpaquePointer

    /// An empty key file; wraps `g_key_file_new`.
    package init() { raw = g_key_file_new() }

    deinit { g_key_file_free(raw) }

    /// Loads `path`; wraps `g_key_file_load_from_file`. Throws the GLib message, and
    /// tells a missing file apart so a caller can treat it as "all defaults".
    package func load(path: String) throws(KeyFileError) {
        var error: UnsafeMutablePointer<GError>?
        guard g_key_file_load_from_file(raw, path, G_KEY_FILE_NONE, &error) != 0 else {
            let missing = error.map { $0.pointee.domain == g_file_error_quark() && $0.pointee.code == G_FILE_ERROR_NOENT.rawValue } ?? false
            throw KeyFileError(message: KeyFile.take(error), missing: missing)
        }
    }

    /// The groups in file order; wraps `g_key_file_get_groups`.
    package var groups: [String] { KeyFile.strings(g_key_file_get_groups(raw, nil)) }

    /// The keys of `group` in file order; wraps `g_key_file_get_keys`.
    package func keys(in group: String) -> [String] { KeyFile.strings(g_key_file_get_keys(raw, group, nil, nil)) }

    /// The value as written, unescaped; wraps `g_key_file_get_string`.
    package func string(_ group: String, _ key: String) -> String? {
        guard let value = g_key_file_get_string(raw, group, key, nil) else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }

    /// Whether the value as written is UTF-8 (`string` reads nil for one that is not); wraps
    /// `g_key_file_get_value`.
    package func isUTF8(_ group: String, _ key: String) -> Bool {
        guard let value = g_key_file_get_value(raw, group, key, nil) else { return true }
        defer { g_free(value) }
        return g_utf8_validate(value, -1, nil) != 0
    }

    /// Sets a value; wraps `g_key_file_set_string`.
    package func set(_ group: String, _ key: String, _ value: String) {
        g_key_file_set_string(raw, group, key, value)
    }

    /// Parses `bytes`; wraps `g_key_file_load_from_data`. Throws the GLib message.
    package func load(data bytes: [UInt8]) throws(KeyFileError) {
        var error: UnsafeMutablePointer<GError>?
        let loaded = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { g_key_file_load_from_data(raw, $0.baseAddress, gsize($0.count), G_KEY_FILE_NONE, &error) }
        }
        guard loaded != 0 else { throw KeyFileError(message: KeyFile.take(error), missing: false) }
    }

    /// The file's text; wraps `g_key_file_to_data`.
    package func data() -> [UInt8] {
        var length: gsize = 0
        guard let text = g_key_file_to_data(raw, &length, nil) else { return [] }
        defer { g_free(text) }
        return Array(UnsafeRawBufferPointer(start: text, count: Int(length)))
    }

    private static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }

    private static func strings(_ list: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> [String] {
        guard let list else { return [] }
        defer { g_strfreev(list) }
        var result: [String] = []
        var index = 0
        while let item = list[index] {
            result.append(String(cString: item))
            index += 1
        }
        return result
    }
}

/// Why a key file could not be read or written.
package struct KeyFileError: Error {
    package let message: String
    /// The file does not exist.
    package let missing: Bool
}
