// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// The real Phosh shell (Debian's phosh 0.24 on phoc 0.24), headless, rotating its output as
/// orientationd decides through `net.hadess.SensorProxy`: turns, the rotation lock and the
/// application mask. phoc runs with the headless backend and the pixman renderer; a small Wayland
/// client gives it a seat (a virtual pointer), which Phosh needs to start; `wlr-randr` reads the
/// output's transform. Phosh's session bus is a private bus too, and its system bus the daemon's.
final class PhoshTests: CompatTestCase {
    var session: PrivateBus!
    var runtime: String!

    override func setUpWithError() throws {
        for tool in ["phoc", "/usr/libexec/phosh", "wlr-randr", "wayland-scanner", "gcc", "Xwayland", "xrandr"]
        where !toolExists(tool) && access(tool, X_OK) != 0 {
            throw unavailable("\(tool) is not installed (apt: phosh phoc wlr-randr gnome-settings-daemon-common libwayland-dev gcc xwayland "
                              + "x11-xserver-utils)")
        }
        try super.setUpWithError()
        session = try PrivateBus()
        runtime = scratch + "/run"
        mkdir(runtime, 0o700)
    }

    override func tearDownWithError() throws {
        try super.tearDownWithError()
        session?.stop()
    }

    /// The seat client, built from its source and the protocol's description with the system's tools.
    func buildSeatClient() throws -> String {
        let dir = scratch + "/seat"
        mkdir(dir, 0o755)
        writeText(dir + "/virtual-pointer.xml", fixtureText("CompatTests/Fixtures/virtual-pointer.xml"))
        writeText(dir + "/seat.c", fixtureText("CompatTests/Fixtures/wayland-seat.c"))
        for step in [["wayland-scanner", "client-header", dir + "/virtual-pointer.xml", dir + "/virtual-pointer.h"],
                     ["wayland-scanner", "private-code", dir + "/virtual-pointer.xml", dir + "/virtual-pointer.c"],
                     ["gcc", "-o", dir + "/seat", "-I", dir, dir + "/seat.c", dir + "/virtual-pointer.c", "-lwayland-client"]] {
            let r = runTool(step, timeoutMs: 60_000)
            guard r.status == 0 else { throw DBusError.failed("\(step.joined(separator: " ")): \(r.stderr)") }
        }
        return dir + "/seat"
    }

    /// The session's environment; `desktop` is its XDG_CURRENT_DESKTOP (a Phosh session's, unless said).
    var environment: [String: String] { environment(desktop: "Phosh:GNOME") }

