// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Sensors

/// The sensors besides the accelerometer that a desktop reads through `net.hadess.SensorProxy`.
public enum ScalarSensorKind: String, Sendable, CaseIterable {
    case light = "ambient light sensor"
    case proximity = "proximity sensor"
    case compass = "compass"

    /// The peer's `IIO_SENSOR_PROXY_TYPE`s for devices of this kind.
    var udevTypes: [String] {
        switch self {
        case .light: ["iio-poll-als", "iio-buffer-als"]
        case .proximity: ["iio-poll-proximity"]
        case .compass: ["iio-buffer-compass"]
        }
    }

    /// The scan element a buffered device of this kind reports in.
    var bufferedChannel: String? {
        switch self {
        case .light: "in_intensity_both"
        case .proximity: nil
        case .compass: "in_rot_from_north_magnetic_tilt_comp"
        }
    }
}

/// One reading of a light or proximity sensor.
public enum ScalarReading: Equatable, Sendable {
    /// Illuminance: in lux, or in the device's own unit (`LightLevelUnit` "vendor").
    case light(level: Double, lux: Bool)
    /// Whether something is near (`ProximityNear`).
    case proximity(near: Bool)
    /// Degrees from magnetic north (`CompassHeading`).
    case compass(heading: Double)
}

/// A light or proximity device found in sysfs, and how to read it.
struct ScalarDevice: Equatable {
    let kind: ScalarSensorKind
    /// `iio:device1`.
    let sysname: String
    let path: String
    /// How it is read.
    let mode: Mode
    /// What a raw value is multiplied by (1 for an `_input` value, already in lux).
    let scale: Double
    /// Proximity only: the raw value above which something is near.
    let nearLevel: Double?

    enum Mode: Equatable {
        /// One read of `attribute` (e.g. `in_illuminance_input`) every `intervalMs`.
        case polled(attribute: String, intervalMs: Int)
        /// Apple's SMC `light` attribute, `(a,b)`, every `intervalMs`: a vendor unit (`AppleSMCLight`).
        case appleSMC(attribute: String, intervalMs: Int)
        /// An input device's `SW_FRONT_PROXIMITY` switch (phones' proximity sensors behind gpio-keys):
        /// its state read with `EVIOCGSW` when reading starts, then its switch events as they come.
        case inputSwitch(node: String)
        /// Frames from the device's buffer, which wake the daemon only when the device reports; the
        /// channel's `_raw` attribute, when the device has one, is polled every `fallbackIntervalMs`
        /// when the buffer cannot be used (e.g. under the shipped unit, which keeps /sys read-only).
        case buffered(IIOBufferSupport, fallback: String?, fallbackIntervalMs: Int)
    }

    /// Where IIO devices live in sysfs.
    static let busDirectory = Sysfs.iioDevices
    /// iio-sensor-proxy's poll intervals: light every 0.8 s (or the device's integration time), proximity every 0.7 s.
    static let lightIntervalMs = 800
    static let proximityIntervalMs = 700
    /// Apple's SMC light sensor is read every 0.4 s while claimed, so a change of light is seen within
    /// half a second (the peer polls it every 8 s); nothing reads it while unclaimed.
    static let appleSMCIntervalMs = 400
    /// Where platform and hwmon devices live in sysfs.
    static let platformDirectory = Sysfs.platformDevices
    static let hwmonDirectory = Sysfs.hwmonClass

    /// The first device of `kind` by name, skipping `excluded`: one the peer's udev rule marked with
    /// `IIO_SENSOR_PROXY_TYPE` (a list: one device may be several sensors), or without that property
    /// one with the attributes the rule tests. A proximity sensor without a near level cannot tell
    /// near from far and is passed over (`unusable` gets its name). Only looks at which files exist
    /// and at the device's properties: it never reads a value.
    static func discover(_ kind: ScalarSensorKind, excluded: String? = nil, unusable: (String) -> Void = { _ in }) -> ScalarDevice? {
        // Every device of the iio subsystem, whatever its directory is called (triggers have no channels).
        for sysname in Sysfs.list(busDirectory) where sysname != excluded {
            let path = busDirectory + "/" + sysname
            let udev = UdevProperties(devicePath: path)
            if let types = udev.sensorTypes, !kind.udevTypes.contains(where: { types.contains(Substring($0)) }) { continue }
            guard let device = load(kind, sysname, path, udev) else { continue }
            if kind == .proximity && device.nearLevel == nil {
                unusable(sysname)
                continue
            }
            return device
        }
        switch kind {
        case .light: return appleSMC()
        case .proximity: return InputSwitch.discover(InputSwitch.frontProximity, excluded: excluded).map {
            ScalarDevice(kind: kind, sysname: $0.sysname, path: $0.path, mode: .inputSwitch(node: $0.node), scale: 1, nearLevel: nil)
        }
        case .compass: return nil
        }
    }

