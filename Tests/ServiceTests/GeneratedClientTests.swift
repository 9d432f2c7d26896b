// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// Clients as app authors write them (Docs/clients.md): the examples in `examples/`, built from what
/// the interface files generate and run against the daemon. Each one watches the objects through the
/// object manager, follows DidChange, creates a window and a controller, sets masks through the setter
/// methods, sees a refused change as an error, turns the device, and sees the window and the
/// controller leave the object manager.
final class GeneratedClientTests: DaemonTestCase {
    static let interfaceFiles = [Orientation1.managerInterface, Orientation1.windowInterface, Orientation1.controllerInterface]
        .map { packageRoot + "/dbus/\($0).xml" }

    /// Checks what a client printed against the scenario every example follows.
    private func assertScenario(_ output: String, _ client: String, file: StaticString = #filePath, line: UInt = #line) {
        let lines = output.split(separator: "\n").map(String.init)
        func value(_ key: String) -> String? { lines.first { $0.hasPrefix(key + " ") }.map { String($0.dropFirst(key.count + 1)) } }
        func index(_ text: String) -> Int? { lines.firstIndex(of: text) }
        guard let window = value("window"), let controller = value("controller") else {
            return XCTFail("\(client) made no window and controller:\n\(output)", file: file, line: line)
        }
        XCTAssertTrue(window.hasPrefix(Orientation1.windowPathPrefix) && controller.hasPrefix(Orientation1.controllerPathPrefix),
                      output, file: file, line: line)
        XCTAssertTrue(value("refused")?.hasPrefix(std("InvalidArgs") + ": 1 is not a valid mask") == true,
                      "\(client) did not see the refused mask as an error:\n\(output)", file: file, line: line)
        XCTAssertNotNil(index("object-added \(window)"), "\(client): \(output)", file: file, line: line)
        XCTAssertNotNil(index("object-added \(controller)"), "\(client): \(output)", file: file, line: line)
        XCTAssertEqual(value("supported-mask"), "24", "\(client): \(output)", file: file, line: line)
        let turned = value("interface-orientation")
        XCTAssertTrue(turned == "3" || turned == "4", "\(client): \(output)", file: file, line: line)
        XCTAssertTrue(lines.contains { $0.hasPrefix("did-change ") && $0.hasSuffix(" \(turned ?? "?")") },
                      "\(client) did not follow DidChange:\n\(output)", file: file, line: line)
        guard let windowGone = index("object-removed \(window)"), let controllerGone = index("object-removed \(controller)") else {
            return XCTFail("\(client) did not see the objects go:\n\(output)", file: file, line: line)
        }
        XCTAssertLessThan(windowGone, controllerGone, output, file: file, line: line)
        XCTAssertEqual(value("window-in-object-manager"), "no", "a closed window stayed in \(client)'s object manager", file: file, line: line)
        XCTAssertEqual(lines.last, "done", "\(client): \(output)", file: file, line: line)
    }

    func testTheCClientBuiltFromGdbusCodegensOutput() throws {
        for tool in ["gdbus-codegen", "cc", "pkg-config"] where !toolExists(tool) {
            throw unavailable("\(tool) is not installed (apt: libglib2.0-dev-bin gcc pkg-config)")
        }
        let directory = scratch + "/c"
        mkdir(directory, 0o755)
        let generated = runTool(["gdbus-codegen", "--c-namespace", "Orientation", "--interface-prefix", Orientation1.managerInterface + ".",
                                 "--c-generate-object-manager", "--generate-c-code", directory + "/orientation-generated"] + Self.interfaceFiles)
        XCTAssertEqual(generated.status, 0, generated.stderr)
        XCTAssertEqual(generated.stderr, "", "gdbus-codegen warned")
        let header = readText(directory + "/orientation-generated.h")
        for name in ["OrientationManager", "OrientationWindow", "OrientationController", "OrientationObjectManagerClient",
                     "orientation_controller_call_set_supported_mask_sync", "orientation_window_call_set_root_controller_sync",
                     "orientation_manager_call_set_rotation_locked_sync"] {
            XCTAssertTrue(header.contains(name), "the generated header has no \(name)")
        }
        XCTAssertFalse(header.contains("OrientationOrientation1"), "the generated names repeat the interface prefix")
        let flags = runTool(["pkg-config", "--cflags", "--libs", "gio-unix-2.0"]).stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        try buildAndRun(["cc", "-Wall", "-Wextra", "-Werror", "-o", directory + "/orientation-client",
                         packageRoot + "/examples/c/orientation-client.c", directory + "/orientation-generated.c", "-I", directory] + flags,
                        client: directory + "/orientation-client", "the C client")
    }

