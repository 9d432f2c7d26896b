// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import DBus
import OrientationAPI
import TestSupport

/// A file of the package as text; nil when it cannot be read.
func readPackageFile(_ relativePath: String) -> String? {
    let path = packageRoot + "/" + relativePath
    return access(path, R_OK) == 0 ? readText(path) : nil
}

/// The names in a directory of the package, sorted.
func packageDirectory(_ relativePath: String) -> [String] {
    guard let dir = opendir(packageRoot + "/" + relativePath) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

/// The built `orientationd` in a `World` of its own: a private bus (configured as the system bus is
/// when `systemPolicyFiles` are given), the simulated sensor and a fresh state directory. `stop()`
/// tears the world down.
final class RunningDaemon {
    let world: World
    private let process: ChildProcess

    var address: String { world.bus.address }
    /// The daemon's output so far; shown when something fails.
    var log: String { process.log }

    /// `arguments` are added to the daemon's (e.g. `--sensor-proxy-compat`).
    init(systemPolicyFiles: [String]? = nil, arguments: [String] = []) throws {
        world = try World(systemPolicyFiles: systemPolicyFiles)
        do {
            process = try world.startDaemon(arguments, checked: false)
        } catch {
            _ = world.tearDown()
            throw error
        }
    }

    private var stopped = false

    /// Ends the daemon, the bus and the scratch directory.
    func stop() {
        guard !stopped else { return }
        stopped = true
        _ = world.tearDown()
    }

    deinit { stop() }
}
