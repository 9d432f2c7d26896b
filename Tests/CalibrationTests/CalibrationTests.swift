// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import Calibration
import Sensors

/// Every signed permutation of the three axes: the 48 ways a sensor can be mounted square to the device.
func signedPermutations() -> [MountMatrix] {
    var result: [MountMatrix] = []
    for permutation in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
        for signs in 0..<8 {
            var rows = [[Double]](repeating: [0, 0, 0], count: 3)
            for row in 0..<3 { rows[row][permutation[row]] = (signs >> row) & 1 == 0 ? 1 : -1 }
            result.append(try! MountMatrix(rows: rows))
        }
    }
    return result
}

/// What a sensor mounted with `matrix` reads raw when the device reads `device` (the matrix is
/// orthogonal: its transpose undoes it).
func raw(_ device: (Double, Double, Double), through matrix: MountMatrix) -> (x: Double, y: Double, z: Double) {
    let r = matrix.rows
    return (r[0][0] * device.0 + r[1][0] * device.1 + r[2][0] * device.2,
            r[0][1] * device.0 + r[1][1] * device.1 + r[2][1] * device.2,
            r[0][2] * device.0 + r[1][2] * device.1 + r[2][2] * device.2)
}

final class MountCalibrationTests: XCTestCase {
    let poses: [(MountCalibration.Pose, (Double, Double, Double))] = [(.upright, (0, -1, 0)), (.rightEdgeUp, (-1, 0, 0)), (.faceUp, (0, 0, 1))]

    func testEveryOneOfThe48MountsIsFound() {
        let mounts = signedPermutations()
        XCTAssertEqual(mounts.count, 48)
        XCTAssertEqual(Set(mounts.map(\.description)).count, 48)
        for mount in mounts {
            var calibration = MountCalibration()
            for (pose, device) in poses {
                // A little noise, as a hand holds it.
                let r = raw(device, through: mount)
                var readings: [(x: Double, y: Double, z: Double)] = []
                for i in 0..<20 {
                    let dx = 0.01 * Double(i % 3), dy = 0.01 * Double(i % 2)
                    readings.append((x: r.x + dx, y: r.y - dy, z: r.z + 0.02))
                }
                XCTAssertNoThrow(try calibration.take(pose, readings: readings), "\(mount) \(pose)")
            }
            XCTAssertEqual(calibration.matrix, mount)
            XCTAssertTrue(MountCalibration.isSignedPermutation(calibration.matrix!))
            XCTAssertEqual(abs(MountCalibration.determinant(mount)), 1)
        }
    }

    func testAMovedOffOrAmbiguousPoseIsRefusedWithItsReason() {
        var calibration = MountCalibration()
        func refusal(_ readings: [(x: Double, y: Double, z: Double)], _ pose: MountCalibration.Pose = .upright) -> String? {
            do { try calibration.take(pose, readings: readings) } catch { return error.message }
            return nil
        }
        XCTAssertEqual(refusal([(0, -1, 0), (0, -0.9, 0.1)])?.hasPrefix("the device moved"), true)
        XCTAssertEqual(refusal([(0, -1.3, 0)])?.hasPrefix("the magnitude read is 1.3 g"), true)
        XCTAssertEqual(refusal([(0.6, -0.8, 0)])?.hasPrefix("the pose is between two"), true)
        XCTAssertEqual(refusal([(0.4, -0.9, 0)])?.hasPrefix("the pose is between two"), true, "the next axis above 0.35 g")
        XCTAssertNil(refusal([(0, -1, 0)]))
        XCTAssertEqual(refusal([(0, 1, 0)], .rightEdgeUp)?.hasPrefix("gravity is along the sensor's y axis again, as in the upright pose"), true)
        XCTAssertNil(calibration.matrix, "two poses are not enough")
        XCTAssertNil(refusal([(1, 0, 0)], .rightEdgeUp))
        XCTAssertNil(refusal([(0, 0, -1)], .faceUp))
        XCTAssertEqual(calibration.matrix?.description, "-1, 0, 0; 0, 1, 0; 0, 0, -1")
    }
}

final class HwdbEntryTests: XCTestCase {
    let dmi = "dmi:bvnLENOVO:bvrN2HET53W(1.36):bd04/01/2020:br1.36:efr1.21:svnLENOVO:pn20QF00B8GE:pvrThinkPadX1Yoga4th:rvnLENOVO:rn20QF00B8GE:rvrSDK0J40697WIN:cvnLENOVO:ct31:cvrNone:skuLENOVO_MT_20QF_BU_Think_FM_ThinkPadX1Yoga4th:"