    /// Builds a client with `compile` (no warning allowed), runs it against the daemon and checks its scenario.
    private func buildAndRun(_ compile: [String], client: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let built = runTool(compile, timeoutMs: 300_000)
        XCTAssertEqual(built.status, 0, built.stderr, file: file, line: line)
        XCTAssertEqual(built.stderr, "", "\(what) and the code generated for it built with warnings", file: file, line: line)
        let run = runTool([client, bus.address], timeoutMs: 30_000)
        XCTAssertEqual(run.status, 0, run.stderr + run.stdout, file: file, line: line)
        assertScenario(run.stdout, what, file: file, line: line)
    }

    func testTheQtClientOnQdbusxml2cppsProxies() throws {
        let qt = "/usr/lib/qt5/bin/"
        for tool in [qt + "qdbusxml2cpp", qt + "moc"] where access(tool, X_OK) != 0 {
            throw unavailable("\(tool) is not installed (apt: qtbase5-dev-tools qtbase5-dev)")
        }
        guard toolExists("c++"), runTool(["pkg-config", "--exists", "Qt5DBus"]).status == 0 else {
            throw unavailable("a C++ compiler and Qt5DBus are not installed (apt: g++ qtbase5-dev pkg-config)")
        }
        let directory = scratch + "/qt"
        mkdir(directory, 0o755)
        var sources = [packageRoot + "/examples/qt/orientation-client.cpp"]
        for (name, interface) in [("manager", Orientation1.managerInterface), ("window", Orientation1.windowInterface),
                                  ("controller", Orientation1.controllerInterface)] {
            let base = directory + "/orientation_\(name)"
            let generated = runTool([qt + "qdbusxml2cpp", "-N", "-i", "screen-bounds.h", "-c", "Orientation" + name.capitalized,
                                     "-p", base, packageRoot + "/dbus/\(interface).xml"])
            XCTAssertEqual(generated.status, 0, generated.stderr)
            XCTAssertEqual(generated.stderr, "", "qdbusxml2cpp warned about \(interface)")
            XCTAssertEqual(runTool([qt + "moc", base + ".h", "-o", directory + "/moc_orientation_\(name).cpp"]).status, 0)
            sources += [base + ".cpp", directory + "/moc_orientation_\(name).cpp"]
        }
        XCTAssertEqual(runTool([qt + "moc", packageRoot + "/examples/qt/object-watcher.h", "-o", directory + "/moc_object_watcher.cpp"]).status, 0)
        sources.append(directory + "/moc_object_watcher.cpp")
        let flags = runTool(["pkg-config", "--cflags", "--libs", "Qt5DBus", "Qt5Core"]).stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        try buildAndRun(["c++", "-std=c++17", "-fPIC", "-Wall", "-Wextra", "-Werror", "-I", directory, "-I", packageRoot + "/examples/qt",
                         "-o", directory + "/orientation-client"] + sources + flags, client: directory + "/orientation-client", "the Qt client")
    }

    func testThePythonClientOnGDBus() throws {
        let run = runTool(["/usr/bin/python3", packageRoot + "/examples/python/orientation-client.py", bus.address], timeoutMs: 30_000)
        XCTAssertEqual(run.status, 0, run.stderr + run.stdout)
        assertScenario(run.stdout, "the Python client")
    }

    /// The documentation gdbus-codegen writes has each member's own text, from the interface files'
    /// comments in the form it reads.
    func testTheGeneratedDocumentationDescribesEveryMember() throws {
        guard toolExists("gdbus-codegen") else { throw unavailable("gdbus-codegen is not installed (apt: libglib2.0-dev-bin)") }
        let directory = scratch + "/doc"
        mkdir(directory, 0o755)
        let generated = runTool(["gdbus-codegen", "--interface-prefix", Orientation1.managerInterface + ".",
                                 "--generate-docbook", directory + "/doc"] + Self.interfaceFiles)
        XCTAssertEqual(generated.status, 0, generated.stderr)
        for (interface, file) in zip([Orientation1.managerInterface, Orientation1.windowInterface, Orientation1.controllerInterface],
                                     Self.interfaceFiles) {
            let docbook = readText(directory + "/doc-\(interface).xml")
            let xml = readText(file)
            // Each member's comment opens with "Name: text"; the text's first words must be in the docbook.
            let members = xml.matches(of: /\n +([A-Z][A-Za-z]+): ([^\n]+)\n/).map { (String($0.output.1), String($0.output.2)) }
            XCTAssertGreaterThan(members.count, 8, "\(file) has few member comments in gdbus-codegen's form")
            for (name, text) in members {
                let words = text.split(separator: " ").prefix(4).joined(separator: " ")
                    .replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                    .replacingOccurrences(of: ">", with: "&gt;")
                XCTAssertTrue(docbook.contains(words), "\(interface): the documentation lacks \(name)'s text (\(words))")
            }
        }
    }
}
