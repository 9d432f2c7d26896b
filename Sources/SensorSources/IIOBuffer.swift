@preconcurrency import Glibc
import CGLib
import EventLoop
import Sensors

/// Reads an accelerometer through its IIO buffer: the kernel pushes frames on the trigger and the
/// main loop wakes only when one is there (a unix-fd watch on `/dev/iio:deviceN`, never a timer).
final class IIOBufferReader {
    private let support: IIOBufferSupport
    private let layout: FrameLayout
    private var fd: Int32 = -1
    private var watch: FDWatch?
    /// Bytes of a frame that arrived in part.
    private var pending: [UInt8] = []

    /// Enables the x, y, z scan elements, selects the trigger, enables the buffer and opens the node
    /// (O_NONBLOCK). Throws a message when any step fails, after undoing what was done.
    /// `frame` gets the raw x, y, z of the newest frame of each wake-up; `failure` a message when the
    /// device stops working (the reader is closed by then).
    init(_ support: IIOBufferSupport, frame: @escaping (Int64, Int64, Int64) -> Void,
         failure: @escaping (String) -> Void) throws(IIOError) {
        self.support = support
        let path = support.devicePath
        let scan = path + "/scan_elements"
        // A buffer left enabled (by a crashed predecessor) refuses changes to its scan elements.
        Sysfs.write(path + "/buffer/enable", "0")
        for axis in IIODevice.axes {
            if let error = Sysfs.write("\(scan)/in_accel_\(axis)_en", "1") { throw IIOError("cannot enable \(error)") }
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
        guard IIODevice.axes.allSatisfy({ layout.offsets["in_accel_\($0)"] != nil }), layout.frameSize > 0 else {
            throw IIOError("the x, y and z scan elements are not all enabled")
        }
        if Sysfs.attribute(path + "/trigger/current_trigger") != support.trigger,
           let error = Sysfs.write(path + "/trigger/current_trigger", support.trigger) {
            throw IIOError("cannot select trigger '\(support.trigger)': \(error)")
        }
        if let error = Sysfs.write(path + "/buffer/enable", "1") { throw IIOError("cannot enable the buffer: \(error)") }
        fd = open(support.node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let message = "cannot open \(support.node): \(String(cString: strerror(errno)))"
            Sysfs.write(path + "/buffer/enable", "0")
            throw IIOError(message)
        }
        watch = FDWatch(fd: fd, condition: CGLIB_IO_IN | CGLIB_IO_ERR | CGLIB_IO_HUP) { [unowned self] condition in
            if let problem = drain(frame) ?? ((condition & (CGLIB_IO_ERR | CGLIB_IO_HUP)) != 0 ? "\(support.node) hung up" : nil) {
                close()
                failure(problem)
                return false
            }
            return true
        }
    }

    /// Bytes per frame, for the log.
    var frameSize: Int { layout.frameSize }

    /// Reads everything available without blocking and hands over the newest complete frame; a problem message on failure.
    private func drain(_ frame: (Int64, Int64, Int64) -> Void) -> String? {
        var buffer = [UInt8](repeating: 0, count: max(256, layout.frameSize * 16))
        var newest: [UInt8]?
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                return "reading \(support.node): \(String(cString: strerror(errno)))"
            }
            if n == 0 { return "\(support.node) reached its end" }
            pending.append(contentsOf: buffer[0..<n])
            let whole = pending.count / layout.frameSize * layout.frameSize
            if whole > 0 {
                newest = Array(pending[(whole - layout.frameSize)..<whole])
                pending.removeFirst(whole)
            }
        }
        if let newest, let x = layout.value(of: "in_accel_x", in: newest), let y = layout.value(of: "in_accel_y", in: newest),
           let z = layout.value(of: "in_accel_z", in: newest) {
            frame(x, y, z)
        }
        return nil
    }

    /// Stops the watch, closes the node and disables the buffer, so the sensor stops sampling.
    func close() {
        watch?.cancel()
        watch = nil
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
            Sysfs.write(support.devicePath + "/buffer/enable", "0")
        }
        pending = []
    }

    deinit { close() }
}

/// What went wrong with an IIO device, as a message for the log.
struct IIOError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
