// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import Orientation
@testable import DesktopSession

/// The parts of `follow` that need no compositor: reading sway's JSON, choosing the output, finding the
/// focused window, and the environment `follow exec` gives its command. The whole of it runs against a
/// real headless sway in CLITests (FollowSwayTests, FollowExecTests).
final class DesktopSessionTests: XCTestCase {
    private func parse(_ text: String) throws -> JSON { try XCTUnwrap(JSON(parsing: Array(text.utf8)), text) }

    func testSwaysRepliesAreRead() throws {
        let reply = try parse(#"[{"success": true}, {"success": false, "error": "bad \"quote\" \u00e9"}]"#)
        XCTAssertEqual(reply.arrayValue?.count, 2)
        XCTAssertEqual(reply.arrayValue?.first?["success"]?.boolValue, true)
        XCTAssertEqual(reply.arrayValue?.last?["error"]?.stringValue, "bad \"quote\" é")
        XCTAssertEqual(try parse(#"{"pid": 4242, "rect": {"x": -1.5}}"#)["pid"]?.intValue, 4242)
        XCTAssertNil(JSON(parsing: Array(#"{"pid": "#.utf8)), "a truncated payload is no JSON")
        XCTAssertNil(JSON(parsing: Array("[1, 2".utf8)))
    }

    func testTheBuiltInPanelIsChosenElseTheFirstActiveOutput() throws {
        let outputs = try XCTUnwrap(try parse(#"""
            [{"name": "HDMI-A-1", "active": true}, {"name": "eDP-1", "active": true}, {"name": "DP-2", "active": false}]
            """#).arrayValue)
        XCTAssertEqual(SwayScreen.builtInOutput(outputs), "eDP-1")
        XCTAssertEqual(SwayScreen.builtInOutput(Array(outputs.prefix(1))), "HDMI-A-1")
        XCTAssertNil(SwayScreen.builtInOutput([try parse(#"{"name": "DP-2", "active": false}"#)]))
    }

    func testAnOutputNameIsOneQuotedWordInASwayCommand() {
        XCTAssertEqual(SwayScreen.quoted("eDP-1"), #""eDP-1""#)
        XCTAssertEqual(SwayScreen.quoted(#"odd "name" \ here"#), #""odd \"name\" \\ here""#)
    }

    func testTheFocusedViewIsFoundInTilingAndFloatingNodes() throws {
        let tree = try parse(#"""
            {"focused": false, "nodes": [{"focused": false, "nodes": [{"focused": false, "pid": 1}]}],
             "floating_nodes": [{"focused": true, "pid": 77}]}
            """#)
        XCTAssertEqual(SwayScreen.focusedNode(tree)?["pid"]?.intValue, 77)
        XCTAssertNil(SwayScreen.focusedNode(try parse(#"{"focused": false, "nodes": []}"#)))
    }

    func testFollowExecGivesEachToolItsOwnWordForTheOrientation() {
        XCTAssertEqual(CommandScreen.environment(.landscapeRight), [
            "ORIENTATION=landscape-right", "ORIENTATION_DEGREES=90", "ORIENTATION_TRANSFORM=270",
            "ORIENTATION_WL_TRANSFORM=3", "ORIENTATION_SWAY_TRANSFORM=90", "ORIENTATION_XRANDR=right",
        ])
        XCTAssertEqual(CommandScreen.environment(.portrait).first, "ORIENTATION=portrait")
    }
}