    /// Apple's SMC light sensor of older MacBooks: a platform or hwmon device with a `light` attribute
    /// that is the SMC's (`MODALIAS=platform:applesmc`) or that the peer's rule marked `hwmon-als`.
    private static func appleSMC() -> ScalarDevice? {
        for directory in [platformDirectory, hwmonDirectory] {
            for name in Sysfs.list(directory) {
                let path = directory + "/" + name
                guard Sysfs.exists(path + "/light") else { continue }
                let udev = UdevProperties(devicePath: path)
                let modalias = Sysfs.attribute(path + "/modalias") ?? Sysfs.attribute(path + "/device/modalias") ?? udev["MODALIAS"]
                let marked = udev["IIO_SENSOR_PROXY_TYPE"]?.split(separator: " ").contains("hwmon-als") ?? false
                guard modalias == "platform:applesmc" || marked else { continue }
                return ScalarDevice(kind: .light, sysname: name, path: path,
                                    mode: .appleSMC(attribute: "light", intervalMs: appleSMCIntervalMs), scale: 1, nearLevel: nil)
            }
        }
        return nil
    }

    private static func load(_ kind: ScalarSensorKind, _ sysname: String, _ path: String, _ udev: UdevProperties) -> ScalarDevice? {
        switch kind {
        case .light:
            for channel in ["in_illuminance", "in_illuminance0"] {
                let interval = Sysfs.attribute("\(path)/\(channel)_integration_time").flatMap(SysfsNumber.parse)
                    .map { Int(($0 * 1000).rounded()) }.flatMap { $0 > 0 ? min($0, lightIntervalMs) : nil } ?? lightIntervalMs
                if Sysfs.exists("\(path)/\(channel)_input") {
                    return ScalarDevice(kind: kind, sysname: sysname, path: path,
                                        mode: .polled(attribute: "\(channel)_input", intervalMs: interval), scale: 1, nearLevel: nil)
                }
                if Sysfs.exists("\(path)/\(channel)_raw") {
                    return ScalarDevice(kind: kind, sysname: sysname, path: path,
                                        mode: .polled(attribute: "\(channel)_raw", intervalMs: interval),
                                        scale: scale(path, ["\(channel)_scale"]), nearLevel: nil)
                }
            }
            return buffered(kind, sysname, path, udev, scales: ["in_intensity_both_scale", "in_intensity_scale"])
        case .proximity:
            // The channel unindexed, or indexed as phones' sensors name it (`in_proximity0_raw`).
            guard let channel = ["in_proximity", "in_proximity0"].first(where: { Sysfs.exists("\(path)/\($0)_raw") }) else { return nil }
            let level = udev["PROXIMITY_NEAR_LEVEL"].flatMap(SysfsNumber.parse)
                ?? Sysfs.attribute("\(path)/\(channel)_nearlevel").flatMap(SysfsNumber.parse)
                ?? Sysfs.attribute("\(path)/in_proximity_nearlevel").flatMap(SysfsNumber.parse)
            return ScalarDevice(kind: kind, sysname: sysname, path: path,
                                mode: .polled(attribute: "\(channel)_raw", intervalMs: proximityIntervalMs),
                                scale: 1, nearLevel: level.flatMap { $0 > 0 ? $0 : nil })
        case .compass:
            return buffered(kind, sysname, path, udev, scales: ["in_rot_from_north_magnetic_tilt_comp_scale", "in_rot_scale"])
        }
    }

    /// A device of `kind` read through its buffer, in the kind's one channel.
    private static func buffered(_ kind: ScalarSensorKind, _ sysname: String, _ path: String, _ udev: UdevProperties,
                                 scales: [String]) -> ScalarDevice? {
        guard let channel = kind.bufferedChannel,
              let support = IIOBufferSupport(devicePath: path, sysname: sysname, udev: udev, channels: [channel]) else { return nil }
        let raw = "\(channel)_raw"
        return ScalarDevice(kind: kind, sysname: sysname, path: path,
                            mode: .buffered(support, fallback: Sysfs.exists("\(path)/\(raw)") ? raw : nil,
                                            fallbackIntervalMs: kind == .light ? lightIntervalMs : proximityIntervalMs),
                            scale: scale(path, scales), nearLevel: nil)
    }

    /// The first of `names` that holds a usable number, else 1.
    private static func scale(_ path: String, _ names: [String]) -> Double {
        for name in names {
            if let value = Sysfs.attribute("\(path)/\(name)").flatMap(SysfsNumber.parse), value != 0, value.isFinite { return value }
        }
        return 1
    }
}