    func testTheMatchLineIsBuiltAsSystemdsHeaderSays() {
        let entry = HwdbEntry(parentModalias: "acpi:BOSC0200:BOSC0200:", dmi: dmi, label: nil,
                              matrix: try! MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1"), vendor: "LENOVO", product: "20QF00B8GE")
        XCTAssertEqual(entry.match, "sensor:modalias:acpi:BOSC0200*:dmi:*:svnLENOVO:pn20QF00B8GE:pvrThinkPadX1Yoga4th:*")
        XCTAssertEqual(entry.text, "# LENOVO 20QF00B8GE\nsensor:modalias:acpi:BOSC0200*:dmi:*:svnLENOVO:pn20QF00B8GE:pvrThinkPadX1Yoga4th:*\n"
                       + " ACCEL_MOUNT_MATRIX=0, -1, 0; 1, 0, 0; 0, 0, 1\n")
    }

    func testOtherVendorsKeepVendorAndProductAndAPlaceholderNameKeepsTheSKU() {
        let other = HwdbEntry(parentModalias: "i2c:bmc150_accel", dmi: "dmi:bvnAmerican:bd01/01/2021:svnCHUWIInnovationAndTechnology(ShenZhen)co.,Ltd:pnMiniBookX:pvrDefaultString:rvnDefaultstring:cvnDefaultstring:ct9:skuCWI526:",
                              label: "accel-base", matrix: .identity, vendor: "CHUWI Innovation", product: "MiniBook X")
        XCTAssertEqual(other.match, "sensor:accel-base:modalias:i2c:bmc150_accel*:dmi:*:svnCHUWIInnovationAndTechnology(ShenZhen)co.,Ltd:pnMiniBookX:*")
        let placeholder = HwdbEntry(parentModalias: "acpi:KIOX000A:KIOX000A:", dmi: "dmi:bvnINSYDE:svnDefaultstring:pnDefaultstring:pvrV1.0:skuT2B:",
                                    label: nil, matrix: .identity, vendor: "Default string", product: "Default string")
        XCTAssertEqual(placeholder.match, "sensor:modalias:acpi:KIOX000A*:dmi:*:svnDefaultstring:pnDefaultstring:*:skuT2B:*")
        XCTAssertTrue(placeholder.match.unicodeScalars.allSatisfy { $0.isASCII && $0 != " " })
    }
}

final class HingeCalibrationTests: XCTestCase {
    func testAHingeThatStopsShortGetsThresholdsItReaches() throws {
        var calibration = HingeCalibration()
        for (step, angle) in [(HingeCalibration.Step.closed, 0.0), (.laptop, 100), (.flat, 128), (.foldedBack, 152)] {
            calibration.observe(angle - 1)
            calibration.confirm(step, at: angle)
        }
        let t = try calibration.thresholds()
        XCTAssertEqual(t.hysteresis, 2)
        XCTAssertEqual(t.laptopAngle, 130)
        XCTAssertEqual(t.tabletAngle, 148)
        XCTAssertLessThanOrEqual(t.tabletAngle + t.hysteresis, 152, "entered before the fold's end")
        XCTAssertNil(t.inconsistency)
        XCTAssertEqual(t.posture(hinge: 152, keyboard: nil, displayUpsideDown: false, previous: .laptop), .tablet)
        XCTAssertEqual(t.posture(hinge: 100, keyboard: nil, displayUpsideDown: false, previous: .tablet), .laptop)
        XCTAssertEqual(PostureThresholds().posture(hinge: 152, keyboard: nil, displayUpsideDown: false, previous: .laptop), .laptop,
                       "never a tablet with the defaults")
    }

    func testAFullHingeKeepsTheDefaults() throws {
        var calibration = HingeCalibration()
        for (step, angle) in [(HingeCalibration.Step.closed, 0.0), (.laptop, 110), (.flat, 180), (.foldedBack, 360)] { calibration.confirm(step, at: angle) }
        let t = try calibration.thresholds()
        XCTAssertEqual([t.laptopAngle, t.tabletAngle, t.hysteresis], [190, 340, 10])
    }

    func testOutOfOrderOrTooShortFoldsAreRefused() {
        var backwards = HingeCalibration()
        for (step, angle) in [(HingeCalibration.Step.closed, 0.0), (.laptop, 130), (.flat, 120), (.foldedBack, 150)] { backwards.confirm(step, at: angle) }
        XCTAssertThrowsError(try backwards.thresholds()) { XCTAssertTrue(($0 as! HingeCalibration.Refusal).message.hasPrefix("the angles did not grow")) }
        var short = HingeCalibration()
        for (step, angle) in [(HingeCalibration.Step.closed, 0.0), (.laptop, 100), (.flat, 150), (.foldedBack, 153)] { short.confirm(step, at: angle) }
        XCTAssertThrowsError(try short.thresholds()) { XCTAssertTrue(($0 as! HingeCalibration.Refusal).message.hasPrefix("the hinge folds back only 3°")) }
    }
}
