// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
import Policy
import Sensors
import SensorSources
import XCTest

/// One scene of `traces/scenes/`: the display's samples, the hinge angle (−1: no hinge) and the
/// truth (the orientation the user wants the screen in) of each; where the scene says them, whether a
/// finger is on the screen and whether a pointer is plugged in.
struct Scene {
    struct Row {
        let sample: Sample
        let hinge: Double
        let truth: InterfaceOrientation
        var touch = false
        var pointer = false
    }
    let name: String
    /// `phone`, `convertible` (a hinge) or `tablet` (no hinge; the pointers plugged in give the posture).
    let kind: String
    var convertible: Bool { kind == "convertible" }
    let rows: [Row]

    init(name: String, text: String) throws {
        self.name = name
        var rows: [Row] = []
        var kind: String?
        for (number, line) in text.split(separator: "\n").enumerated() {
            if line.hasPrefix("# kind:") { kind = line.dropFirst("# kind:".count).trimmingCharacters(in: .whitespaces) }
            if line.hasPrefix("#") { continue }
            let f = line.split(separator: ",").map(String.init)
            guard f.count == 6 || f.count == 8, let t = Double(f[0]), let x = Double(f[1]), let y = Double(f[2]),
                  let z = Double(f[3]), let hinge = Double(f[4]),
                  let truth = try? DeviceOrientation(parsing: f[5]).interfaceOrientation,
                  f.count == 6 || (["0", "1"].contains(f[6]) && ["0", "1"].contains(f[7])) else {
                throw SceneError(message: "\(name) line \(number + 1): '\(line)' is not t_ms,x,y,z,hinge,truth[,touch,pointer]")
            }
            rows.append(Row(sample: Sample(t: t, x: x, y: y, z: z), hinge: hinge, truth: truth,
                            touch: f.count == 8 && f[6] == "1", pointer: f.count == 8 && f[7] == "1"))
        }
        guard let kind, ["phone", "convertible", "tablet"].contains(kind) else { throw SceneError(message: "\(name): no '# kind:' line") }
        self.kind = kind
        self.rows = rows
    }

    /// Where the truth changes: (time, to).
    var truthChanges: [(t: Double, to: InterfaceOrientation)] {
        var out: [(Double, InterfaceOrientation)] = []
        for (previous, row) in zip(rows, rows.dropFirst()) where row.truth != previous.truth {
            out.append((row.sample.t, row.truth))
        }
        return out
    }
}

struct SceneError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// How a run's changes of the screen compare with the truth's (the benchmark's rule, Benchmarks/scenes):
/// a truth change is met by the first change to the same orientation from 1 s before it to 1.5 s
/// after it; every other change is false, every truth change not met is missed.
struct Score: Equatable, CustomStringConvertible {
    var falseChanges: [(t: Double, to: InterfaceOrientation)] = []
    var missed: [(t: Double, to: InterfaceOrientation)] = []

    static let before = 1000.0, after = 1500.0

    init(changes: [(t: Double, to: InterfaceOrientation)], truth: [(t: Double, to: InterfaceOrientation)]) {
        var unmatched = changes
        for want in truth {
            if let i = unmatched.firstIndex(where: { $0.to == want.to && $0.t >= want.t - Score.before && $0.t <= want.t + Score.after }) {
                unmatched.remove(at: i)
            } else {
                missed.append(want)
            }
        }
        falseChanges = unmatched
    }

    static func == (a: Score, b: Score) -> Bool { a.description == b.description }

    var description: String {
        func list(_ l: [(t: Double, to: InterfaceOrientation)]) -> String {
            l.map { "\($0.to) at \(Int($0.t)) ms" }.joined(separator: ", ")
        }
        return "false: [\(list(falseChanges))], missed: [\(list(missed))]"
    }
}

