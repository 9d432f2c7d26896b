// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import DBus

/// Callers match standard errors by kind, never by spelling their names.
final class DBusErrorKindTests: XCTestCase {
    func testStandardNamesHaveTheirKindAndOthersNone() {
        XCTAssertEqual(DBusError(name: "org.freedesktop.DBus.Error.ServiceUnknown", message: "").kind, .serviceUnknown)
        XCTAssertEqual(DBusError(name: "org.freedesktop.DBus.Error.NameHasNoOwner", message: "").kind, .nameHasNoOwner)
        XCTAssertEqual(DBusError.invalidArgs("x").kind, .invalidArgs)
        XCTAssertEqual(DBusError.limitsExceeded("x").kind, .limitsExceeded)
        XCTAssertNil(DBusError(name: "org.orientationd.Orientation1.Error.InUse", message: "").kind)
        XCTAssertNil(DBusError(name: "org.freedesktop.DBus.Error.SomethingNew", message: "").kind)
        XCTAssertNil(DBusError(name: "org.freedesktop.DBus.ErrorInvalidArgs", message: "").kind)
        XCTAssertEqual(DBusError.Kind.nameHasNoOwner.name, "org.freedesktop.DBus.Error.NameHasNoOwner")
        XCTAssertEqual(DBusError.Kind.badAddress.name, DBusError.standardName("BadAddress"))
    }
}
