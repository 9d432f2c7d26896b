// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import OrientationAPI

/// The contract's names, spelled out here as dbus-api.md and sensors.md write them: every other
/// test and the daemon take them from OrientationAPI, so a renamed constant fails here.
final class NameTests: XCTestCase {
    func testOrientationNamesAreTheContracts() {
        XCTAssertEqual(Orientation1.busName, "org.orientationd.Orientation1")
        XCTAssertEqual(Orientation1.managerPath, "/org/orientationd/Orientation1")
        XCTAssertEqual(Orientation1.managerInterface, "org.orientationd.Orientation1")
        XCTAssertEqual(Orientation1.windowInterface, "org.orientationd.Orientation1.Window")
        XCTAssertEqual(Orientation1.controllerInterface, "org.orientationd.Orientation1.Controller")
        XCTAssertEqual(Orientation1.errorName("NoCommonOrientation"), "org.orientationd.Orientation1.Error.NoCommonOrientation")
    }

    func testSensorProxyNamesAreIioSensorProxys() {
        XCTAssertEqual(SensorProxy.busName, "net.hadess.SensorProxy")
        XCTAssertEqual(SensorProxy.path, "/net/hadess/SensorProxy")
        XCTAssertEqual(SensorProxy.interface, "net.hadess.SensorProxy")
    }

    func testObjectPathsRoundTripAndRejectWhatTheDaemonNeverWrites() {
        XCTAssertEqual(Orientation1.windowPath(7), "/org/orientationd/Orientation1/window/7")
        XCTAssertEqual(Orientation1.controllerPath(12), "/org/orientationd/Orientation1/controller/12")
        XCTAssertEqual(Orientation1.windowNumber(at: Orientation1.windowPath(4_000_000_000)), 4_000_000_000)
        // Past 32 bits: a long-running daemon's counters never wrap.
        XCTAssertEqual(Orientation1.controllerNumber(at: Orientation1.controllerPath(UInt64(UInt32.max) + 1)), 4_294_967_296)
        XCTAssertEqual(Orientation1.controllerNumber(at: Orientation1.controllerPath(1)), 1)
        for bad in ["/org/orientationd/Orientation1/window/", "/org/orientationd/Orientation1/window/07",
                    "/org/orientationd/Orientation1/window/-1", "/org/orientationd/Orientation1/window/1/x",
                    "/org/orientationd/Orientation1/window/99999999999999999999", "/org/orientationd/Orientation1/controller/1", "/"] {
            XCTAssertNil(Orientation1.windowNumber(at: bad), bad)
        }
        XCTAssertNil(Orientation1.controllerNumber(at: Orientation1.windowPath(1)))
    }
}