/// The daemon's chain without the bus: the classifier on every sample (or every `every`-th from `phase`), the hinge read every 250 ms
/// as the hinge source polls it and classified by the posture thresholds, the touch hold (P20: held
/// while touched and for `[Classifier] TouchHoldMs` after), the pointers' evidence of a tablet (a
/// change taken once stable for 2 s), and the policy (a phone, or a convertible or tablet as a
/// tablet) deciding the interface orientation. `pointerEvidence` false leaves a tablet's posture unknown.
func play(_ scene: Scene, classifierSettings: ClassifierSettings = ClassifierSettings(), every: Int = 1, phase: Int = 0,
          pointerEvidence: Bool = true) -> [(t: Double, to: InterfaceOrientation)] {
    let policy = Policy(configuration: PolicyConfiguration(idiom: scene.kind == "phone" ? .phone : .tablet))
    policy.beginGenerating(client: ":1.1")
    var classifier = Classifier(settings: classifierSettings)
    let thresholds = PostureThresholds()
    var nextHingeRead = -Double.infinity
    var changes: [(t: Double, to: InterfaceOrientation)] = []
    var shown = policy.interfaceOrientation
    var holdEnds: Double?
    var evidenceSince: Double?
    for (i, row) in scene.rows.enumerated() where i % every == phase {
        let t = row.sample.t
        if classifierSettings.touchHoldMs > 0 {
            if row.touch {
                holdEnds = nil
                policy.setTouchHold(true)
            } else if policy.touchHold {
                let end = holdEnds ?? t + classifierSettings.touchHoldMs
                holdEnds = end
                if t >= end {
                    holdEnds = nil
                    policy.setTouchHold(false)
                }
            }
        }
        if scene.kind == "tablet" && pointerEvidence {
            let evidence: Posture = row.pointer ? .laptop : .tablet
            if policy.posture == .unknown {
                policy.setPosture(evidence)
            } else if evidence == policy.posture {
                evidenceSince = nil
            } else if let since = evidenceSince, t - since >= Double(PostureSource.pointerSettleMs) {
                evidenceSince = nil
                policy.setPosture(evidence)
            } else if evidenceSince == nil {
                evidenceSince = t
            }
        }
        if row.hinge >= 0, row.sample.t >= nextHingeRead {
            nextHingeRead = row.sample.t + 250
            policy.setPosture(thresholds.posture(hinge: row.hinge, keyboard: 0,
                                                 displayUpsideDown: policy.latestReport == .portraitUpsideDown,
                                                 previous: policy.posture), hingeAngle: row.hinge)
        }
        if let reported = classifier.add(row.sample) { policy.sensorReported(reported) }
        policy.completeTransition()
        _ = policy.takeChanges()
        if policy.interfaceOrientation != shown {
            shown = policy.interfaceOrientation
            changes.append((row.sample.t, shown))
        }
    }
    return changes
}

/// Docs/sensors.md, "Scenes": in each scene the expected interface changes happen, and no other.
final class SceneTests: XCTestCase {
    static let folder = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/") + "/traces/scenes"

