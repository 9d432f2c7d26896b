// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Arguments
import Calibration
import Configuration
import DBus
import Orientation
import OrientationAPI
import SensorSources
import Sensors
import SystemCalls

/// `calibrate [accelerometer|hinge]`: the mount matrix and the hinge range from the user's hands,
/// written where udev and orientationd read them (Docs/sensors.md, "Calibration").
enum CalibrateCommand {
    static let help = """
        Usage: orientationctl calibrate [accelerometer|hinge] [--yes] [--root DIR]
                                        [--config FILE] [--hold-ms MS]

        accelerometer (the default): measures the mount matrix of each
        accelerometer orientationd uses (the display's, and the base's if there
        is one). You hold the device still in three poses, each confirmed with
        Enter: upright in its natural orientation, turned a quarter so its right
        edge is up, and flat face up (with two accelerometers, with the lid
        shut). Each pose is read from the raw attributes for a second, and
        refused, and asked again, when the device moved, the magnitude is off,
        the pose is between two or repeats an earlier pose's axis. The matrix
        measured is shown beside the one in force; when they differ, and after
        you agree, the entry is written to /etc/udev/hwdb.d/61-sensor-local.hwdb
        (its match line as systemd's 60-sensor.hwdb says), `systemd-hwdb update`
        and `udevadm trigger` are run, the new matrix is read back from udev and
        orientationd, which reads it again at once, is asked for the pose you
        hold. Last, the entry to send to systemd's hwdb.d/60-sensor.hwdb.

        hinge: you close the device, open it as a laptop, lay it flat and fold
        it back fully, each step confirmed with Enter, while orientationd's
        HingeAngle is recorded; the range reached is shown, and [Posture]
        LaptopAngle, TabletAngle and Hysteresis fitted inside it are written,
        after you agree, to
        /etc/orientationd/orientationd.conf.d/50-calibration.conf; then
        orientationd reads its configuration again (SIGHUP) and says the
        posture it reads.

        --yes          write without asking
        --root DIR     write under DIR (DIR/etc/udev/hwdb.d/…,
                       DIR/etc/orientationd/…) and stop there: nothing is
                       run, nothing reloaded
        --config FILE  orientationd reads FILE (its --config): its
                       [Sensor] MountMatrix is the matrix in force, and the
                       hinge's drop-in goes to FILE.d/50-calibration.conf
        --hold-ms MS   how long each pose is read (100 to 10000; 1000)

        Writing needs root (sudo orientationctl calibrate). Exit status 0 when
        the matrices in force were right or the fix was written; 1 when a step
        failed or the input ended before every pose was read.
        """

    struct Options {
        var what = "accelerometer"
        var yes = false
        var root: String?
        var config: String?
        var holdMs = 1000
    }

    static func run(_ invocation: Invocation) throws(Failure) {
        var options = Options()
        var cursor = ArgumentCursor(invocation.arguments)
        var named = false
        while let argument = cursor.next() {
            switch argument {
            case "--yes": options.yes = true
            case "--root", "--config":
                guard let value = cursor.value(), !value.isEmpty else { throw .commandUsage("calibrate: \(argument) needs a value", command: "calibrate") }
                if argument == "--root" { options.root = value } else { options.config = value }
            case "--hold-ms":
                guard let text = cursor.value(), let ms = Int(text), (100...10_000).contains(ms) else {
                    throw .commandUsage("calibrate: --hold-ms takes milliseconds from 100 to 10000", command: "calibrate")
                }
                options.holdMs = ms
            case "accelerometer", "hinge":
                guard !named else { throw .commandUsage("calibrate: one of accelerometer and hinge", command: "calibrate") }
                options.what = argument
                named = true
            default:
                throw .commandUsage("calibrate: unknown argument '\(argument)'; accepted: accelerometer or hinge, and the options",
                                    command: "calibrate")
            }
            if cursor.hasUnusedValue { throw .commandUsage("calibrate: \(argument) takes no value", command: "calibrate") }
        }
        var input = TerminalInput()
        if options.what == "hinge" {
            try HingeCalibrationRun(options: options, invocation: invocation).run(&input)
        } else {
            try MatrixCalibrationRun(options: options, invocation: invocation).run(&input)
        }
    }

