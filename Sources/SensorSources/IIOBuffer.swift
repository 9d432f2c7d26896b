// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls
import CGLib
import EventLoop
import Sensors

/// Reads a sensor's channels (an accelerometer's three axes, a light sensor's intensity, a compass's
/// heading) through its IIO buffer: the kernel pushes frames on the trigger and the main loop wakes
/// only when one is there (a unix-fd watch on `/dev/iio:deviceN`, never a timer).
final class IIOBufferReader {
    private let support: IIOBufferSupport
    private let layout: FrameLayout
    private var fd: FileDescriptor?
    private var watch: FDWatch?
    /// Bytes of a frame that arrived in part.
    private var pending: [UInt8] = []

    /// Enables the support's scan elements, selects the trigger, enables the buffer and opens the node
    /// (O_NONBLOCK). Throws when any step fails, after undoing what was done.
    /// `frame` gets the raw values of the channels, in the support's order, of the newest frame of
    /// each wake-up; `failure` why the device stopped working (the reader is closed by then).
    init(_ support: IIOBufferSupport, frame: @escaping ([Int64]) -> Void,
         failure: @escaping (IIOError) -> Void) throws(IIOError) {
        self.support = support
        let path = support.devicePath
        let scan = path + "/scan_elements"
        func write(_ file: String, _ value: String, doing: String) throws(IIOError) {
            do { try Sysfs.write(file, value) } catch { throw error.prefixed(doing) }
        }
        // A buffer left enabled (by a crashed predecessor) refuses changes to its scan elements.
        try? Sysfs.write(path + "/buffer/enable", "0")
        for channel in support.channels {
            try write("\(scan)/\(channel)_en", "1", doing: "cannot enable ")
        }
        // The frame holds every enabled channel (a timestamp, other axes), so lay out all of them.
        var channels: [ScanChannel] = []
        for entry in Sysfs.list(scan) where entry.hasSuffix("_en") {
            guard Sysfs.attribute("\(scan)/\(entry)") == "1" else { continue }
            let name = String(entry.dropLast(3))
            guard let index = Sysfs.attribute("\(scan)/\(name)_index").flatMap({ Int($0) }),
                  let typeText = Sysfs.attribute("\(scan)/\(name)_type"), let type = ScanElementType(parsing: typeText) else {
                throw IIOError("\(scan)/\(name): unreadable index or type")
            }
            channels.append(ScanChannel(name: name, index: index, type: type))
        }
        layout = FrameLayout(channels)
        guard support.channels.allSatisfy({ layout.offsets[$0] != nil }), layout.frameSize > 0 else {
            throw IIOError("the scan elements \(support.channels.joined(separator: ", ")) are not all enabled")
        }
        if let trigger = support.trigger, Sysfs.attribute(path + "/trigger/current_trigger") != trigger {
            try write(path + "/trigger/current_trigger", trigger, doing: "cannot select trigger '\(trigger)': ")
        }
        try write(path + "/buffer/enable", "1", doing: "cannot enable the buffer: ")
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(support.node, O_RDONLY | O_NONBLOCK)
        } catch {
            try? Sysfs.write(path + "/buffer/enable", "0")
            throw IIOError(path: support.node, error).prefixed("cannot open ")
        }
        self.fd = fd
        watch = FDWatch(fd: fd.rawValue, condition: CGLIB_IO_IN | CGLIB_IO_ERR | CGLIB_IO_HUP) { [unowned self] condition in
            if let problem = drain(fd, frame)
                ?? ((condition & (CGLIB_IO_ERR | CGLIB_IO_HUP)) != 0 ? IIOError("\(support.node) hung up") : nil) {
                close()
                failure(problem)
                return false
            }
            return true
        }
    }

    /// Bytes per frame, for the log.
    var frameSize: Int { layout.frameSize }

    /// Reads everything available without blocking and hands over the newest complete frame; the problem on failure.
    private func drain(_ fd: FileDescriptor, _ frame: ([Int64]) -> Void) -> IIOError? {
        var buffer = [UInt8](repeating: 0, count: max(256, layout.frameSize * 16))
        var newest: [UInt8]?
        while true {
            let n: Int
            do {
                n = try fd.read(into: &buffer)
            } catch .wouldBlock {
                break
            } catch {
                return IIOError(path: support.node, error).prefixed("reading ")
            }
            if n == 0 { return IIOError("\(support.node) reached its end") }
            pending.append(contentsOf: buffer[0..<n])
            let whole = pending.count / layout.frameSize * layout.frameSize
            if whole > 0 {
                newest = Array(pending[(whole - layout.frameSize)..<whole])
                pending.removeFirst(whole)
            }
        }
        if let newest {
            let values = support.channels.compactMap { layout.value(of: $0, in: newest) }
            if values.count == support.channels.count { frame(values) }
        }
        return nil
    }

    /// Stops the watch, closes the node and disables the buffer, so the sensor stops sampling.
    func close() {
        watch?.cancel()
        watch = nil
        if let fd {
            fd.close()
            self.fd = nil
            try? Sysfs.write(support.devicePath + "/buffer/enable", "0")
        }
        pending = []
    }

    deinit { close() }
}
