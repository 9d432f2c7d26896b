// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
@testable import DesktopSession

/// What `report-focus` makes of `orientationd-toplevels`' lines, and what it sends.
final class ToplevelFocusTests: XCTestCase {
    func testEachLineOfTheHelperIsAView() {
        XCTAssertEqual(ToplevelFocus.view("none"), FocusedView.none)
        XCTAssertEqual(ToplevelFocus.view("activated 0 0 org.gnome.Maps"),
                       FocusedView(application: "org.gnome.Maps", process: 0, fillsScreen: false))
        XCTAssertEqual(ToplevelFocus.view("activated 1 0 org.example.Video")?.fillsScreen, true, "fullscreen")
        XCTAssertEqual(ToplevelFocus.view("activated 0 1 org.example.Video")?.fillsScreen, true, "maximized")
        XCTAssertEqual(ToplevelFocus.view("activated 0 0 Some X11 Class"), FocusedView(application: "", process: 0, fillsScreen: false),
                       "an id orientationd would refuse is sent as none")
        XCTAssertEqual(ToplevelFocus.view("activated 0 0 "), FocusedView(application: "", process: 0, fillsScreen: false))
        XCTAssertNil(ToplevelFocus.view("ready"))
        XCTAssertNil(ToplevelFocus.view("activated x 0 org.gnome.Maps"))
        XCTAssertNil(ToplevelFocus.view(""))
    }

    func testTheReportCarriesTheWindowAndTheUsersOwnFile() throws {
        var template = Array("/tmp/orientationd-user-XXXXXX".utf8CString)
        let root = String(cString: try XCTUnwrap(mkdtemp(&template)))
        defer { _ = system("rm -rf '\(root)'") }
        mkdir(root + "/applications", 0o755)
        let file = root + "/applications/org.example.Mine.desktop"
        let text = "[Desktop Entry]\nName=Mine\nX-Ubuntu-Supported-Orientations=landscape\nExec=x\n[Desktop Action new]\n"
            + "X-Orientationd-SupportedOrientations=portrait;\n"
        let stream = try XCTUnwrap(fopen(file, "w"))
        XCTAssertGreaterThanOrEqual(fputs(text, stream), 0)
        XCTAssertEqual(fclose(stream), 0)
        let files = UserDesktopFiles(directories: [root + "/applications"])
        XCTAssertEqual(files.orientationKeys(of: "org.example.Mine"), ["X-Ubuntu-Supported-Orientations": "landscape"],
                       "only [Desktop Entry]'s orientation keys")
        XCTAssertEqual(files.orientationKeys(of: "org.example.Other"), [:])
        XCTAssertEqual(files.orientationKeys(of: "../applications/org.example.Mine"), [:], "no path from an id that is none")

        let arguments = FocusReporter.arguments(FocusedView(application: "org.example.Mine", process: 7, fillsScreen: true), files)
        XCTAssertEqual(arguments, [.string("org.example.Mine"), .uint32(7), .dict(keySignature: "s", valueSignature: "v", [
            (.string("fullscreen"), .variant(.bool(true))),
            (.string("user-desktop-file"), .variant(.dict(keySignature: "s", valueSignature: "s",
                                                          [(.string("X-Ubuntu-Supported-Orientations"), .string("landscape"))]))),
        ])])
        XCTAssertEqual(FocusReporter.arguments(.none, files), [.string(""), .uint32(0), .dict(keySignature: "s", valueSignature: "v", [])],
                       "nothing in front: no details")
    }
}
