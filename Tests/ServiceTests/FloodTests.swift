// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// One client flooding the daemon must not keep another's calls waiting: the daemon serves its
/// callers in turns, a bounded number of calls per turn of the main loop. The flood is a Python GIO
/// client sending calls that want no reply (which the bus does not cap, unlike calls awaiting
/// replies) as fast as it can, then one call that does, whose answer marks the end of the flood.
/// The figures are printed; the assertion is only that another client is answered, several times,
/// while the flood is still being worked through.
final class FloodTests: DaemonTestCase {
    /// Starts the flooder (Fixtures/flood-client.py): it builds a navigation controller and `views`
    /// view controllers, then sends `calls` no-reply SetViewControllers alternating all the views and
    /// none, then one Get. It prints `sent T` once everything is written and `done T` when the Get
    /// came back (monotonic seconds), then `signals N`, its own controllers' changes it received.
    private func startFlood(views: Int, calls: Int) throws -> ChildProcess {
        try ChildProcess(["/usr/bin/python3", packageRoot + "/Tests/ServiceTests/Fixtures/flood-client.py", bus.address,
                          String(views), String(calls)],
                         output: .files(stdout: scratch + "/flood.out", stderr: scratch + "/flood.err"))
    }

    /// Measures another client's Get round trips while the flood runs; returns their latencies (ms),
    /// and when the flood was sent and finished.
    private func measure(_ flood: ChildProcess) throws
        -> (latencies: [Double], sent: Double, done: Double, firstAnswer: Double, ownSignals: Int) {
        let other = try newClient()
        var text = ""
        func read() { text = flood.log }
        /// The time on the flooder's `key` line, once that line has been read whole.
        func time(_ key: String) -> Double? {
            text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                .first { $0.hasPrefix(key + " ") }.flatMap { Double($0.dropFirst(key.count + 1)) }
        }
        // Start measuring once the flood is written: everything it sent is ahead of our calls.
        let deadline = now() + 120
        while time("sent") == nil, now() < deadline { read(); usleep(1000) }
        var latencies: [Double] = []
        var firstAnswer = 0.0
        while time("done") == nil, now() < deadline {
            let start = now()
            _ = try other.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath,
                                       interface: StandardInterface.properties, method: "Get",
                                       values: [.string(Orientation1.managerInterface), .string("InterfaceOrientation")],
                                       timeoutMs: 60_000)
            let end = now()
            if latencies.isEmpty { firstAnswer = end }
            latencies.append((end - start) * 1000)
            read()
        }
        _ = flood.waitForExit(timeout: 120)
        read()
        return (latencies, time("sent") ?? 0, time("done") ?? 0, firstAnswer, time("signals").map { Int($0) } ?? -1)
    }

    /// Iterates the loop until no signal arrived for `quiet` seconds, so every signal sent is counted.
    private func drain(_ recorder: SignalRecorder, quiet: Double = 0.5) {
        var last = recorder.events.count
        var lastChange = now()
        waitUntil(60) {
            if recorder.events.count != last { last = recorder.events.count; lastChange = now() }
            return now() - lastChange > quiet
        }
    }

    /// 200 calls each moving 200 view controllers in or out of a stack: announced per object and per
    /// turn of the loop, a view whose parent changed and changed back within a turn is not announced
    /// at all; announced per call, that would be 40,000 signals. They go to the controllers' owner,
    /// the flooding client, and to no other client.
    func testChangesAreAnnouncedPerObjectPerTurnNotPerCall() throws {
        let recorder = try newRecorder()
        let flood = try startFlood(views: 200, calls: 200)
        let r = try measure(flood)
        drain(recorder)
        XCTAssertEqual(recorder.events.filter { $0.path.contains("/controller/") }.count, 0,
                       "another client heard of the flooding client's controllers")
        let viewSignals = r.ownSignals
        print("200 SetViewControllers moving 200 views each: \(viewSignals) controller PropertiesChanged (one per call and view "
            + "would be 40,000), flood worked through in \(Int((r.done - r.sent) * 1000)) ms")
        XCTAssertGreaterThan(viewSignals, 0, "changes are still announced")
        XCTAssertLessThan(viewSignals, 10_000, "changes were announced per call, not per object and turn")
    }

    func testAnotherClientIsAnsweredWhileOneFloods() throws {
        let recorder = try newRecorder()
        let flood = try startFlood(views: 1000, calls: 200)
        let r = try measure(flood)
        recorder.settle()
        let sorted = r.latencies.sorted()
        let median = sorted.isEmpty ? -1 : sorted[sorted.count / 2]
        print(String(format: "flood of 200 SetViewControllers on 1,000 views: worked through in %.0f ms after sending; "
            + "other client: %d calls answered meanwhile, first after %.1f ms, median %.2f ms, max %.2f ms; %d PropertiesChanged seen",
            (r.done - r.sent) * 1000, r.latencies.count, (r.firstAnswer - r.sent) * 1000, median, sorted.last ?? -1,
            recorder.count("PropertiesChanged")))
        XCTAssertGreaterThan(r.done, 0, "the flood's last call was answered")
        XCTAssertGreaterThanOrEqual(r.latencies.count, 3, "another client was answered while the flood was worked through")
        XCTAssertLessThan(r.firstAnswer, r.done, "the other client's first call waited for the whole flood")
        XCTAssertTrue(daemon?.isRunning ?? false)
    }
}