    static func scenes() throws -> [Scene] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".csv") }.sorted()
        return try names.map { try Scene(name: $0, text: String(contentsOfFile: folder + "/" + $0, encoding: .utf8)) }
    }

    func testTheSceneSetIsWhole() throws {
        XCTAssertEqual(try SceneTests.scenes().map(\.name), [
            "convertible-folded.csv", "convertible-in-a-bag.csv", "convertible-on-a-train.csv", "phone-overhead-in-bed.csv",
            "phone-picked-up.csv", "phone-put-down.csv", "phone-scrolling-in-bed.csv", "phone-shaken.csv",
            "phone-turned-by-hand.csv", "phone-walking.csv", "tablet-detachable.csv", "tablet-typing-tilted.csv",
        ])
    }

    /// Without the touch hold, the scenes with a hand on the screen turn under it; without pointer
    /// evidence, the detachable turns while used as a laptop; and each still turns when the truth does.
    func testWithoutTheTouchHoldAndPointersTheHandsScenesGoWrong() throws {
        let scenes = try SceneTests.scenes()
        var noHold = ClassifierSettings()
        noHold.touchHoldMs = 0
        for name in ["phone-scrolling-in-bed.csv", "tablet-typing-tilted.csv"] {
            let scene = try XCTUnwrap(scenes.first { $0.name == name })
            XCTAssertTrue(scene.rows.contains(where: \.touch), name)
            let score = Score(changes: play(scene, classifierSettings: noHold), truth: scene.truthChanges)
            XCTAssertGreaterThanOrEqual(score.falseChanges.count, 2, "\(name) turns under the hand without the hold: \(score)")
        }
        let detachable = try XCTUnwrap(scenes.first { $0.name == "tablet-detachable.csv" })
        let score = Score(changes: play(detachable, pointerEvidence: false), truth: detachable.truthChanges)
        XCTAssertGreaterThanOrEqual(score.falseChanges.count, 2, "a docked detachable turns without pointer evidence: \(score)")
        XCTAssertEqual(detachable.truthChanges.map(\.to), [LL, P])
        let typing = try XCTUnwrap(scenes.first { $0.name == "tablet-typing-tilted.csv" })
        XCTAssertEqual(typing.truthChanges.map(\.to), [LL, P])
    }

    func testEverySceneGivesTheTruthsChangesAndNoOther() throws {
        for scene in try SceneTests.scenes() {
            XCTAssertFalse(scene.rows.isEmpty, scene.name)
            // Every sample (50 Hz), and every second and third (25 and 17 Hz, about the daemon's 20 Hz
            // polls of a moving device), from each phase.
            for every in 1...3 {
                for phase in 0..<every {
                    let changes = play(scene, every: every, phase: phase)
                    let score = Score(changes: changes, truth: scene.truthChanges)
                    XCTAssertTrue(score.falseChanges.isEmpty && score.missed.isEmpty,
                                  "\(scene.name), every \(every) from \(phase): \(score); changes "
                                      + "\(changes.map { "\($0.to)@\(Int($0.t))" }), truth \(scene.truthChanges.map { "\($0.to)@\(Int($0.t))" })")
                }
            }
        }
    }

    /// The scenes that turn: the truth changes there, and the comparison counts each change.
    func testTheTurningScenesTurn() throws {
        let scenes = try SceneTests.scenes()
        let turned = try XCTUnwrap(scenes.first { $0.name == "phone-turned-by-hand.csv" })
        XCTAssertEqual(turned.truthChanges.map(\.to), [LL, P, LR, P, LR, LL, P])
        let folded = try XCTUnwrap(scenes.first { $0.name == "convertible-folded.csv" })
        XCTAssertEqual(folded.truthChanges.map(\.to), [PUD, P, LL, P])
    }

    /// The comparison itself: a change late or to the wrong side is false and the truth's missed.
    func testTheScoreCountsFalseAndMissedChanges() {
        let truth: [(t: Double, to: InterfaceOrientation)] = [(1000, LR), (5000, P)]
        XCTAssertEqual(Score(changes: [(1200, LR), (4500, P)], truth: truth).description, "false: [], missed: []")
        let late = Score(changes: [(2600, LR), (5100, P)], truth: truth)
        XCTAssertEqual(late.falseChanges.count, 1)
        XCTAssertEqual(late.missed.count, 1)
        let flash = Score(changes: [(300, LL), (400, P), (1100, LR), (5200, P)], truth: truth)
        XCTAssertEqual(flash.falseChanges.map(\.to), [LL, P])
        XCTAssertTrue(flash.missed.isEmpty)
    }

    /// Without P18 and the grips, the same scenes give false changes: the scenes test what they claim.
    func testWithoutGripsAndPostureTheScenesGoWrong() throws {
        var bare = ClassifierSettings()
        bare.overheadTilt = -89
        bare.overheadEndTilt = -89
        bare.flatLiftHoldMs = 0
        bare.swingDegrees = 180
        bare.turnRate = 100_000
        for name in ["phone-overhead-in-bed.csv", "phone-picked-up.csv", "phone-turned-by-hand.csv", "convertible-folded.csv"] {
            let scene = try XCTUnwrap(try SceneTests.scenes().first { $0.name == name })
            XCTAssertFalse(Score(changes: play(scene, classifierSettings: bare), truth: scene.truthChanges).falseChanges.isEmpty,
                           "\(name) turns without the grips")
        }
    }
}

private let P = InterfaceOrientation.portrait
private let PUD = InterfaceOrientation.portraitUpsideDown
private let LR = InterfaceOrientation.landscapeRight
private let LL = InterfaceOrientation.landscapeLeft
