// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Sensors
import Log

/// The pace of a polled IIO accelerometer that has motion events (Docs/sensors.md, "Motion events"):
/// once the device lies still and its pose has settled, it is not polled at all until an event says it
/// moves. After a wake-up it is polled at the moving rate for at least the time to stillness, so a turn
/// that starts slowly is followed. Events that wake it `idleWakeLimit` times in a row for nothing are
/// not trusted for the rest of the claim.
final class MotionEventPacer {
    /// What the poller does after a reading.
    enum Next: Equatable {
        /// Poll again after this many milliseconds.
        case poll(afterMs: Int)
        /// Stop polling: the events are armed and wake the poller (`woke`).
        case sleep
        /// The events are not to be trusted (why): poll at the still rate until the claim ends.
        case refuse(String)
    }

    private let events: IIOMotionEvents
    /// When the last event woke the poller, and the pace's moves then.
    private var wokeAt = -Double.infinity
    private var movesAtWake = 0
    /// Wake-ups in a row that found no movement.
    private var idleWakes = 0
    /// Idle wake-ups in a row after which a device's motion events are no longer trusted for the claim.
    static let idleWakeLimit = 5

    /// The device's motion events enabled for this claim, when it has them and the pace wants them
    /// (`[Sensor] MotionEvents`); then `pace` waits `motionStillAfterMs` before stillness. Logged once
    /// per device, used or refused. `moved` runs when an event wakes the poller; `failed` when the
    /// events stop working (they are closed by then).
    static func open(_ device: IIODevice, pace: inout PollPace, _ context: DriverContext, moved: @escaping () -> Void,
                     failed: @escaping (String) -> Void) -> MotionEventPacer? {
        guard device.inputNode == nil, let support = device.motion, let holdMs = pace.motionStillAfterMs else { return nil }
        let first = context.firstTime(device.sysname, "motion events")
        do {
            let events = try IIOMotionEvents(support, devicePath: device.path, moved: moved, failed: failed)
            pace.stillAfterMs = holdMs
            if first { Log.info("\(device.sysname): not polled while still: \(events.description) wake it when it moves") }
            return MotionEventPacer(events)
        } catch {
            if first {
                Log.warning("\(device.sysname): motion events unavailable (\(error)); polled at "
                    + "\(pace.stillHzText) Hz once still")
            }
            return nil
        }
    }

    private init(_ events: IIOMotionEvents) { self.events = events }

    /// An event woke the poller: `moves` is the pace's count of movements now.
    func woke(moves: Int) {
        wokeAt = SampleFeed.now
        movesAtWake = moves
    }

    /// After a reading, given the pace, whether the pose has settled and the interval the pace proposes.
    func next(_ pace: PollPace, settled: Bool, proposedMs: Int) -> Next {
        let waking = SampleFeed.now - wokeAt < pace.stillAfterMs
        if pace.isStill && !waking && settled {
            if wokeAt > -.infinity {
                idleWakes = pace.moves == movesAtWake ? idleWakes + 1 : 0
                if idleWakes >= Self.idleWakeLimit { return .refuse("\(idleWakes) motion events in a row came without movement") }
            }
            events.arm()
            return .sleep
        }
        // Until the wake-up's window has passed; a pose not yet settled is polled at the still rate.
        return .poll(afterMs: waking ? min(proposedMs, pace.movingIntervalMs) : proposedMs)
    }

    /// Disables the events; safe twice.
    func close() { events.close() }
}
