// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls
import DBus
import EventLoop

// Helpers every test that runs the built daemon needs: where the products are, temporary
// files, time, and what the kernel says of a process.

/// The package's root directory, found from this file's path (Harness/Paths.swift).
public let packageRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(2)
    return parts.joined(separator: "/")
}()

/// The directory holding the programs the tests run, `orientationd` and `orientationctl`: the one named by
/// `ORIENTATIOND_PROGRAMS` when it is set (`make test-release` names the release build, the programs the
/// package ships), else the build the tests were built with (the test bundle runs from there).
public func programsDirectory() -> String {
    if let named = getenv("ORIENTATIOND_PROGRAMS"), named.pointee != 0 { return String(cString: named) }
    return productsDirectory()
}

/// The directory holding the built products (the test bundle runs from there).
func productsDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    var exe = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    // With `swift test` on Linux the bundle itself is the executable; fall back to argv[0]
    // when /proc/self/exe is a runner (e.g. an xctest tool) in another directory.
    if access(dirname(exe) + "/orientationd", X_OK) != 0 { exe = CommandLine.arguments[0] }
    return dirname(exe)
}

public func dirname(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return String(path[..<slash])
}

public func makeTempDirectory(_ prefix: String = "orientationd-e2e") -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    guard let dir = mkdtemp(&template) else { fatalError("mkdtemp failed") }
    return String(cString: dir)
}

/// A machine-info file in `directory` saying the chassis is a handset: the phone idiom (unless the
/// config says otherwise), which the tests' daemons are given so that they do not take this machine's.
public func handsetMachineInfo(in directory: String) -> String {
    let path = directory + "/machine-info-handset"
    writeText(path, "CHASSIS=handset\n")
    return path
}

public func writeText(_ path: String, _ text: String) {
    guard let f = fopen(path, "w") else { fatalError("cannot write \(path)") }
    fputs(text, f)
    fclose(f)
}

/// The text of the regular file at `path`; "" when there is none. Never blocks: a FIFO planted where
/// a test looks (an attack on the state file) reads as "", not as a wait for a writer that never comes.
public func readText(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, let f = fdopen(fd, "r") else {
        close(fd)
        return ""
    }
    defer { fclose(f) }
    var out = [UInt8]()
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n <= 0 { break }
        out.append(contentsOf: buf[0..<n])
    }
    return String(decoding: out, as: UTF8.self)
}

/// Seconds on the monotonic clock.
public func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Iterates the main loop until `condition` holds or `timeout` seconds pass.
@discardableResult
public func waitUntil(_ timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    MainLoop.iterate(until: condition, timeoutMs: Int(timeout * 1000))
}


/// `voluntary_ctxt_switches + nonvoluntary_ctxt_switches` of every thread of `pid`, from /proc:
/// unchanged over an interval means the process did not wake up. 0 when it is gone.
public func contextSwitches(of pid: pid_t) -> Int {
    var total = 0
    for task in FileSystem.list("/proc/\(pid)/task") where task.first?.isNumber == true {
        for line in readText("/proc/\(pid)/task/\(task)/status").split(separator: "\n") where line.contains("ctxt_switches:") {
            total += line.split(separator: ":").last.flatMap { Int($0.drop { $0 == " " || $0 == "\t" }) } ?? 0
        }
    }
    return total
}

/// The command the package's XDG autostart entry (`data/orientationd-focus.desktop.in`) starts with
/// the session, with the built programs in place of the installed ones: the tests of the Wayland
/// focus reporter start exactly what a session starts. Fails loudly when the entry or the helper it
/// names is missing (`make test` builds `orientationd-toplevels` beside the Swift programs).
public func autostartCommand() throws -> [String] {
    let entry = readText(packageRoot + "/data/orientationd-focus.desktop.in")
    guard let line = entry.split(separator: "\n").first(where: { $0.hasPrefix("Exec=") }) else {
        throw DBusError.failed("data/orientationd-focus.desktop.in has no Exec line")
    }
    let programs = programsDirectory()
    let command = String(line.dropFirst(5)).split(separator: "@bindir@", omittingEmptySubsequences: false).joined(separator: programs)
        .split(separator: "@libexecdir@", omittingEmptySubsequences: false).joined(separator: programs)
    let argv = command.split(separator: " ").map(String.init)
    try buildWaylandHelper()
    return argv
}

/// Builds `orientationd-toplevels`, the package's one C program, beside the Swift programs the tests run
/// when it is not there yet: `swift build` does not make it (the Makefile's rule does, with
/// wayland-scanner), and `swift test` alone must pass. Fails loudly when it cannot be built.
public func buildWaylandHelper() throws {
    let programs = programsDirectory()
    if access(programs + "/orientationd-toplevels", X_OK) == 0 { return }
    let configuration = programs.hasSuffix("release") ? "release" : "debug"
    let target = ".build/\(configuration)/orientationd-toplevels"
    let result = runTool(["make", "--no-print-directory", "-C", packageRoot, target], timeoutMs: 120_000)
    guard result.status == 0, access(programs + "/orientationd-toplevels", X_OK) == 0 else {
        throw DBusError.failed("\(programs)/orientationd-toplevels is not built and 'make \(target)' failed "
            + "(\(result.status)): \(result.stderr)")
    }
}

/// Whether `python` can import every module of `modules` (`Harness/python-imports.py`: a GObject
/// binding as `gi.repository.NAME@VERSION`); the tool's result, whose stderr says what is missing.
public func pythonImports(_ modules: [String], python: String = "/usr/bin/python3") -> ToolResult {
    runTool([python, packageRoot + "/Harness/python-imports.py"] + modules)
}
