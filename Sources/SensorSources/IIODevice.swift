// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Sensors
import Log

/// One IIO accelerometer found in sysfs, with what discovery decided about it.
struct IIODevice {
    /// `iio:device0`.
    let sysname: String
    /// `/sys/bus/iio/devices/iio:device0`.
    let path: String
    let location: AccelerometerLocation
    let matrix: MountMatrix
    /// Where the matrix came from, for the log.
    let matrixSource: String
    /// How to read it through its buffer, nil when it can only be polled.
    let buffer: IIOBufferSupport?
    /// An evdev accelerometer's `/dev/input/eventN`, read with `EVIOCGABS`; nil for an IIO device.
    var inputNode: String? = nil
    /// The motion events that may wake the reader of a polled device lying still; nil when it has none.
    var motion: IIOMotionSupport? = nil

    /// Where IIO devices live in sysfs.
    static let busDirectory = Sysfs.iioDevices
    static let axes = ["x", "y", "z"]

    /// What a look through sysfs found: the accelerometer to use, and those passed over for being in a laptop's base.
    struct Discovery {
        var device: IIODevice?
        /// Sysname and what said it is in the base.
        var inBase: [(sysname: String, source: String)] = []
    }

    /// The accelerometer that shows the screen's orientation: the first (by name) marked as the
    /// display's, else the first not marked at all; one in a laptop's base never is (sensors.md,
    /// "Location"). IIO devices come first, then evdev input accelerometers. `excluded` is skipped.
    /// Only looks at which files exist and at the devices' properties: it never reads a raw value (P16).
    /// `loading` false leaves `device` nil and logs nothing: only `inBase` is wanted.
    static func discover(configMatrix: MountMatrix?, excluded: String? = nil, loading: Bool = true) -> Discovery {
        var found = Discovery()
        var display: (String, String, UdevProperties, AccelerometerLocation, String?)?
        var unmarked: (String, String, UdevProperties, AccelerometerLocation, String?)?
        func consider(_ sysname: String, _ path: String, _ udev: UdevProperties, _ node: String?) {
            let location = AccelerometerLocation(path: path, sysname: sysname, udev: udev, logging: loading)
            switch location.place {
            case .display: if display == nil { display = (sysname, path, udev, location, node) }
            case .unspecified: if unmarked == nil { unmarked = (sysname, path, udev, location, node) }
            case .base: found.inBase.append((sysname, location.source))
            }
        }
        // Every device of the iio subsystem, whatever its directory is called: the kernel names them
        // `iio:deviceN`, test beds and some drivers do not. Triggers have no channels and drop out.
        for sysname in Sysfs.list(busDirectory) where sysname != excluded {
            let path = busDirectory + "/" + sysname
            let udev = UdevProperties(devicePath: path)
            if let types = udev.sensorTypes, !types.contains("iio-poll-accel"), !types.contains("iio-buffer-accel") { continue }
            let polled = axes.allSatisfy({ Sysfs.exists("\(path)/in_accel_\($0)_raw") })
            guard polled || IIOBufferSupport.hasScanElements(devicePath: path) else { continue }
            consider(sysname, path, udev, nil)
        }
        if display == nil && unmarked == nil {
            for input in InputAccelerometerFiles.discover(excluded: excluded) { consider(input.sysname, input.path, input.udev, input.node) }
        }
        guard loading else { return found }
        found.device = (display ?? unmarked).map { chosen in
            var device = load(chosen.0, chosen.1, chosen.2, chosen.3, configMatrix)
            if let node = chosen.4 {
                device = IIODevice(sysname: device.sysname, path: device.path, location: device.location, matrix: device.matrix,
                                   matrixSource: device.matrixSource, buffer: nil, inputNode: node)
            }
            return device
        }
        return found
    }

    /// The device with its mount matrix and buffer support read.
    private static func load(_ sysname: String, _ path: String, _ udev: UdevProperties, _ location: AccelerometerLocation,
                             _ configMatrix: MountMatrix?) -> IIODevice {
        let (matrix, source) = mountMatrix(path: path, sysname: sysname, udev: udev, config: configMatrix)
        return IIODevice(sysname: sysname, path: path, location: location, matrix: matrix, matrixSource: source,
                         buffer: IIOBufferSupport(devicePath: path, sysname: sysname, udev: udev),
                         motion: IIOMotionSupport(devicePath: path, node: udev.deviceNode(else: sysname)))
    }

    /// The first valid matrix of: config, udev ACCEL_MOUNT_MATRIX, sysfs mount_matrix, in_accel_mount_matrix,
    /// in_mount_matrix; identity otherwise. A bad one is logged and the next is tried.
    static func mountMatrix(path: String, sysname: String, udev: UdevProperties,
                            config: MountMatrix?) -> (MountMatrix, String) {
        if let config { return (config, "the config's MountMatrix") }
        var candidates: [(String, String?)] = [("udev property ACCEL_MOUNT_MATRIX", udev["ACCEL_MOUNT_MATRIX"])]
        for name in ["mount_matrix", "in_accel_mount_matrix", "in_mount_matrix"] {
            candidates.append(("sysfs \(name)", Sysfs.attribute("\(path)/\(name)")))
        }
        for (source, text) in candidates {
            guard let text else { continue }
            do {
                return (try MountMatrix(parsing: text), source)
            } catch {
                Log.warning("\(sysname): \(source) ignored: \(error.message)")
            }
        }
        return (.identity, "identity (no mount matrix given)")
    }
}

