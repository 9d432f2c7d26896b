// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import EventLoop
import Log
import Orientation

/// A mount matrix that is probably wrong, noticed (Docs/sensors.md, "Calibration"): while the posture
/// is `laptop` the display stands upright, so a display accelerometer that reads another edge up,
/// the same one for `steadyMs`, has a wrong matrix (or the laptop lies on its side). Logged once a
/// run, naming `orientationctl calibrate`; `suspect` (the `MountMatrixSuspect` property) stays true
/// until the display reads upright in laptop posture again.
final class MountMatrixCheck {
    /// How long the wrong edge must stay up.
    static let steadyMs: UInt32 = 10_000
    private(set) var suspect = false
    private var logged = false
    private var posture = Posture.unknown
    private var pose = DeviceOrientation.unknown
    private var timer: EventLoop.Timer?
    /// Called when `suspect` changes.
    private let changed: () -> Void

    init(changed: @escaping () -> Void) { self.changed = changed }

    func observe(posture: Posture) {
        guard posture != self.posture else { return }
        self.posture = posture
        evaluate()
    }

    func observe(pose: DeviceOrientation) {
        guard pose != self.pose else { return }
        self.pose = pose
        evaluate()
    }

    private func evaluate() {
        timer?.cancel()
        timer = nil
        guard posture == .laptop else { return }
        if pose == .portrait, suspect {
            suspect = false
            changed()
        }
        guard [.portraitUpsideDown, .landscapeLeft, .landscapeRight].contains(pose), !suspect else { return }
        let seen = pose
        timer = EventLoop.Timer(afterMs: Self.steadyMs) { [unowned self] in
            timer = nil
            suspect = true
            if !logged {
                logged = true
                let edge = seen.edgeUp.map { "the \($0) edge up" } ?? seen.name
                Log.warning("the display's accelerometer has read \(edge) for \(Self.steadyMs / 1000) s while the device is a laptop, "
                            + "whose display stands upright: its mount matrix is probably wrong; 'orientationctl calibrate' "
                            + "measures it and writes the fix")
            }
            changed()
        }
    }
}
