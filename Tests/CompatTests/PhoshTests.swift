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
        for tool in ["phoc", "/usr/libexec/phosh", "wlr-randr", "wayland-scanner", "gcc"] where !toolExists(tool) && access(tool, X_OK) != 0 {
            throw unavailable("\(tool) is not installed (apt: phosh phoc wlr-randr gnome-settings-daemon-common libwayland-dev gcc)")
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

    var environment: [String: String] {
        ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": "wayland-0", "DBUS_SESSION_BUS_ADDRESS": session.address,
         "DBUS_SYSTEM_BUS_ADDRESS": bus.address, "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "GSETTINGS_BACKEND": "memory"]
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
                      + readText(scratch + "/phosh.log").split(separator: "\n").suffix(10).joined(separator: "\n"), file: file, line: line)
    }

    func testPhoshTurnsItsOutputAsOrientationdDecides() throws {
        let seat = try buildSeatClient()
        try startDaemon(["--sensor-proxy-compat"], waitFor: SensorProxy.busName)
        let phoc = try start(["phoc"], name: "phoc")
        XCTAssertTrue(waitUntil(10) { access(self.runtime + "/wayland-0", F_OK) == 0 }, "phoc did not come up:\n\(phoc.log)")
        let pointer = try start([seat], name: "seat")
        XCTAssertTrue(waitUntil(5) { pointer.log.contains("seat ready") }, "no seat:\n\(pointer.log)")
        _ = try start(["/usr/libexec/phosh", "--unlocked"], name: "phosh")
        // Phosh claims the accelerometer once it runs: the device then reads a pose.
        XCTAssertTrue(waitUntil(15) { (try? self.setDevice(1)) != nil && (try? self.deviceOrientation()) == 1 },
                      "Phosh did not claim the accelerometer:\n\(readText(scratch + "/phosh.log"))")
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
}