    func environment(desktop: String) -> [String: String] {
        ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": "wayland-0", "DBUS_SESSION_BUS_ADDRESS": session.address,
         "DBUS_SYSTEM_BUS_ADDRESS": bus.address, "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "GSETTINGS_BACKEND": "memory",
         "XDG_CURRENT_DESKTOP": desktop]
    }

    func start(_ argv: [String], name: String) throws -> Child {
        try world.start(argv, name: name, environment: environment)
    }

    /// The output's transform as `wlr-randr` prints it (`normal`, `90`, `180`, `270`).
    func transform() -> String? {
        var env = ["XDG_RUNTIME_DIR=\(runtime!)", "WAYLAND_DISPLAY=wayland-0"]
        env.insert("env", at: 0)
        let r = runTool(env + ["wlr-randr"])
        return r.stdout.split(separator: "\n").first { $0.contains("Transform:") }
            .map { $0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces) }
    }

    func expectTransform(_ expected: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let reached = waitUntil(5) { self.transform() == expected }
        XCTAssertTrue(reached, "\(what): the output's transform is \(transform() ?? "unknown"), not \(expected)\nphosh log:\n"
                      + readText(scratch + "/phosh-0.log").split(separator: "\n").suffix(10).joined(separator: "\n"), file: file, line: line)
    }

    /// Starts phoc, the seat and Phosh, and waits until Phosh claims the accelerometer.
    @discardableResult
    func startPhosh(seat: String, generation: Int = 0) throws -> Child {
        let phoc = try start(["phoc"], name: "phoc-\(generation)")
        XCTAssertTrue(waitUntil(10) { access(self.runtime + "/wayland-0", F_OK) == 0 }, "phoc did not come up:\n\(phoc.log)")
        let pointer = try start([seat], name: "seat-\(generation)")
        XCTAssertTrue(waitUntil(5) { pointer.log.contains("seat ready") }, "no seat:\n\(pointer.log)")
        _ = try start(["/usr/libexec/phosh", "--unlocked"], name: "phosh-\(generation)")
        return phoc
    }

    /// An unmodified application with the Wayland app id `id`, mapped.
    func startApplication(_ id: String, environment: [String: String]? = nil) throws {
        let script = scratch + "/gtk-window.py"
        if access(script, R_OK) != 0 { writeText(script, fixtureText("CompatTests/Fixtures/gtk-window.py")) }
        let app = try world.start(["/usr/bin/python3", script, id], name: "app-\(id)",
                                  environment: (environment ?? self.environment).merging(["GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1"]) { $1 })
        XCTAssertTrue(waitUntil(15) { app.log.contains("mapped") }, "\(id) was not mapped:\n\(app.log)")
    }

    /// A configuration whose applications directory has org.orientationd.Test.Landscape declare
    /// landscape; its path.
    func landscapeDeclaration() -> String {
        let share = scratch + "/share"
        mkdir(share, 0o755)
        mkdir(share + "/applications", 0o755)
        writeText(share + "/applications/org.orientationd.Test.Landscape.desktop",
                  "[Desktop Entry]\nType=Application\nName=Landscape\nExec=true\nX-Orientationd-SupportedOrientations=landscape;\n")
        writeText(scratch + "/orientationd.conf", "[Applications]\nDataDirs=\(share)\n")
        return scratch + "/orientationd.conf"
    }

    func focused() -> (String, String)? {
        guard let id = try? get("FocusedApplication").stringValue, let source = try? get("FocusedApplicationSource").stringValue
        else { return nil }
        return (id, source)
    }

    /// `orientationctl report-focus`, as the autostart entry starts it in a Phosh session: phoc
    /// offers the foreign-toplevel protocol, the application in front decides, and Phosh turns the
    /// output through the compatibility interface; also after phoc restarts.
    func testTheWaylandReporterLetsTheApplicationInFrontTurnPhosh() throws {
        let seat = try buildSeatClient()
        try startDaemon(["--sensor-proxy-compat", "--config", landscapeDeclaration()], waitFor: SensorProxy.busName)
        var phoc = try startPhosh(seat: seat)
        XCTAssertTrue(waitUntil(15) { (try? self.setDevice(1)) != nil && (try? self.deviceOrientation()) == 1 },
                      "Phosh did not claim the accelerometer:\n\(readText(scratch + "/phosh-0.log"))")
        expectTransform("normal", "upright")
        // What the package's XDG autostart entry starts (gnome-session runs it in Phosh's session).
        let command = try autostartCommand()
        let reporter = try world.start([command[0], "--address", bus.address] + command.dropFirst(),
                                       name: "report-focus", environment: environment.merging(["HOME": scratch]) { $1 })

        try startApplication("org.orientationd.Test.Landscape")
        XCTAssertTrue(waitUntil(10) { self.focused()?.0 == "org.orientationd.Test.Landscape" },
                      "FocusedApplication is \(String(describing: focused())):\n\(reporter.log)")
        XCTAssertEqual(focused()?.1, "desktop-file")
        expectTransform("270", "the landscape-only application in front turns Phosh's output, the device upright")
        try startApplication("org.orientationd.Test.Any")
        XCTAssertTrue(waitUntil(10) { self.focused()?.0 == "org.orientationd.Test.Any" }, reporter.log)
        expectTransform("normal", "an application without a declaration follows the device again")

        // phoc restarts (Phosh and the applications go with it): the reporter waits and reads the new one.
        phoc.kill9()
        XCTAssertTrue(waitUntil(10) { self.focused()?.0 == "" }, "the focus clears when phoc goes:\n\(reporter.log)")
        unlink(runtime + "/wayland-0")
        unlink(runtime + "/wayland-0.lock")
        phoc = try startPhosh(seat: seat, generation: 1)
        XCTAssertTrue(waitUntil(15) { reporter.log.contains("the compositor is back") }, reporter.log)
        try startApplication("org.orientationd.Test.Landscape")
        XCTAssertTrue(waitUntil(10) { self.focused()?.0 == "org.orientationd.Test.Landscape" }, reporter.log)
        expectTransform("270", "after phoc restarted, the landscape-only application turns the output again")
        XCTAssertTrue(reporter.isRunning, reporter.log)
    }

    func testPhoshTurnsItsOutputAsOrientationdDecides() throws {
        let seat = try buildSeatClient()
        try startDaemon(["--sensor-proxy-compat"], waitFor: SensorProxy.busName)
        try startPhosh(seat: seat)
        // Phosh claims the accelerometer once it runs: the device then reads a pose.
        XCTAssertTrue(waitUntil(15) { (try? self.setDevice(1)) != nil && (try? self.deviceOrientation()) == 1 },
                      "Phosh did not claim the accelerometer:\n\(readText(scratch + "/phosh-0.log"))")
        expectTransform("normal", "upright")

        try setDevice(3)
        expectTransform("270", "turned to landscape (right edge up)")
        try setDevice(4)
        expectTransform("90", "turned the other way")
        try setDevice(1)
        expectTransform("normal", "upright again")

        // The user's lock holds the screen whatever the device does; unlocking catches up.
        try set("RotationLocked", .bool(true))
        try setDevice(3)
        waitUntil(1.5) { false }
        XCTAssertEqual(transform(), "normal", "locked")
        try set("RotationLocked", .bool(false))
        expectTransform("270", "unlocked")

        // A landscape-left-only application mask turns the screen there, whatever the device says.
        try setDevice(1)
        expectTransform("normal", "upright before the mask")
        try set("ApplicationMask", .uint32(16))
        expectTransform("90", "the application allows landscape-left only")
        try setDevice(3)
        waitUntil(1.5) { false }
        XCTAssertEqual(transform(), "90", "the device turning elsewhere does not move it")
        // The mask reset, landscape-left is still allowed, so nothing turns (P9) until the app asks (P10).
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "ResetApplicationMask")
        waitUntil(1.5) { false }
        XCTAssertEqual(transform(), "90", "the mask reset: the current orientation is still allowed")
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "AttemptRotationToDeviceOrientation")
        expectTransform("270", "AttemptRotationToDeviceOrientation: the device's landscape")
    }

    // MARK: phoc alone: the session agent turns the panel

    /// phoc without Phosh, a plain wlroots compositor that offers output management and reports its
    /// head enabled: what the package's XDG autostart entry starts turns the panel with the device and
    /// with the application in front, the landscapes as `follow sway` and Phosh turn them (device
    /// right edge up: wl_output 270), and again after phoc restarts.
    func testTheSessionAgentTurnsAPlainWlrootsCompositorsPanel() throws {
        try startDaemon(["--config", landscapeDeclaration()])
        try setDevice(1)
        let plain = environment(desktop: "wlroots")
        var phoc = try world.start(["phoc"], name: "phoc-plain-0", environment: plain)
        XCTAssertTrue(waitUntil(10) { access(self.runtime + "/wayland-0", F_OK) == 0 }, "phoc did not come up:\n\(phoc.log)")
        expectTransform("normal", "phoc starts upright")
        let command = try autostartCommand()
        let agent = try world.start([command[0], "--address", bus.address] + command.dropFirst(), name: "report-focus",
                                    environment: plain.merging(["HOME": scratch]) { $1 })
        XCTAssertTrue(waitUntil(10) { agent.log.contains("turning HEADLESS-1 with orientationd's interface orientation") }, agent.log)

        // X11 clients see the turn through Xwayland's RandR, in xrandr's words (Docs/shells.md, "Transforms").
        let xwayland = try world.start(["Xwayland", ":47"], name: "xwayland", environment: plain)
        func xrandrRotation() -> String? {
            let r = runTool(["env", "DISPLAY=:47", "xrandr"])
            guard let line = r.stdout.split(separator: "\n").first(where: { $0.contains(" connected ") }) else { return nil }
            let words = line.split(separator: " ").map(String.init)
            // "XWAYLAND0 connected 720x1280+0+0 right (normal left …": the word before "(" when it names a rotation.
            guard let open = words.firstIndex(where: { $0.hasPrefix("(") }), open > 0 else { return nil }
            return ["left", "right", "inverted"].contains(words[open - 1]) ? words[open - 1] : "normal"
        }
        XCTAssertTrue(waitUntil(10) { xrandrRotation() != nil }, "no Xwayland:\n\(xwayland.log)")
        for (device, transform, xrandr, what) in [(UInt32(3), "270", "right", "right edge up: interface landscape-right, wl_output 270"),
                                                  (4, "90", "left", "left edge up: landscape-left, wl_output 90"),
                                                  (1, "normal", "normal", "upright again")] {
            try setDevice(device)
            expectTransform(transform, what)
            XCTAssertTrue(waitUntil(3) { xrandrRotation() == xrandr }, "\(what): xrandr says \(xrandrRotation() ?? "nothing"), not \(xrandr)")
        }
        xwayland.kill9()
        try startApplication("org.orientationd.Test.Landscape", environment: plain)
        XCTAssertTrue(waitUntil(10) { self.focused()?.0 == "org.orientationd.Test.Landscape" },
                      "FocusedApplication is \(String(describing: focused())):\n\(agent.log)")
        expectTransform("270", "the landscape-only application in front turns the panel, the device upright")

        // phoc restarts: the agent finds the new head, which starts upright, and turns it again.
        phoc.kill9()
        unlink(runtime + "/wayland-0")
        unlink(runtime + "/wayland-0.lock")
        phoc = try world.start(["phoc"], name: "phoc-plain-1", environment: plain)
        XCTAssertTrue(waitUntil(15) { agent.log.contains("the compositor is back") }, agent.log)
        try setDevice(3)
        expectTransform("270", "after phoc restarted, the device turned")
        XCTAssertTrue(agent.isRunning, agent.log)
        XCTAssertFalse(agent.log.contains("refused"), agent.log)
    }

    /// In a session that names GNOME the shell turns the screen: the agent turns nothing.
    func testTheSessionAgentLeavesAGnomeNamedSessionsScreenAlone() throws {
        try startDaemon([])
        try setDevice(1)
        let gnome = environment(desktop: "GNOME")
        let phoc = try world.start(["phoc"], name: "phoc-gnome", environment: gnome)
        XCTAssertTrue(waitUntil(10) { access(self.runtime + "/wayland-0", F_OK) == 0 }, "phoc did not come up:\n\(phoc.log)")
        let command = try autostartCommand()
        let agent = try world.start([command[0], "--address", bus.address] + command.dropFirst(), name: "report-focus",
                                    environment: gnome.merging(["HOME": scratch]) { $1 })
        try setDevice(3)
        waitUntil(1.5) { false }
        XCTAssertEqual(transform(), "normal", "the agent turned a GNOME session's screen:\n\(agent.log)")
        XCTAssertTrue(agent.isRunning, "phoc offers the foreign-toplevel protocol: the agent stays to report focus")
        XCTAssertFalse(agent.log.contains("turning"), agent.log)
    }
}
