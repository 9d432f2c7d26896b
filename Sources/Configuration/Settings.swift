// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import Orientation
import Policy
import Sensors

/// Where device orientations come from (`[Sensor] Source`, `--sensor`).
public enum SensorSourceKind: String, CaseIterable, Sendable {
    case auto
    case iio
    case sensorProxy = "sensor-proxy"
    case simulated
    case none
}

/// A screen's size in pixels, as held in portrait.
public struct ScreenSize: Equatable, Sendable {
    public var width: UInt32
    public var height: UInt32
    public init(width: UInt32, height: UInt32) {
        self.width = width
        self.height = height
    }
}

/// Everything the daemon is started with: the config file's values overridden by the command line.
public struct Settings {
    public var bus: BusAddress = .system
    public var configPath: String?
    /// The files read, in the order they were applied: the main file (when it exists), then the drop-ins.
    public var configFiles: [String] = []
    /// Every known key the files set, in the order applied: the last of a group and key is in force.
    public var configValues: [ConfigValue] = []
    /// `[Application] Idiom` was `phone` or `tablet` in this file; nil for `auto` (the default), which
    /// takes the idiom from the chassis.
    public var idiomFile: String?
    /// The chassis the idiom was taken from with `Idiom=auto`; nil when the config chose the idiom.
    public var chassis: Chassis?
    public var sensor: SensorSourceKind = .auto
    public var replayPath: String?
    public var stateDirectory = "/var/lib/orientationd"
    public var sensorProxyCompat = false
    public var verbose = false
    /// `--keep-pages`: the program's pages are not handed back to the kernel while idle.
    public var keepsPagesWhenIdle = false
    public var policy = PolicyConfiguration()
    /// Seconds from WillChange to DidChange.
    public var rotationDuration = 0.0
    /// `[Posture]`'s hinge thresholds (P18).
    public var postureThresholds = PostureThresholds()
    /// `[Lock] SuggestionSeconds`: how long a rotation suggestion stands (P19); 0 never suggests.
    public var suggestionSeconds = 20
    /// `[Posture] PointerEvidence`: whether the pointers plugged in give the posture (source 4).
    public var pointerEvidence = true
    public var portraitSize: ScreenSize?
    public var pollHz = 20
    /// The poll rate once the device has lain still (battery against latency: Docs/sensors.md). 1.43 Hz,
    /// iio-sensor-proxy's 700 ms: about 0.55× its CPU while still for as many wake-ups, a sudden turn
    /// from stillness seen about when it sees one, and a hand's turn as it ends when a poll falls
    /// within it (Docs/performance.md, "The default still rate").
    public var stillPollHz = 1.43
    /// How long readings must hold within `stillTolerance`, the classifier settled on their pose, before
    /// the still rate applies (`[Sensor] StillAfterMs`); a second at least while it has not settled.
    public var stillAfterMs = 200.0
    /// How far a reading may stray, m/s² per axis, and still count as still (`[Sensor] StillTolerance`).
    public var stillTolerance = 0.5
    /// `[Sensor] MotionEvents`: a polled accelerometer whose driver offers a motion event is not polled
    /// while it lies still; the event wakes the reader (Docs/sensors.md, "Motion events").
    public var motionEvents = true
    /// `[Sensor] MotionStillAfterMs`: how long readings must hold before such a device stops being polled.
    public var motionStillAfterMs = 100.0
    /// `[Sensor] MountMatrix`, first in precedence over the device's own.
    public var mountMatrix: MountMatrix?
    /// The classifier's thresholds (`[Classifier]`).
    public var classifier = ClassifierSettings()
    /// The bytes of calls that may wait for their turn (`[Limits] QueuedBytes…`).
    public var queueLimits = QueueLimits()
    public var privilegedUsers: [String] = []
    public var privilegedGroups: [String] = []
    /// `[Applications] DataDirs`: where desktop files are looked for; nil means `XDG_DATA_DIRS` and
    /// Flatpak's exports (applications.md).
    public var applicationDataDirs: [String]?

    /// The default config file, read when `--config` is not given; its absence means all defaults.
    public static let defaultConfigPath = "/etc/orientationd/orientationd.conf"

    /// Where the idiom in force comes from, in a few words and without a path: the `IdiomSource` property,
    /// e.g. `chassis convertible (DMI 31)`, `configuration`, `no chassis found`.
    public var idiomSource: String {
        if idiomFile != nil { return "configuration" }
        guard let chassis else { return "default" }
        return chassis.name == "unknown" ? "no chassis found" : "chassis \(chassis.name) (\(chassis.source))"
    }

    /// Where the idiom in force comes from, with the file: the log and `orientationctl config`.
    public var idiomExplanation: String {
        if let idiomFile { return "Idiom=\(policy.idiom.rawValue) in \(idiomFile)" }
        guard let chassis else { return "default" }
        return chassis.name == "unknown" ? "Idiom=auto, no chassis found: \(policy.idiom.rawValue)"
            : "Idiom=auto, chassis \(chassis.name) from \(chassis.origin)"
    }

    public init() {}
}

/// One key a config file set, with the file: `orientationctl config` prints the last of each.
public struct ConfigValue: Equatable, Sendable {
    public var group: String
    public var key: String
    public var value: String
    public var file: String
}

