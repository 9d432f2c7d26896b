// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Foundation
import XCTest
import TestSupport

/// `orientationctl config`: the configuration in force, read as the daemon reads it, each key with its file.
final class ConfigCommandTests: XCTestCase {
    func testEachKeyInForceIsPrintedWithTheFileItCameFrom() throws {
        let directory = makeTempDirectory("orientationd-config")
        defer { _ = runTool(["rm", "-rf", directory]) }
        try FileManager.default.createDirectory(atPath: directory + "/o.conf.d", withIntermediateDirectories: true)
        writeText(directory + "/o.conf", "[Compat]\nSensorProxy=false\n[Rotation]\nDuration=0.3\n")
        writeText(directory + "/o.conf.d/50-sensor-proxy.conf", "[Compat]\nSensorProxy=true\n")
        writeText(directory + "/machine-info", "CHASSIS=convertible\n")
        let result = runTool([programsDirectory() + "/orientationctl", "config", "--config", directory + "/o.conf",
                              "--machine-info", directory + "/machine-info"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, """
            # read \(directory)/o.conf
            # read \(directory)/o.conf.d/50-sensor-proxy.conf

            [Compat]
            SensorProxy=true  # \(directory)/o.conf.d/50-sensor-proxy.conf

            [Rotation]
            Duration=0.3  # \(directory)/o.conf

            # Idiom in force: tablet (Idiom=auto, chassis convertible from CHASSIS= in \(directory)/machine-info)

            """)

        writeText(directory + "/o.conf.d/60-bad.conf", "[Rotation]\nDuration=9\n")
        let bad = runTool([programsDirectory() + "/orientationctl", "config", "--config", directory + "/o.conf"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.stderr, "orientationctl: \(directory)/o.conf.d/60-bad.conf: [Rotation] Duration=9: accepted: seconds from 0 to 5, e.g. 0.3\n")
    }
}
