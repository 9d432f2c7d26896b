// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import Orientation
@testable import Sensors

let g = ClassifierSettings.gravity

/// Feeds samples every `step` ms and returns every orientation reported, in order.
func classify(_ samples: [Sample], settings: ClassifierSettings = ClassifierSettings()) -> [DeviceOrientation] {
    var classifier = Classifier(settings: settings)
    return samples.compactMap { classifier.add($0) }
}

/// As `classify`, with the time of the sample that gave each report.
func classifyTimed(_ samples: [Sample], settings: ClassifierSettings = ClassifierSettings()) -> [(t: Double, o: DeviceOrientation)] {
    var classifier = Classifier(settings: settings)
    return samples.compactMap { s in classifier.add(s).map { (s.t, $0) } }
}

/// A pose held for `ms`, sampled every 50 ms from `start`.
func hold(_ x: Double, _ y: Double, _ z: Double, from start: Double, ms: Double, step: Double = 50) -> [Sample] {
    stride(from: start, to: start + ms, by: step).map { Sample(t: $0, x: x, y: y, z: z) }
}

/// The device upright, turned by `degrees` in the screen's plane (0 portrait, +90 left edge up).
func upright(_ degrees: Double, tilt: Double = 0, scale: Double = 1) -> (Double, Double, Double) {
    let a = degrees * .pi / 180, t = tilt * .pi / 180
    return (g * scale * sin(a) * cos(t), -g * scale * cos(a) * cos(t), g * scale * sin(t))
}

final class ClassifierTests: XCTestCase {
    func testPeerVectorsGiveTheSixPoses() {
        let vectors: [((Double, Double, Double), DeviceOrientation)] = [
            ((0, -g, 0), .portrait), ((0, g, 0), .portraitUpsideDown), ((-g, 0, 0), .landscapeLeft),
            ((g, 0, 0), .landscapeRight), ((0, 0, g), .faceUp), ((0, 0, -g), .faceDown),
        ]
        for (v, expected) in vectors {
            XCTAssertEqual(classify(hold(v.0, v.1, v.2, from: 0, ms: 300)), [expected], "\(v)")
        }
        // The raw-integer form with scale 9.81/256.
        let scale = 9.81 / 256
        XCTAssertEqual(classify(hold(256 * scale, 0, 0, from: 0, ms: 300)), [.landscapeRight])
    }

    func testGatesDropNonFiniteAndAbsurdSamples() {
        var classifier = Classifier()
        XCTAssertNil(classifier.add(Sample(t: 0, x: .nan, y: -g, z: 0)))
        XCTAssertNil(classifier.add(Sample(t: 50, x: .infinity, y: -g, z: 0)))
        XCTAssertNil(classifier.add(Sample(t: 100, x: 0, y: -5 * g, z: 0)))
        XCTAssertNil(classifier.deadline, "nothing was proposed from dropped samples")
        XCTAssertEqual(classifier.reported, .unknown)
    }

    func testAcceleratingHoldsOffUntilSteady() {
        // Shaken at 2 g until 500 ms, then held in landscape: nothing before 500 + 300 ms.
        var samples = hold(0, -2 * g, 0, from: 0, ms: 500)
        samples += hold(-g, 0, 0, from: 500, ms: 600)
        var classifier = Classifier()
        var reports: [(Double, DeviceOrientation)] = []
        for s in samples { if let o = classifier.add(s) { reports.append((s.t, o)) } }
        XCTAssertEqual(reports.map(\.1), [.landscapeLeft])
        XCTAssertGreaterThanOrEqual(reports[0].0, 450 + 300, "the last shaken sample is at 450 ms")
    }

    func testSettleIgnoresASwingShorterThanTheSettleTime() {
        var samples = hold(0, -g, 0, from: 0, ms: 300)
        // Two samples 50 ms apart in landscape, 20° apart: moving through it, not settled.
        for (t, degrees) in [(300.0, 80.0), (350, 100)] {
            let (x, y, z) = upright(degrees)
            samples.append(Sample(t: t, x: x, y: y, z: z))
        }
        samples += hold(0, -g, 0, from: 400, ms: 300)
        XCTAssertEqual(classify(samples), [.portrait])
    }

    func testAPoseAtRestIsReportedAfterTheRestTimeBeforeTheSettleTime() {
        var classifier = Classifier()
        for s in hold(0, -g, 0, from: 0, ms: 300) { _ = classifier.add(s) }
        XCTAssertEqual(classifier.reported, .portrait)
        XCTAssertNil(classifier.add(Sample(t: 1000, x: g, y: 0, z: 0)), "the first sample of the new pose")
        XCTAssertNil(classifier.add(Sample(t: 1010, x: g + 0.3, y: 0.2, z: 0)), "within the tolerance, 10 ms: not yet")
        XCTAssertEqual(classifier.add(Sample(t: 1020, x: g - 0.2, y: 0.1, z: 0.1)), .landscapeRight,
                       "held within 0.5 m/s² for the 20 ms rest time, 80 ms before the settle time")
        XCTAssertNil(classifier.deadline)
    }