    /// The settings orientationd reads (the configuration's MountMatrix and hinge thresholds).
    static func settings(_ options: Options) throws(Failure) -> Settings {
        let outcome: DaemonCommandLine.Outcome
        do { outcome = try DaemonCommandLine.parse(options.config.map { ["--config", $0] } ?? []) } catch {
            throw .runtime("calibrate: \(error.message)")
        }
        guard case .run(let settings, _) = outcome else { throw .runtime("calibrate: the configuration cannot be read") }
        return settings
    }

    /// Asks `question`; true with `--yes` or an answer starting with y.
    static func confirm(_ question: String, _ options: Options, _ input: inout TerminalInput) -> Bool {
        if options.yes { return true }
        emit(question + " [y/N]")
        guard let answer = input.line() else { return false }
        return answer.first == "y" || answer.first == "Y"
    }

    /// `path` under `--root`.
    static func rooted(_ path: String, _ options: Options) -> String { (options.root ?? "") + path }

    /// Makes `directory` and its parents.
    static func makeDirectories(_ directory: String) throws(Failure) {
        var path = ""
        for part in directory.split(separator: "/") {
            path += "/" + part
            guard !FileSystem.exists(path) else { continue }
            do { try FileSystem.makeDirectory(path, permissions: 0o755) } catch {
                throw .runtime("calibrate: cannot create \(path): \(error)")
            }
        }
    }

    /// Replaces `path` with `text` (a temporary file renamed over it, synced), mode 0644.
    static func write(_ text: String, to path: String) throws(Failure) {
        let slash = path.lastIndex(of: "/")!
        let directory = String(path[..<slash]), name = String(path[path.index(after: slash)...])
        try makeDirectories(directory)
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } catch {
            throw .runtime("calibrate: cannot open \(directory): \(error)")
        }
        defer { fd.close() }
        let temporary = "." + name + ".tmp"
        _ = try? fd.unlink(temporary)
        let failure = DurableWrite.now(directory: fd, temporary: temporary, name: name, data: Array(text.utf8))
        guard failure.step == 0 else {
            throw .runtime("calibrate: cannot write \(path): \(String(cString: strerror(failure.error)))")
        }
    }

    /// The file's text, empty when it does not exist.
    static func read(_ path: String) -> String {
        String(decoding: (try? StartupFile.read(path, limit: 1 << 20)) ?? [], as: UTF8.self)
    }

    /// Runs `argv`, waiting; says what failed.
    static func runTool(_ argv: [String]) -> Bool {
        emit("$ " + argv.joined(separator: " "))
        guard let child = try? Subprocess.spawn(argv, output: .inherit, errors: .inherit) else {
            complain("calibrate: cannot start \(argv[0])")
            return false
        }
        guard let status = try? ProcessCalls.wait(child.pid), Subprocess.exitCode(status) == 0 else {
            complain("calibrate: \(argv.joined(separator: " ")) failed")
            return false
        }
        return true
    }

    static func sleepMs(_ ms: Int) { usleep(useconds_t(ms * 1000)) }
}

/// Lines typed on standard input, read with `read(2)` so that waiting for one can be interleaved
/// with sampling (`poll` with a timeout).
struct TerminalInput {
    private var pending: [UInt8] = []
    private var ended = false

    /// The next line without its newline; nil at the end of the input. `whileWaiting` runs every
    /// `everyMs` until the line comes.
    mutating func line(everyMs: Int32 = 100, whileWaiting: () -> Void = {}) -> String? {
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            if ended {
                guard !pending.isEmpty else { return nil }
                defer { pending = [] }
                return String(decoding: pending, as: UTF8.self)
            }
            var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, everyMs)
            if ready == 0 {
                whileWaiting()
                continue
            }
            if ready < 0 && errno == EINTR { continue }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { ended = true } else { pending += buffer[..<count] }
        }
    }
}

