// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import CGLib
import EventLoop
import Orientation
import Sensors
import Log

/// Runs samples through the classifier and reports what settles, for every source that reads
/// raw acceleration. It also measures the daemon's own cost per sample (read excluded):
/// classify, decide and announce.
///
/// Settle timers run only between `resume()` and `pause()`, while someone claims (P16): a sample
/// taken otherwise (`InjectAcceleration` to an unclaimed daemon) is classified, and what it
/// proposes settles when reading resumes.
public final class SampleFeed {
    private var classifier: Classifier
    private var settleTimer: EventLoop.Timer?
    private var running = false
    private unowned let sink: SensorSink
    /// The last sample fed, m/s² after the mount matrix; nil until the first since the feed was reset.
    public private(set) var latest: Sample?
    /// The tilt last reported; nil until the first reading since the feed was reset.
    private var tilt: AccelerometerTilt?
    /// Whether the next sample is the first of a claim with no pose known: it is reported as it is.
    private var firstOfClaim = false
    /// Microseconds spent on each sample, for the exit report; constant memory however many samples.
    /// Kept only while `measuresCost` (the daemon's `--verbose`): an ordinary run reads no clock for it.
    public private(set) var costs = CostHistogram()
    public var measuresCost = false

    public init(settings: ClassifierSettings, sink: SensorSink) {
        classifier = Classifier(settings: settings)
        self.sink = sink
    }

    /// Whether the classifier has nothing left to report without another sample (`Classifier.isSettled`).
    public var isSettled: Bool { classifier.isSettled }
    /// Whether the last sample fed made the classifier report a pose.
    public private(set) var reportedOnLast = false

    /// Milliseconds on the monotonic clock (`g_get_monotonic_time`).
    static var now: Double { Double(g_get_monotonic_time()) / 1000 }

    /// One sample in m/s², after the mount matrix, taken now.
    public func feed(x: Double, y: Double, z: Double) {
        let start = measuresCost ? g_get_monotonic_time() : 0
        settleTimer?.cancel()
        settleTimer = nil
        let gravity = classifier.gravity
        let sample = Sample(t: SampleFeed.now, x: x, y: y, z: z)
        latest = sample
        let orientation: DeviceOrientation?
        if firstOfClaim, running {
            // Nothing is known of the pose yet: the first reading says it at once, as the peer's does;
            // the settle time and the hold-off rule every change from there on.
            firstOfClaim = false
            orientation = classifier.adopt(sample)
        } else {
            orientation = classifier.add(sample)
        }
        if classifier.gravity != gravity { scaleLearned() }
        reportedOnLast = orientation != nil
        if let orientation { sink.sensorReported(.orientation(orientation)) }
        let newTilt = AccelerometerTilt(x: x, y: y, z: z)
        if newTilt != tilt {
            tilt = newTilt
            sink.sensorReported(.tilt(newTilt))
        }
        armSettleTimer()
        if measuresCost { costs.record(microseconds: Int(g_get_monotonic_time() - start)) }
    }

    /// A pose that has not settled yet is reported at its deadline even if no sample follows.
    private func armSettleTimer() {
        guard running, let deadline = classifier.deadline else { return }
        settleTimer = EventLoop.Timer(afterMs: UInt32(max(0, deadline - SampleFeed.now).rounded(.up))) { [unowned self] in
            settleTimer = nil
            if let orientation = classifier.advance(to: max(deadline, SampleFeed.now)) { sink.sensorReported(.orientation(orientation)) }
        }
    }

    /// Starts reporting (the source started): a pose proposed meanwhile that has held long
    /// enough is reported now, one still settling gets its timer.
    /// With `adoptingFirstReading` (a real device, whose pose nobody knows before it is read), the
    /// first sample is reported at once when no pose is known.
    public func resume(adoptingFirstReading: Bool = false) {
        running = true
        firstOfClaim = adoptingFirstReading && classifier.reported == .unknown
        if let orientation = classifier.advance(to: SampleFeed.now) { sink.sensorReported(.orientation(orientation)) }
        settleTimer?.cancel()
        armSettleTimer()
    }

    /// Stops waiting for a pose to settle (the source stopped); the pose is kept.
    public func pause() {
        running = false
        settleTimer?.cancel()
        settleTimer = nil
    }

    /// Forgets the pose: the next samples are classified from scratch (a real device stopped being
    /// read and may have turned meanwhile). The gravity learned from a device with a wrong scale is
    /// kept unless `keepingScale` is false (the device went away: another may have its own).
    public func reset(keepingScale: Bool = true) {
        tilt = nil
        latest = nil
        settleTimer?.cancel()
        settleTimer = nil
        classifier = Classifier(settings: classifier.settings,
                                gravity: keepingScale ? classifier.gravity : ClassifierSettings.gravity)
        if !keepingScale { loggedGravity = ClassifierSettings.gravity }
    }

    /// The gravity last logged, so a device's wrong scale is logged once.
    private var loggedGravity = ClassifierSettings.gravity

    /// Says once that the device's scale is off and by how much (sensors.md, "Scale").
    private func scaleLearned() {
        let gravity = classifier.gravity
        guard abs(gravity - loggedGravity) > Classifier.scaleLearningTolerance * loggedGravity else { return }
        loggedGravity = gravity
        let factor = gravity / ClassifierSettings.gravity
        if abs(factor - 1) <= Classifier.scaleLearningTolerance {
            Log.info("accelerometer scale: gravity reads \(Self.figure(gravity)) m/s² again; readings are taken as they are")
        } else {
            Log.warning("accelerometer scale: gravity reads \(Self.figure(gravity)) m/s², not 9.81: the device's scale is off by a factor "
                + "of \(Self.figure(factor)); taking \(Self.figure(gravity)) as 1 g")
        }
    }

    /// Four significant digits, for the log.
    private static func figure(_ value: Double) -> String {
        var digits = 3
        var magnitude = abs(value)
        while magnitude >= 10, digits > 0 { magnitude /= 10; digits -= 1 }
        while magnitude < 1, magnitude > 0, digits < 9 { magnitude *= 10; digits += 1 }
        let scale = pow(10, Double(digits))
        return String((value * scale).rounded() / scale)
    }

    /// `per-sample cost: median … µs, p95 … µs over N samples`, or nil before any sample.
    public var costReport: String? {
        guard let median = costs.quantile(0.5), let p95 = costs.quantile(0.95) else { return nil }
        return "per-sample cost: median \(median) µs, p95 \(p95) µs over \(costs.count) samples"
    }
}