    func testAMovingPoseWaitsForTheSettleTime() {
        var settings = ClassifierSettings()
        settings.turnRate = 1000   // 300°/s is not a turn here: the rest rule alone is shown
        var classifier = Classifier(settings: settings)
        for s in hold(0, -g, 0, from: 0, ms: 300) { _ = classifier.add(s) }
        // Landscape throughout, but turning 3° every 10 ms: each sample strays from the last rest.
        var reports: [(Double, DeviceOrientation)] = []
        for step in 0..<12 {
            let (x, y, z) = upright(70 + 3 * Double(step))
            let t = 1000 + 10 * Double(step)
            if let o = classifier.add(Sample(t: t, x: x, y: y, z: z)) { reports.append((t, o)) }
        }
        XCTAssertEqual(reports.map(\.1), [.landscapeRight])
        XCTAssertEqual(reports.first?.0, 1100, "reported at the settle time, not at rest")
    }

    func testRestWaitsForTheHoldOff() {
        var classifier = Classifier()
        for s in hold(0, -g, 0, from: 0, ms: 300) { _ = classifier.add(s) }
        XCTAssertNil(classifier.add(Sample(t: 1000, x: 2 * g, y: 0, z: 0)), "accelerating")
        XCTAssertNil(classifier.add(Sample(t: 1050, x: g, y: 0, z: 0)))
        XCTAssertNil(classifier.add(Sample(t: 1100, x: g, y: 0, z: 0)), "at rest, but within the hold-off")
        XCTAssertEqual(classifier.add(Sample(t: 1300, x: g, y: 0, z: 0)), .landscapeRight)
    }

    func testRestTimeFromTheConfig() {
        var settings = ClassifierSettings()
        settings.restMs = 200
        var classifier = Classifier(settings: settings)
        XCTAssertNil(classifier.add(Sample(t: 0, x: -g, y: 0, z: 0)))
        XCTAssertNil(classifier.add(Sample(t: 50, x: -g, y: 0, z: 0)), "at rest 50 ms of the 200 asked")
        XCTAssertEqual(classifier.add(Sample(t: 100, x: -g, y: 0, z: 0)), .landscapeLeft, "the settle time, sooner")
    }

    func testSettleReportsAtTheDeadlineWithoutAnotherSample() {
        var classifier = Classifier()
        XCTAssertNil(classifier.add(Sample(t: 0, x: -g, y: 0, z: 0)))
        XCTAssertEqual(classifier.deadline, 100)
        XCTAssertNil(classifier.advance(to: 99))
        XCTAssertEqual(classifier.advance(to: 100), .landscapeLeft)
        XCTAssertNil(classifier.deadline)
    }

    func testEdgeHysteresisKeepsTheCurrentEdgeUntil60Degrees() {
        let (x1, y1, z1) = upright(55)
        var samples = hold(0, -g, 0, from: 0, ms: 300)
        samples += hold(x1, y1, z1, from: 300, ms: 500)
        XCTAssertEqual(classify(samples), [.portrait], "55° is past 45° but within the 15° margin")
        let (x2, y2, z2) = upright(65)
        samples += hold(x2, y2, z2, from: 800, ms: 500)
        XCTAssertEqual(classify(samples), [.portrait, .landscapeRight])
        // Without hysteresis, 50° already leaves portrait.
        var loose = ClassifierSettings()
        loose.edgeHysteresis = 0
        let (x3, y3, z3) = upright(50)
        XCTAssertEqual(classify(hold(0, -g, 0, from: 0, ms: 300) + hold(x3, y3, z3, from: 300, ms: 300), settings: loose),
                       [.portrait, .landscapeRight])
    }

    func testFaceUpWithHysteresis() {
        var samples = hold(0, -g, 0, from: 0, ms: 300)
        let (ax, ay, az) = upright(0, tilt: 75)
        samples += hold(ax, ay, az, from: 300, ms: 300)
        let (bx, by, bz) = upright(0, tilt: 65)  // back within 70° but not by 10°
        samples += hold(bx, by, bz, from: 600, ms: 300)
        XCTAssertEqual(classify(samples), [.portrait, .faceUp])
        let (cx, cy, cz) = upright(0, tilt: 55)
        samples += hold(cx, cy, cz, from: 900, ms: 300)
        XCTAssertEqual(classify(samples), [.portrait, .faceUp, .portrait])
        let (dx, dy, dz) = upright(0, tilt: -80)
        samples += hold(dx, dy, dz, from: 1200, ms: 300)
        XCTAssertEqual(classify(samples), [.portrait, .faceUp, .portrait, .faceDown])
    }

