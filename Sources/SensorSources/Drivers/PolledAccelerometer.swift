// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import EventLoop
import Sensors
import Log

/// The `iio-poll-accel` and `input-accel` drivers: an accelerometer's three raw values read on a timer,
/// at `[Sensor] PollHz` while it moves and at `[Sensor] StillPollHz` once it lies still (`PollPace`);
/// an IIO device with motion events is not polled at all while still (`MotionEventPacer`). An IIO
/// device is read through its `in_accel_{x,y,z}_raw` attributes, sped up while claimed when it samples
/// slower than the poll rate; an evdev device through `EVIOCGABS`.
final class PolledAccelerometer: SensorDriver {
    enum Files {
        /// `in_accel_{x,y,z}_raw`.
        case iio
        /// An evdev accelerometer's node.
        case evdev(node: String)
    }

    private let device: IIODevice
    private let files: Files
    private let context: DriverContext
    private let output: (DriverReading) -> Void
    private var conversion: AccelerometerConversion
    private var pace: PollPace
    private var timer: EventLoop.Timer?
    /// The timer's interval.
    private var intervalMs = 0
    private var raw: IIORawFiles?
    private var input: InputAccelerometerFiles?
    private var raised: RaisedSamplingFrequency?
    private var pacer: MotionEventPacer?
    private var running = false

    init(_ device: IIODevice, _ files: Files, _ context: DriverContext, _ output: @escaping (DriverReading) -> Void) {
        self.device = device
        self.files = files
        self.context = context
        self.output = output
        conversion = AccelerometerConversion(device)
        pace = context.pace
    }

    var reading: String { "polling at \(SysfsNumber.decimal(pace.pollHz)) Hz" }

    func start() throws(IIOError) {
        running = true
        if case .iio = files { raised = RaisedSamplingFrequency.whileClaimed(device, to: pace.pollHz, context) }
        pace.reset()
        pacer = MotionEventPacer.open(device, pace: &pace, context, moved: { [unowned self] in woke() },
                                      failed: { [unowned self] problem in refuseMotion(problem) })
        schedule(every: pace.movingIntervalMs)
        poll()
    }

    func deviceChanged() { conversion.forget() }

    func stop() {
        running = false
        timer?.cancel()
        timer = nil
        raw = nil
        input = nil
        pacer?.close()
        pacer = nil
        raised?.restore()
        raised = nil
    }

    /// (Re)arms the timer when the interval changes.
    private func schedule(every ms: Int) {
        guard running, timer == nil || ms != intervalMs else { return }
        timer?.cancel()
        intervalMs = ms
        timer = EventLoop.Timer(everyMs: UInt32(ms)) { [unowned self] in poll() }
    }

    /// One reading of the three values.
    private func poll() {
        let (x, y, z): (Double, Double, Double)
        do {
            switch files {
            case .iio:
                if raw == nil { raw = try IIORawFiles(devicePath: device.path) }
                (x, y, z) = try raw!.read()
            case .evdev(let node):
                if input == nil { input = try InputAccelerometerFiles(node: node) }
                (x, y, z) = try input!.read()
            }
        } catch {
            return fault(error.errno == nil ? error.description : "cannot read \(error)")
        }
        let reading = conversion.convert(x, y, z)
        guard case .acceleration(let sample) = reading else { return fault(reading) }
        output(reading)
        // The source may have stopped the driver meanwhile (the last claim ended with this reading).
        if running, timer != nil { reschedule(after: sample) }
    }

    private func fault(_ problem: String) { fault(.fault(problem)) }

    /// A reading that failed: the files are opened and the calibration read afresh before the next.
    private func fault(_ reading: DriverReading) {
        conversion.forget()
        raw = nil
        input = nil
        output(reading)
    }

    /// The next poll after `sample`; a device whose motion events wake the poller and that has lain
    /// still long enough is not polled again until one does.
    private func reschedule(after sample: Sample) {
        // A device with motion events keeps polling `MotionStillAfterMs` after a turn, however it ended.
        let proposed = pace.interval(after: sample, settled: context.feed?.isSettled ?? true,
                                     reported: pacer == nil && context.feed?.reportedOnLast == true)
        guard let pacer else { return schedule(every: proposed) }
        switch pacer.next(pace, settled: context.feed?.isSettled ?? true, proposedMs: proposed) {
        case .poll(let ms): schedule(every: ms)
        case .sleep:
            timer?.cancel()
            timer = nil
        case .refuse(let problem): refuseMotion(problem)
        }
    }

    /// The first motion event after stillness: polled at once and at the moving rate.
    private func woke() {
        guard running, timer == nil, let pacer else { return }
        pacer.woke(moves: pace.moves)
        schedule(every: pace.movingIntervalMs)
        poll()
    }

    /// Motion events that failed or woke the poller for nothing: polled at the still rate until the claim ends.
    private func refuseMotion(_ problem: String) {
        pacer?.close()
        pacer = nil
        pace.stillAfterMs = context.pace.stillAfterMs
        Log.warning("\(device.sysname): \(problem); polled at \(pace.stillHzText) Hz once still "
            + "until the claim ends")
        if running, timer == nil { schedule(every: pace.stillIntervalMs) }
    }
}
