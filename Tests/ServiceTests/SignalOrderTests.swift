// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// dbus-api.md, "Signals": the order of one rotation and of a device change.
final class SignalOrderTests: DaemonTestCase {
    override class var inProcess: Bool { true }
    override var configText: String? { "[Screen]\nPortraitSize=1080x1920\n" }

    func testOneRotationIsWillChangeThenPropertiesChangedThenDidChange() throws {
        let app = try newClient()
        try claim(app)
        let recorder = try newRecorder()
        try setDevice(3)
        XCTAssertTrue(recorder.wait { $0.member == "DidChange" }, "\(recorder.events)")
        recorder.settle()
        let events = recorder.managerEvents

        // Device first: its PropertiesChanged and DeviceOrientationDidChange, before the WillChange it causes.
        guard let devicePC = events.firstIndex(where: { $0.changed["DeviceOrientation"] != nil }),
              let deviceSignal = events.firstIndex(where: { $0.member == "DeviceOrientationDidChange" }),
              let will = events.firstIndex(where: { $0.member == "WillChange" }),
              let interfacePC = events.firstIndex(where: { $0.changed["InterfaceOrientation"] != nil }),
              let did = events.firstIndex(where: { $0.member == "DidChange" })
        else { return XCTFail("missing signals: \(events)") }
        XCTAssertEqual(events[devicePC].changed["DeviceOrientation"], .uint32(3))
        XCTAssertEqual(events[deviceSignal].uints, [3])
        XCTAssertEqual(events[will].uints, [1, 3])
        XCTAssertEqual(events[did].uints, [1, 3])
        XCTAssertEqual(events[interfacePC].changed["InterfaceOrientation"], .uint32(3))
        XCTAssertEqual(events[interfacePC].changed["ScreenBounds"], .structure([.uint32(1920), .uint32(1080)]),
                       "landscape bounds come with the orientation")
        XCTAssertLessThan(devicePC, will, "\(events)")
        XCTAssertLessThan(deviceSignal, will, "\(events)")
        XCTAssertLessThan(will, interfacePC, "\(events)")
        XCTAssertLessThan(interfacePC, did, "\(events)")
        XCTAssertEqual(recorder.count("WillChange"), 1)
        XCTAssertEqual(recorder.count("DidChange"), 1)
        XCTAssertEqual(events.filter { $0.changed["InterfaceOrientation"] != nil }.count, 1, "announced once: \(events)")
        XCTAssertEqual(try get("ScreenBounds"), .structure([.uint32(1920), .uint32(1080)]))

        // Back to portrait: bounds swap back.
        recorder.clear()
        try setDevice(1)
        XCTAssertTrue(recorder.wait { $0.member == "DidChange" })
        let back = recorder.managerEvents.map(\.description)
        XCTAssertEqual(back.filter { !$0.hasPrefix("PC") }, ["DeviceOrientationDidChange(1)", "WillChange(3,1)", "DidChange(3,1)"])
        XCTAssertEqual(recorder.events.last(where: { $0.changed["ScreenBounds"] != nil })?.changed["ScreenBounds"],
                       .structure([.uint32(1080), .uint32(1920)]))
    }

    /// Window and controller objects announce their own changes too (PropertiesChanged on every object).
    func testPropertiesChangedOnWindowsAndControllers() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let home = try createController(app)
        let recorder = try newRecorder()
        try setRoot(app, window, home)
        try set("SupportedMask", .uint32(2), home, on: app)
        // Announced once per turn of the daemon's loop, just after the replies: wait for each.
        XCTAssertTrue(recorder.wait { $0.path == window && $0.changed["EffectiveMask"] == .uint32(2) }, "\(recorder.events)")
        XCTAssertTrue(recorder.wait { $0.path == window && $0.changed["RootController"] == .objectPath(home) }, "\(recorder.events)")
        XCTAssertTrue(recorder.wait { $0.path == home && $0.changed["SupportedMask"] == .uint32(2) }, "\(recorder.events)")
        XCTAssertTrue(recorder.wait { $0.path == Orientation1.managerPath && $0.changed["SupportedMask"] == .uint32(2) },
                      "\(recorder.events)")
    }
}

/// With `[Rotation] Duration=0.3`: DidChange comes no sooner, and rotations never overlap (P14).
final class RotationDurationTests: DaemonTestCase {
    override class var inProcess: Bool { true }
    override var configText: String? { "[Rotation]\nDuration=0.3\n" }

