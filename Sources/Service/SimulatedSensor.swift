@preconcurrency import Glibc
import CGLib
import DBus
import Orientation
import Sensors

/// The `simulated` source: samples from `InjectAcceleration` and from a replayed trace,
/// classified like a real accelerometer's.
///
/// A trace plays only while someone claims (P16): no timer runs otherwise.
final class SimulatedSensor {
    private var classifier: Classifier
    private let trace: [Sample]
    private var next = 0
    /// Where the trace's time 0 falls on the monotonic clock, in ms.
    private var origin = 0.0
    private var replayTimer: DBus.Timer?
    private var settleTimer: DBus.Timer?
    private let report: (DeviceOrientation) -> Void

    init(settings: ClassifierSettings, trace: [Sample], report: @escaping (DeviceOrientation) -> Void) {
        classifier = Classifier(settings: settings)
        self.trace = trace
        self.report = report
    }

    /// Milliseconds on the monotonic clock (`g_get_monotonic_time`).
    static var now: Double { Double(g_get_monotonic_time()) / 1000 }

    /// One sample, taken now.
    func inject(x: Double, y: Double, z: Double) {
        feed(Sample(t: SimulatedSensor.now, x: x, y: y, z: z))
    }

    /// Starts or resumes the trace when claimed, pauses it when not.
    func setRunning(_ running: Bool) {
        replayTimer?.cancel()
        replayTimer = nil
        guard running, next < trace.count else { return }
        origin = SimulatedSensor.now - (next > 0 ? trace[next - 1].t : trace[0].t)
        scheduleNext()
    }

    private func scheduleNext() {
        guard next < trace.count else { return }
        let due = origin + trace[next].t
        let wait = max(0, due - SimulatedSensor.now)
        replayTimer = DBus.Timer(afterMs: UInt32(wait.rounded(.up))) { [unowned self] in
            let sample = trace[next]
            next += 1
            feed(Sample(t: SimulatedSensor.now, x: sample.x, y: sample.y, z: sample.z))
            scheduleNext()
        }
    }

    private func feed(_ sample: Sample) {
        settleTimer?.cancel()
        settleTimer = nil
        if let orientation = classifier.add(sample) { report(orientation) }
        // A pose that has not settled yet is reported at its deadline even if no sample follows.
        if let deadline = classifier.deadline {
            settleTimer = DBus.Timer(afterMs: UInt32(max(0, deadline - SimulatedSensor.now).rounded(.up))) { [unowned self] in
                settleTimer = nil
                if let orientation = classifier.advance(to: max(deadline, SimulatedSensor.now)) { report(orientation) }
            }
        }
    }
}
