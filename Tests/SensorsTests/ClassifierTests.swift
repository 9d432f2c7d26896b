import XCTest
import Orientation
@testable import Sensors

private let g = ClassifierSettings.gravity

/// Feeds samples every `step` ms and returns every orientation reported, in order.
private func classify(_ samples: [Sample], settings: ClassifierSettings = ClassifierSettings()) -> [DeviceOrientation] {
    var classifier = Classifier(settings: settings)
    return samples.compactMap { classifier.add($0) }
}

/// A pose held for `ms`, sampled every 50 ms from `start`.
private func hold(_ x: Double, _ y: Double, _ z: Double, from start: Double, ms: Double, step: Double = 50) -> [Sample] {
    stride(from: start, to: start + ms, by: step).map { Sample(t: $0, x: x, y: y, z: z) }
}

/// The device upright, turned by `degrees` in the screen's plane (0 portrait, +90 left edge up).
private func upright(_ degrees: Double, tilt: Double = 0, scale: Double = 1) -> (Double, Double, Double) {
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
        samples += hold(g, 0, 0, from: 300, ms: 100)  // two samples, 50 ms apart: not settled
        samples += hold(0, -g, 0, from: 400, ms: 300)
        XCTAssertEqual(classify(samples), [.portrait])
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

    func testTimeGoingBackIsIgnored() {
        var classifier = Classifier()
        _ = classifier.add(Sample(t: 100, x: 0, y: -g, z: 0))
        XCTAssertNil(classifier.add(Sample(t: 50, x: g, y: 0, z: 0)))
    }
}

/// Recorded-style traces: each states the orientations it must produce.
final class TraceTests: XCTestCase {
    /// A turn from `a` to `b` degrees over `ms`, sampled every 50 ms.
    private func turn(_ a: Double, _ b: Double, from start: Double, ms: Double, tilt: Double = 10) -> [Sample] {
        let n = Int(ms / 50)
        return (0..<n).map { i in
            let (x, y, z) = upright(a + (b - a) * Double(i) / Double(n), tilt: tilt)
            return Sample(t: start + Double(i) * 50, x: x, y: y, z: z)
        }
    }

    private func holdAt(_ degrees: Double, from start: Double, ms: Double, tilt: Double = 10) -> [Sample] {
        let (x, y, z) = upright(degrees, tilt: tilt)
        return hold(x, y, z, from: start, ms: ms)
    }

    func testSlowTurn() {
        let samples = holdAt(0, from: 0, ms: 500) + turn(0, -90, from: 500, ms: 3000) + holdAt(-90, from: 3500, ms: 500)
        XCTAssertEqual(classify(samples), [.portrait, .landscapeLeft])
    }

    func testFastFlip() {
        let samples = holdAt(0, from: 0, ms: 500) + turn(0, 180, from: 500, ms: 200) + holdAt(180, from: 700, ms: 500)
        XCTAssertEqual(classify(samples), [.portrait, .portraitUpsideDown], "the swing through landscape does not settle")
    }

    func testCarriedWhileWalking() {
        // Portrait, bobbing ±0.35 g at 2 Hz and swaying ±20°.
        let samples = stride(from: 0.0, to: 6000, by: 50).map { t -> Sample in
            let bob = 1 + 0.35 * sin(2 * .pi * t / 500)
            let (x, y, z) = upright(20 * sin(2 * .pi * t / 1300), tilt: 20, scale: bob)
            return Sample(t: t, x: x, y: y, z: z)
        }
        XCTAssertEqual(classify(samples), [.portrait])
    }

    func testLyingFlatThenLifted() {
        let samples = hold(0, 0, g, from: 0, ms: 1000)
            + (0..<10).map { i in
                let (x, y, z) = upright(-90, tilt: 90 - Double(i) * 8)
                return Sample(t: 1000 + Double(i) * 50, x: x, y: y, z: z)
            }
            + holdAt(-90, from: 1500, ms: 500)
        XCTAssertEqual(classify(samples), [.faceUp, .landscapeLeft])
    }

    func testJitterAround45DegreesCausesNoChange() {
        // 6 s between 32° and 58°, as the peer's flip-flopping case.
        let samples = holdAt(0, from: 0, ms: 300) + stride(from: 300.0, to: 6300, by: 50).map { t in
            let (x, y, z) = upright(45 + 13 * sin(2 * .pi * t / 700))
            return Sample(t: t, x: x, y: y, z: z)
        }
        XCTAssertEqual(classify(samples), [.portrait])
    }

    func testShakenDeviceCausesNoChange() {
        let samples = holdAt(-90, from: 0, ms: 300) + stride(from: 300.0, to: 3300, by: 20).map { t in
            let shake = 1.8 * g * sin(2 * .pi * t / 120)
            let (x, y, z) = upright(-90)
            return Sample(t: t, x: x + shake, y: y + shake, z: z)
        }
        XCTAssertEqual(classify(samples), [.landscapeLeft])
    }

    func testBundledDemoTraceTurnsThroughTheStatedPoses() throws {
        let here = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        let text = try String(contentsOfFile: "/" + here + "/traces/demo.csv", encoding: .utf8)
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