/// `calibrate accelerometer`.
struct MatrixCalibrationRun {
    let options: CalibrateCommand.Options
    let invocation: Invocation

    func run(_ input: inout TerminalInput) throws(Failure) {
        let settings = try CalibrateCommand.settings(options)
        let devices: [CalibrationAccelerometer]
        do { devices = try CalibrationAccelerometer.find(configMatrix: settings.mountMatrix) } catch {
            throw .runtime("calibrate: \(error.message)")
        }
        guard !devices.isEmpty else {
            throw .runtime("calibrate: no accelerometer found: no IIO device with in_accel_x_raw, in_accel_y_raw and in_accel_z_raw "
                           + "is in the display (Docs/troubleshooting.md)")
        }
        for device in devices {
            emit("\(device.sysname), in the \(device.inBase ? "base" : "display"): mount matrix in force \(device.matrixInForce) "
                 + "(\(device.matrixSource))")
        }
        let closed = devices.count > 1
        if closed { emit("Two accelerometers: hold the device closed, lid shut, in every pose, so that both read the same.") }
        var calibrations = devices.map { _ in MountCalibration() }
        for (n, pose) in MountCalibration.Pose.allCases.enumerated() {
            while true {
                emit("")
                emit("\(n + 1)/3: hold the device \(closed ? "closed, " : "")\(pose.instruction); keep it still and press Enter.")
                guard input.line() != nil else {
                    throw .runtime("calibrate: the input ended before the \(pose.name) pose was read; nothing was written")
                }
                emit("Reading for \(options.holdMs) ms: keep still.")
                let readings = sample(devices)
                var trial = calibrations
                var refusal: String?
                for index in devices.indices {
                    do { try trial[index].take(pose, readings: readings[index]) } catch {
                        refusal = (closed ? devices[index].sysname + ": " : "") + error.message
                        break
                    }
                }
                if let refusal {
                    emit("Refused: \(refusal). Once more.")
                    continue
                }
                calibrations = trial
                for (device, calibration) in zip(devices, calibrations) {
                    guard let axis = calibration.accepted[pose] else { continue }
                    emit("\(closed ? device.sysname + ": " : "")\(pose.name): gravity along the sensor's \(axis.sign > 0 ? "+" : "-")"
                         + "\(["x", "y", "z"][axis.axis]) axis.")
                }
                break
            }
        }
        emit("")
        var changed: [(device: CalibrationAccelerometer, matrix: MountMatrix)] = []
        for (device, calibration) in zip(devices, calibrations) {
            guard let matrix = calibration.matrix, MountCalibration.isSignedPermutation(matrix) else {
                throw .runtime("calibrate: \(device.sysname): the three poses give no mount matrix (each must put gravity along "
                               + "another of the sensor's axes)")
            }
            let mirror = MountCalibration.determinant(matrix) < 0 ? " (a mirror image: this sensor's axes are left-handed)" : ""
            emit("\(device.sysname): measured \(matrix)\(mirror); in force \(device.matrixInForce): "
                 + (matrix == device.matrixInForce ? "they agree." : "they differ."))
            if matrix != device.matrixInForce { changed.append((device, matrix)) }
        }
        guard !changed.isEmpty else {
            emit("The mount matrices in force are right: nothing to write.")
            return
        }
        if let configured = settings.mountMatrix, changed.contains(where: { !$0.device.inBase }) {
            emit("Note: [Sensor] MountMatrix=\(configured) in the configuration goes before udev's matrix for the display's "
                 + "accelerometer: remove it (or set it to the matrix measured) for the entry below to take effect.")
        }
        let machine = CalibrationAccelerometer.machine()
        guard let dmi = machine.modalias else {
            throw .runtime("calibrate: /sys/class/dmi/id/modalias cannot be read, and udev's hwdb matches on it: set [Sensor] "
                           + "MountMatrix=\(changed[0].matrix) in /etc/orientationd/orientationd.conf instead")
        }
        var entries: [HwdbEntry] = []
        for (device, matrix) in changed {
            guard let parent = device.parentModalias else {
                throw .runtime("calibrate: \(device.sysname) has no parent with a modalias, which udev's hwdb matches on: set "
                               + "[Sensor] MountMatrix=\(matrix) in /etc/orientationd/orientationd.conf instead")
            }
            entries.append(HwdbEntry(parentModalias: parent, dmi: dmi, label: device.label, matrix: matrix,
                                     vendor: machine.vendor, product: machine.product))
        }
        let path = CalibrateCommand.rooted(Self.localHwdb, options)
        emit("")
        emit("The entry for \(path):")
        for entry in entries { emit(entry.text) }
        if CalibrateCommand.confirm("Write it to \(path)?", options, &input) {
            try CalibrateCommand.write(Self.merged(CalibrateCommand.read(path), entries), to: path)
            emit("Written: \(path)")
            if options.root == nil { try apply(changed, &input) }
        } else {
            emit("Nothing written.")
        }
        emit("")
        emit("For every machine like this one to turn right, send this to systemd (hwdb.d/60-sensor.hwdb, "
             + "https://github.com/systemd/systemd), with the output of 'udevadm info --export-db':")
        emit("")
        for entry in entries { emit(entry.text) }
    }

