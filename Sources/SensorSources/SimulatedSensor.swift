// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import EventLoop
import Orientation
import Sensors

/// The `simulated` source: samples from `InjectAcceleration` and from a replayed trace,
/// classified like a real accelerometer's; poses from `SetDeviceOrientation` go to the policy directly.
///
/// A trace plays only while someone claims (P16): no timer runs otherwise.
public final class SimulatedSensor: SensorSource {
    public let feed: SampleFeed
    private let trace: [Sample]
    private var next = 0
    /// Where the trace's time 0 falls on the monotonic clock, in ms.
    private var origin = 0.0
    private var replayTimer: EventLoop.Timer?

    public init(feed: SampleFeed, trace: [Sample]) {
        self.feed = feed
        self.trace = trace
    }

    public var isPresent: Bool { true }

    public var keepsPoseWhileStopped: Bool { true }

    /// Starts or resumes the trace when claimed, pauses it when not.
    public func setRunning(_ running: Bool) {
        replayTimer?.cancel()
        replayTimer = nil
        guard running else { return feed.pause() }
        feed.resume()
        guard next < trace.count else { return }
        origin = SampleFeed.now - (next > 0 ? trace[next - 1].t : trace[0].t)
        scheduleNext()
    }

    /// The longest wait one GLib timeout can make: its milliseconds are 32 bits (about 49.7 days).
    static let longestWaitMs = Double(UInt32.max)

    private func scheduleNext() {
        guard next < trace.count else { return }
        let wait = max(0, origin + trace[next].t - SampleFeed.now).rounded(.up)
        // A trace's times are any finite number of ms; a longer wait is made of several timeouts.
        guard wait <= Self.longestWaitMs else {
            replayTimer = EventLoop.Timer(afterMs: UInt32.max) { [unowned self] in scheduleNext() }
            return
        }
        replayTimer = EventLoop.Timer(afterMs: UInt32(wait)) { [unowned self] in
            let sample = trace[next]
            next += 1
            feed.feed(x: sample.x, y: sample.y, z: sample.z)
            scheduleNext()
        }
    }
}
