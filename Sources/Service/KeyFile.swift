@preconcurrency import Glibc
import CGLib
import EventLoop

/// A GLib key file (`GKeyFile`), read-only or written atomically.
final class KeyFile {
    private let raw: OpaquePointer

    /// An empty key file; wraps `g_key_file_new`.
    init() { raw = g_key_file_new() }

    deinit { g_key_file_free(raw) }

    /// Loads `path`; wraps `g_key_file_load_from_file`. Throws the GLib message, and
    /// tells a missing file apart so a caller can treat it as "all defaults".
    func load(path: String) throws(KeyFileError) {
        var error: UnsafeMutablePointer<GError>?
        guard g_key_file_load_from_file(raw, path, G_KEY_FILE_NONE, &error) != 0 else {
            let missing = error.map { $0.pointee.domain == g_file_error_quark() && $0.pointee.code == G_FILE_ERROR_NOENT.rawValue } ?? false
            throw KeyFileError(message: KeyFile.take(error), missing: missing)
        }
    }

    /// The groups in file order; wraps `g_key_file_get_groups`.
    var groups: [String] { KeyFile.strings(g_key_file_get_groups(raw, nil)) }

    /// The keys of `group` in file order; wraps `g_key_file_get_keys`.
    func keys(in group: String) -> [String] { KeyFile.strings(g_key_file_get_keys(raw, group, nil, nil)) }

    /// The value as written, unescaped; wraps `g_key_file_get_string`.
    func string(_ group: String, _ key: String) -> String? {
        guard let value = g_key_file_get_string(raw, group, key, nil) else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }

    /// Sets a value; wraps `g_key_file_set_string`.
    func set(_ group: String, _ key: String, _ value: String) {
        g_key_file_set_string(raw, group, key, value)
    }

    /// Writes the file atomically: the text goes to a temporary file that is renamed over the old one
    /// (`g_key_file_to_data`, then write and `rename`). A crash or SIGKILL at any point leaves the old
    /// or the new file, never a torn one. There is no fsync: the main loop must not wait on the disk,
    /// so a power cut may lose the last change.
    func save(path: String) throws(KeyFileError) {
        var length: gsize = 0
        guard let data = g_key_file_to_data(raw, &length, nil) else {
            throw KeyFileError(message: "cannot format the key file", missing: false)
        }
        defer { g_free(data) }
        let temporary = path + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw KeyFileError(message: "cannot write \(temporary): \(KeyFile.reason)", missing: false) }
        var written = 0
        while written < Int(length) {
            let n = retryingOnInterrupt { write(fd, data + written, Int(length) - written) }
            guard n > 0 else {
                let reason = KeyFile.reason
                close(fd)
                unlink(temporary)
                throw KeyFileError(message: "cannot write \(temporary): \(reason)", missing: false)
            }
            written += n
        }
        guard close(fd) == 0, rename(temporary, path) == 0 else {
            let reason = KeyFile.reason
            unlink(temporary)
            throw KeyFileError(message: "cannot replace \(path): \(reason)", missing: false)
        }
    }

    private static var reason: String { String(cString: strerror(Glibc.errno)) }

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
struct KeyFileError: Error {
    let message: String
    /// The file does not exist.
    let missing: Bool
}