    static let localHwdb = "/etc/udev/hwdb.d/61-sensor-local.hwdb"

    /// The file's text with `entries` in place of any entry with the same match line.
    static func merged(_ existing: String, _ entries: [HwdbEntry]) -> String {
        var lines = existing.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        if lines.isEmpty {
            lines = ["# Mount matrices measured on this machine by orientationctl calibrate (orientationctl(1)).",
                     "# Read by udev after systemd-hwdb update; see systemd's hwdb.d/60-sensor.hwdb for the format."]
        }
        for entry in entries {
            while let at = lines.firstIndex(of: entry.match) {
                var end = at + 1
                while end < lines.count, lines[end].first == " " { end += 1 }
                let start = at > 0 && lines[at - 1].first == "#" && lines[at - 1] == entry.comment ? at - 1 : at
                lines.removeSubrange(start..<end)
            }
            if lines.last.map({ !$0.isEmpty }) == true { lines.append("") }
            lines += [entry.comment, entry.match, " " + entry.property]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// About `holdMs` of readings of each device, one every 50 ms.
    private func sample(_ devices: [CalibrationAccelerometer]) -> [[(x: Double, y: Double, z: Double)]] {
        var readings = devices.map { _ in [(x: Double, y: Double, z: Double)]() }
        for round in 0...(options.holdMs / 50) {
            if round > 0 { CalibrateCommand.sleepMs(50) }
            for (index, device) in devices.enumerated() {
                if let reading = device.readRaw() { readings[index].append(reading) }
            }
        }
        return readings
    }

    /// Has udev read the new entry, checks it did, and asks orientationd for the pose held.
    private func apply(_ changed: [(device: CalibrationAccelerometer, matrix: MountMatrix)], _ input: inout TerminalInput) throws(Failure) {
        guard CalibrateCommand.runTool(["systemd-hwdb", "update"]) else { throw .runtime("calibrate: the hwdb was written but not compiled") }
        for (device, _) in changed { _ = CalibrateCommand.runTool(["udevadm", "trigger", "-v", "-p", "DEVNAME=\(device.deviceNode)"]) }
        _ = CalibrateCommand.runTool(["udevadm", "settle"])
        for (device, matrix) in changed {
            let given = device.udevMatrix().flatMap { try? MountMatrix(parsing: $0) }
            if given == matrix {
                emit("udev now gives \(device.sysname) ACCEL_MOUNT_MATRIX=\(matrix).")
            } else {
                complain("warning: udev gives \(device.sysname) \(given.map { "ACCEL_MOUNT_MATRIX=\($0)" } ?? "no ACCEL_MOUNT_MATRIX"), "
                         + "not the matrix written: another entry may match first ('udevadm info \(device.deviceNode)')")
            }
        }
        guard changed.contains(where: { !$0.device.inBase }) else { return }
        let manager: Manager
        do {
            manager = try Manager(invocation)
            _ = try manager.daemonOwner()
        } catch {
            emit("orientationd is not running here: it will read the new matrix when it starts.")
            return
        }
        try manager.call("BeginGeneratingDeviceOrientationNotifications")
        defer { _ = try? manager.call("EndGeneratingDeviceOrientationNotifications") }
        emit("")
        emit("Check: hold the device upright in its natural orientation and press Enter.")
        guard input.line() != nil else { return }
        var pose = DeviceOrientation.unknown
        for _ in 0..<30 {
            pose = (try? manager.property("DeviceOrientation").uint32Value).flatMap { DeviceOrientation(rawValue: $0) } ?? .unknown
            if pose == .portrait { break }
            CalibrateCommand.sleepMs(100)
        }
        if pose == .portrait {
            emit("orientationd reads portrait (top edge up): the screen now turns the right way.")
        } else {
            complain("warning: orientationd reads \(pose.name), not portrait, with the device upright: "
                     + "see 'journalctl -u orientationd' and Docs/troubleshooting.md")
        }
    }
}

/// `calibrate hinge`.
struct HingeCalibrationRun {
    let options: CalibrateCommand.Options
    let invocation: Invocation

    func run(_ input: inout TerminalInput) throws(Failure) {
        let settings = try CalibrateCommand.settings(options)
        let manager = try Manager(invocation)
        let owner = try manager.daemonOwner()
        try manager.call("BeginGeneratingDeviceOrientationNotifications")
        defer { _ = try? manager.call("EndGeneratingDeviceOrientationNotifications") }
        func angle() -> Double? {
            guard let value = try? manager.property("HingeAngle").doubleValue, value >= 0 else { return nil }
            return value
        }
        var first: Double?
        for _ in 0..<30 {
            first = angle()
            if first != nil { break }
            CalibrateCommand.sleepMs(100)
        }
        guard first != nil else {
            throw .runtime("calibrate: orientationd reads no hinge angle (HingeAngle is -1): it has no hinge sensor and no "
                           + "accelerometer in the base, so there is no range to measure")
        }
        var calibration = HingeCalibration()
        for (n, step) in HingeCalibration.Step.allCases.enumerated() {
            emit("")
            emit("\(n + 1)/4: \(step.instruction), then press Enter.")
            guard input.line(whileWaiting: { if let a = angle() { calibration.observe(a) } }) != nil else {
                throw .runtime("calibrate: the input ended before every step was read; nothing was written")
            }
            // The hinge is read every quarter second: half a second still gives the angle held.
            for _ in 0..<5 {
                CalibrateCommand.sleepMs(100)
                if let a = angle() { calibration.observe(a) }
            }
            guard let held = angle() else { throw .runtime("calibrate: orientationd stopped reading the hinge") }
            calibration.confirm(step, at: held)
            emit("\(HingeCalibration.figure(held))°")
        }
        let flat = calibration.steps[.flat] ?? 0
        emit("")
        emit("The hinge reached \(HingeCalibration.figure(calibration.lowest))° to \(HingeCalibration.figure(calibration.highest))°, "
             + "flat at \(HingeCalibration.figure(flat))°.")
        let old = settings.postureThresholds
        let new: PostureThresholds
        do { new = try calibration.thresholds(keeping: old) } catch { throw .runtime("calibrate: \(error.message)") }
        let reachable = calibration.highest >= old.tabletAngle + old.hysteresis
        emit("In force: LaptopAngle=\(HingeCalibration.figure(old.laptopAngle)) TabletAngle=\(HingeCalibration.figure(old.tabletAngle)) "
             + "Hysteresis=\(HingeCalibration.figure(old.hysteresis))"
             + (reachable ? "." : ": tablet posture is out of reach (entered at \(HingeCalibration.figure(old.tabletAngle + old.hysteresis))°)."))
        let text = """
            # Written by orientationctl calibrate hinge: the hinge reached \(HingeCalibration.figure(calibration.lowest))° to \
            \(HingeCalibration.figure(calibration.highest))°, flat at \(HingeCalibration.figure(flat))°.
            [Posture]
            LaptopAngle=\(HingeCalibration.figure(new.laptopAngle))
            TabletAngle=\(HingeCalibration.figure(new.tabletAngle))
            Hysteresis=\(HingeCalibration.figure(new.hysteresis))

            """
        let directory = options.config.map { $0 + ".d" } ?? ConfigFiles.dropInDirectories.last!
        let path = CalibrateCommand.rooted(directory + "/50-calibration.conf", options)
        emit("Fitted: LaptopAngle=\(HingeCalibration.figure(new.laptopAngle)) TabletAngle=\(HingeCalibration.figure(new.tabletAngle)) "
             + "Hysteresis=\(HingeCalibration.figure(new.hysteresis)): laptop up to \(HingeCalibration.figure(new.laptopAngle + new.hysteresis))°, "
             + "tablet from \(HingeCalibration.figure(new.tabletAngle + new.hysteresis))°.")
        guard CalibrateCommand.confirm("Write them to \(path)?", options, &input) else {
            emit("Nothing written.")
            return
        }
        let previous = CalibrateCommand.read(path)
        try CalibrateCommand.write(text, to: path)
        emit("Written: \(path)")
        guard options.root == nil else { return }
        // The files as orientationd reads them: a later drop-in may set the same keys.
        let reread: Settings
        do { reread = try CalibrateCommand.settings(options) } catch {
            if previous.isEmpty { unlink(path) } else { try? CalibrateCommand.write(previous, to: path) }
            throw error
        }
        if reread.postureThresholds != new {
            complain("warning: another file sets [Posture] after \(path) ('orientationctl config' shows which): it wins")
        }
        try reload(manager, owner: owner)
    }

    /// Sends orientationd SIGHUP (as `systemctl reload orientationd` does) and says the posture it reads.
    private func reload(_ manager: Manager, owner: String) throws(Failure) {
        let reply: [Value]
        do { reply = try manager.connection.callBusDriverBlocking("GetConnectionUnixProcessID", [.string(owner)]) } catch {
            throw .runtime("calibrate: cannot learn orientationd's process: \(error.message); run 'systemctl reload orientationd'")
        }
        guard let pid = reply.first?.uint32Value, kill(pid_t(pid), SIGHUP) == 0 else {
            throw .runtime("calibrate: cannot signal orientationd (\(String(cString: strerror(errno)))): run 'systemctl reload orientationd'")
        }
        emit("orientationd reads its configuration again.")
        var posture = ""
        for _ in 0..<30 {
            CalibrateCommand.sleepMs(100)
            posture = (try? manager.property("Posture").stringValue) ?? ""
            if posture == "tablet" { break }
        }
        let angle = (try? manager.property("HingeAngle").doubleValue).map(HingeCalibration.figure) ?? "?"
        emit("orientationd now reads the posture \(posture) at \(angle)°" + (posture == "tablet" ? "." : " (folded back fully, it reads tablet)."))
    }
}

extension Command {
    static let calibrate = Command(
        name: "calibrate", synopsis: "calibrate [accelerometer|hinge]",
        summary: "measure the mount matrix or the hinge range, and write the fix",
        help: CalibrateCommand.help,
        operands: .words(["accelerometer", "hinge"]),
        options: [CommandOption(flag: "--yes", summary: "write without asking"),
                  CommandOption(flag: "--root", value: "DIR", summary: "write under DIR, and run nothing"),
                  CommandOption(flag: "--config", value: "FILE", summary: "orientationd reads FILE (its --config)"),
                  CommandOption(flag: "--hold-ms", value: "MS", summary: "how long each pose is read (1000)")],
        run: CalibrateCommand.run)
}