    func testDidChangeComesAfterTheDurationAndDecisionsWaitForIt() throws {
        XCTAssertEqual(try get("RotationDuration").doubleValue, 0.3)
        let app = try newClient()
        try claim(app)
        let recorder = try newRecorder()
        try setDevice(3)
        XCTAssertTrue(recorder.wait { $0.member == "WillChange" })
        XCTAssertEqual(try u("InterfaceOrientation"), 3, "InterfaceOrientation reads the target during the transition")

        // A decision taken during the transition waits for its DidChange.
        try setDevice(1)
        XCTAssertEqual(try u("DeviceOrientation"), 1, "the device itself changes at once")
        XCTAssertTrue(recorder.wait(timeout: 3) { $0.member == "DidChange" && $0.uints == [3, 1] }, "\(recorder.events)")

        let rotations = recorder.managerEvents.filter { $0.member == "WillChange" || $0.member == "DidChange" }
        XCTAssertEqual(rotations.map(\.description), ["WillChange(1,3)", "DidChange(1,3)", "WillChange(3,1)", "DidChange(3,1)"])
        guard rotations.count == 4 else { return }
        XCTAssertGreaterThanOrEqual(rotations[1].time - rotations[0].time, 0.28, "first DidChange too early")
        XCTAssertGreaterThanOrEqual(rotations[3].time - rotations[2].time, 0.28, "second DidChange too early")
        XCTAssertGreaterThanOrEqual(rotations[2].time, rotations[1].time, "no overlap")
        // The second device change was announced before the first rotation finished.
        let secondDevice = recorder.managerEvents.firstIndex { $0.member == "DeviceOrientationDidChange" && $0.uints == [1] }
        let firstDid = recorder.managerEvents.firstIndex { $0.member == "DidChange" }
        XCTAssertNotNil(secondDevice)
        if let secondDevice, let firstDid { XCTAssertLessThan(secondDevice, firstDid) }
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
    }

    /// A duration that is not a whole number of milliseconds: DidChange still comes no sooner than it.
    /// 10.9 ms cut to 10 ms would arrive early nearly every time; the median of several rotations
    /// keeps one late delivery from deciding. The call is made without blocking, so this process's
    /// loop is waiting when the signals come and their times are the arrival times.
    func testDidChangeIsNeverEarlierThanAFractionalDuration() throws {
        stopDaemon()
        try startDaemon(config: "[Rotation]\nDuration=0.0109\n")
        let app = try newClient()
        try claim(app)
        let recorder = try newRecorder()
        var intervals: [Double] = []
        for (n, device) in (0..<15).map({ $0 % 2 == 0 ? 3 : 1 }).enumerated() {
            recorder.clear()
            try send(Orientation1.managerPath, Orientation1.managerInterface, "SetDeviceOrientation", [.uint32(UInt32(device))])
            XCTAssertTrue(recorder.wait { $0.member == "DidChange" }, "rotation \(n): \(recorder.events)")
            guard let will = recorder.events.first(where: { $0.member == "WillChange" }),
                  let did = recorder.events.first(where: { $0.member == "DidChange" }) else { continue }
            intervals.append(did.time - will.time)
        }
        let median = intervals.sorted()[intervals.count / 2]
        XCTAssertGreaterThanOrEqual(median, 0.0109, "WillChange to DidChange: \(intervals.map { String(format: "%.2f ms", $0 * 1000) })")
    }

    /// A presentation made during a transition still counts as a presentation afterwards (P14).
    func testPresentationDuringATransitionIsAppliedAfterDidChange() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let home = try createController(app)
        try setRoot(app, window, home)
        try claim(app)
        let recorder = try newRecorder()
        try setDevice(3)
        XCTAssertTrue(recorder.wait { $0.member == "WillChange" })
        let sheet = try createController(app, preferred: 4)
        try ctl(app, home, "PresentViewController", [.objectPath(sheet)])
        XCTAssertTrue(recorder.wait(timeout: 3) { $0.member == "DidChange" && $0.uints == [3, 4] }, "\(recorder.events)")
        let rotations = recorder.managerEvents.filter { $0.member == "WillChange" || $0.member == "DidChange" }.map(\.description)
        XCTAssertEqual(rotations, ["WillChange(1,3)", "DidChange(1,3)", "WillChange(3,4)", "DidChange(3,4)"])
    }
}