/// A device's udev properties: from its sysfs `uevent` file (where umockdev and some drivers put them),
/// then from the udev database `/run/udev/data/c<major>:<minor>` (`E:KEY=VALUE` lines).
struct UdevProperties {
    private var values: [String: String] = [:]
    /// The device's udev tags: the database's `G:` and `Q:` lines, and the `TAGS` property.
    private(set) var tags: Set<Substring> = []

    init(devicePath: String) {
        if let text = Sysfs.attribute(devicePath + "/uevent") {
            for line in text.split(separator: "\n") { add(line) }
        }
        if let dev = Sysfs.attribute(devicePath + "/dev"), let text = Sysfs.attribute("/run/udev/data/c" + dev) {
            for line in text.split(separator: "\n") {
                if line.utf8.starts(with: "E:".utf8) { add(line.dropFirst(2)) }
                if line.utf8.starts(with: "G:".utf8) || line.utf8.starts(with: "Q:".utf8) { tags.insert(line.dropFirst(2)) }
            }
        }
        for key in ["TAGS", "CURRENT_TAGS"] {
            for tag in (values[key] ?? "").split(separator: ":") { tags.insert(tag) }
        }
    }

    private mutating func add(_ line: Substring) {
        guard let equals = line.firstIndex(of: "=") else { return }
        let key = String(line[..<equals])
        if values[key] == nil { values[key] = String(line[line.index(after: equals)...]).trimmedBlanks }
    }

    subscript(key: String) -> String? { values[key] }

    /// The kinds of sensor the peer's udev rule marked the device as (`IIO_SENSOR_PROXY_TYPE`, a
    /// list: one device may be several sensors); nil when it is not marked.
    var sensorTypes: [Substring]? { values["IIO_SENSOR_PROXY_TYPE"]?.split(separator: " ") }

    /// The device's node: udev's `DEVNAME`, else `fallback`, under `/dev` unless absolute.
    func deviceNode(else fallback: String) -> String {
        let node = values["DEVNAME"] ?? fallback
        return node.utf8.starts(with: "/".utf8) ? node : "/dev/" + node
    }
}

/// What buffered reading needs: scan elements for the channels read, a buffer, a trigger and the character device.
struct IIOBufferSupport: Equatable {
    let devicePath: String
    /// The scan elements read, e.g. `in_accel_x`, `in_accel_y`, `in_accel_z`.
    let channels: [String]
    /// The trigger to select in `trigger/current_trigger`; nil for a device that has no trigger to
    /// choose (it pushes frames on its own, or its driver chose one).
    let trigger: String?
    /// `/dev/iio:deviceN`.
    let node: String

    /// `trigger accel_3d-dev0`, or that there is none to choose, for the log.
    var triggerDescription: String { trigger.map { "trigger \($0)" } ?? "no trigger" }

    /// Whether the device at `devicePath` has a buffer and scan elements for `channels`: all a device
    /// needs to be read through its buffer, with or without a trigger.
    static func hasScanElements(devicePath: String, channels: [String] = IIODevice.axes.map { "in_accel_\($0)" }) -> Bool {
        let scan = devicePath + "/scan_elements"
        return Sysfs.exists(devicePath + "/buffer/enable")
            && channels.allSatisfy({ Sysfs.exists("\(scan)/\($0)_en") && Sysfs.exists("\(scan)/\($0)_type")
                                     && Sysfs.exists("\(scan)/\($0)_index") })
    }

    /// Nil when the device lacks a buffer or a scan element. `channels` defaults to an accelerometer's
    /// three axes. The node is not looked for here: a node that cannot be opened fails the claim's
    /// reading with its path in the message, where a missing one would hide the device.
    init?(devicePath: String, sysname: String, udev: UdevProperties,
          channels: [String] = IIODevice.axes.map { "in_accel_\($0)" }) {
        guard Self.hasScanElements(devicePath: devicePath, channels: channels) else { return nil }
        var found: String?
        if Sysfs.isWritable(devicePath + "/trigger/current_trigger") {
            let name = Sysfs.attribute(devicePath + "/name") ?? ""
            // The trigger a driver registers for its own data-ready interrupt is named `<name>-dev<N>`,
            // N the device's number (the digits that end `iio:deviceN`).
            let number = String(sysname.reversed().prefix(while: \.isNumber).reversed())
            let wanted = ["\(name)-dev\(number)", "\(name)-trigger"]
            for entry in Sysfs.list(IIODevice.busDirectory) where entry.utf8.starts(with: "trigger".utf8) {
                if let trigger = Sysfs.attribute("\(IIODevice.busDirectory)/\(entry)/name"), wanted.contains(trigger) {
                    found = trigger
                    break
                }
            }
            if found == nil, let current = Sysfs.attribute(devicePath + "/trigger/current_trigger"), !current.isEmpty {
                found = current
            }
        }
        // A device that wants a trigger and has none found is read through its buffer only when it
        // cannot be polled instead: one that pushes frames by itself may still do.
        if found == nil, Sysfs.exists(devicePath + "/trigger"), channels.allSatisfy({ Sysfs.exists("\(devicePath)/\($0)_raw") }) {
            return nil
        }
        trigger = found
        self.devicePath = devicePath
        self.channels = channels
        node = udev.deviceNode(else: sysname)
    }
}
