// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc

/// How far the screen leans back or forward, in iio-sensor-proxy's five words (`AccelerometerTilt`
/// of `net.hadess.SensorProxy`): the angle between the screen's plane and the horizontal gravity,
/// with the peer's limits. Pure: one sample in, one word out; no hysteresis, as the peer has none.
public enum AccelerometerTilt: String, Sendable, CaseIterable {
    case undefined
    case vertical
    case tiltedUp = "tilted-up"
    case tiltedDown = "tilted-down"
    case faceUp = "face-up"
    case faceDown = "face-down"

    /// Up to this many degrees from upright the screen is vertical; from `faceLimit` on it lies flat.
    public static let verticalLimit = 20.0
    public static let faceLimit = 70.0

    /// The tilt a sample shows (m/s² after the mount matrix, any scale); undefined for a sample of no
    /// length or not finite.
    public init(x: Double, y: Double, z: Double) {
        let horizontal = (x * x + y * y).squareRoot()
        guard x.isFinite, y.isFinite, z.isFinite, horizontal > 0 || z != 0 else {
            self = .undefined
            return
        }
        let degrees = (atan2(z, horizontal) * 180 / Double.pi).rounded()
        if abs(degrees) <= Self.verticalLimit {
            self = .vertical
        } else if abs(degrees) < Self.faceLimit {
            self = degrees > 0 ? .tiltedUp : .tiltedDown
        } else {
            self = degrees > 0 ? .faceUp : .faceDown
        }
    }
}
