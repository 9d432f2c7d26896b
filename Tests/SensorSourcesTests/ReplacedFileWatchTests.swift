// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
@testable import SensorSources
import SystemCalls
import TestSupport

/// The watch for replaced attribute files is made only where files can be replaced: never on the
/// kernel's sysfs, whose attributes a poll then reads with nothing else.
final class ReplacedFileWatchTests: XCTestCase {
    func testNoWatchOnTheKernelsSysfs() throws {
        guard FileSystem.isSysfs("/sys/kernel") else { throw unavailable("/sys is not sysfs here") }
        XCTAssertNil(ReplacedFileWatch(paths: ["/sys/kernel/uevent_seqnum"]), "sysfs never replaces an attribute")
    }

    func testAReplacedFileOutsideSysfsIsSeen() throws {
        let directory = makeTempDirectory("orientationd-replaced")
        defer { _ = runTool(["rm", "-rf", directory]) }
        XCTAssertFalse(FileSystem.isSysfs(directory))
        writeText(directory + "/in_accel_x_raw", "1\n")
        let watch = try XCTUnwrap(ReplacedFileWatch(paths: [directory + "/in_accel_x_raw"]))
        watch.refresh()
        XCTAssertFalse(watch.anyReplaced)
        writeText(directory + "/new", "2\n")
        XCTAssertEqual(rename(directory + "/new", directory + "/in_accel_x_raw"), 0)
        watch.refresh()
        XCTAssertTrue(watch.takeReplaced(0), "a file renamed over the attribute is a replacement")
        XCTAssertFalse(watch.directoryRemoved)
    }
}