    /// A wrong scale (off by a power of ten, or missing: raw counts of 256 per g read as 26 g) makes
    /// every magnitude fall outside the gates; steady samples that agree are taken as gravity.
    func testAWrongScaleIsLearnedFromSteadySamplesAndTheDeviceRotates() {
        for scale in [10.0, 0.001, 256 / g] {
            var classifier = Classifier()
            var reports: [(Double, DeviceOrientation)] = []
            for s in hold(-g * scale, 0, 0, from: 0, ms: 1500) + hold(0, -g * scale, 0, from: 1500, ms: 500) {
                if let o = classifier.add(s) { reports.append((s.t, o)) }
            }
            XCTAssertEqual(reports.map(\.1), [.landscapeLeft, .portrait], "scale \(scale)")
            XCTAssertEqual(classifier.gravity, g * scale, accuracy: g * scale * 1e-9, "scale \(scale)")
            XCTAssertGreaterThanOrEqual(reports.first?.0 ?? 0, Classifier.scaleLearningMs, "learned from a second of samples")
            XCTAssertLessThanOrEqual(reports.first?.0 ?? .infinity, Classifier.scaleLearningMs + 150, "scale \(scale)")
        }
    }

    /// Once learned, the gates work relative to it: twice the learned gravity is a shake.
    func testTheGatesFollowTheLearnedGravity() {
        var classifier = Classifier(gravity: 10 * g)
        var samples = hold(0, -10 * g, 0, from: 0, ms: 300)
        samples += hold(-20 * g, 0, 0, from: 300, ms: 400)  // shaken sideways: no landscape
        samples += hold(0, -10 * g, 0, from: 700, ms: 500)
        let reports = samples.compactMap { classifier.add($0) }
        XCTAssertEqual(reports, [.portrait])
        XCTAssertEqual(classifier.gravity, 10 * g, "a short shake teaches nothing")
    }

    /// Shaking, walking and a correct scale never move the gravity: magnitudes outside the gates that
    /// do not agree for a second are accelerations, as before.
    func testRealMotionNeverTeachesAScale() throws {
        let folder = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/") + "/traces/classifier"
        for name in ["shaken.csv", "walking.csv", "fast-flip.csv"] {
            var classifier = Classifier()
            for s in try Trace(parsing: String(contentsOfFile: folder + "/" + name, encoding: .utf8)).samples { _ = classifier.add(s) }
            XCTAssertEqual(classifier.gravity, g, name)
        }
        var classifier = Classifier()
        for s in hold(0, -2 * g, 0, from: 0, ms: 900) { _ = classifier.add(s) }
        XCTAssertEqual(classifier.gravity, g, "under a second of steady 2 g is still a shake")
    }

    func testTimeGoingBackIsIgnored() {
        var classifier = Classifier()
        _ = classifier.add(Sample(t: 100, x: 0, y: -g, z: 0))
        XCTAssertNil(classifier.add(Sample(t: 50, x: g, y: 0, z: 0)))
    }
}

/// Recorded-style traces in `traces/classifier/`: each file states, in an `# expect:` line, the orientations it must produce.
final class TraceTests: XCTestCase {
    private static let root = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/")

    private func expectations(in text: String) -> [DeviceOrientation]? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("# expect:") }) else { return nil }
        return line.dropFirst("# expect:".count).split(separator: ",").compactMap {
            try? DeviceOrientation(parsing: String($0).filter { $0 != " " })
        }
    }

    func testEachRecordedTraceGivesTheOrientationsItStates() throws {
        let folder = TraceTests.root + "/traces/classifier"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".csv") }.sorted()
        XCTAssertEqual(names, ["fast-flip.csv", "flat-then-lifted.csv", "jitter-45.csv", "shaken.csv",
                               "slow-turn.csv", "walking.csv"])
        for name in names {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            let expected = try XCTUnwrap(expectations(in: text), "\(name) has no '# expect:' line")
            XCTAssertFalse(expected.isEmpty, name)
            XCTAssertEqual(classify(try Trace(parsing: text).samples), expected, name)
        }
    }

    func testBundledDemoTraceTurnsThroughTheStatedPoses() throws {
        let text = try String(contentsOfFile: TraceTests.root + "/traces/demo.csv", encoding: .utf8)
        let trace = try Trace(parsing: text)
        XCTAssertEqual(classify(trace.samples),
                       [.portrait, .landscapeLeft, .portrait, .landscapeRight, .portrait, .faceUp, .portrait])
    }

    func testTraceParsingNamesTheBadLine() {
        XCTAssertEqual(try Trace(parsing: "# c\n0,1,2,3\n\n50, 1, 2, 3 # note\n").samples.count, 2)
        XCTAssertThrowsError(try Trace(parsing: "0,1,2,3\n10,1,x,3\n")) { error in
            XCTAssertTrue((error as! TraceError).message.hasPrefix("line 2:"))
        }
        XCTAssertThrowsError(try Trace(parsing: "10,1,2,3\n5,1,2,3\n"))
        XCTAssertThrowsError(try Trace(parsing: "0,1,2\n"))
    }
}
