// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
import Sensors
import OrientationAPI
import Log

/// The `auto` source: the IIO accelerometer when there is one; otherwise, when an upstream
/// iio-sensor-proxy other than this process has one, that proxy (sensors.md, "Sources").
///
/// Both are watched for as long as the daemon runs, not asked once at start: an IIO device that
/// is plugged in (or bound late) replaces the proxy, and a proxy that starts, or gains an
/// accelerometer, after the daemon is taken while there is no IIO device. The proxy's connection
/// is opened only once there is no IIO device.
public final class AutoSource: SensorSource, SensorSink {
    private unowned let sink: SensorSink
    private var iio: AccelerometerSource!
    private var proxy: SensorProxySource?
    private let makeProxy: (SensorSink) -> SensorProxySource
    /// The source in use.
    private var current: SensorSource!
    private var running = false

    /// `iio` and `proxy` build the two sources with this one as their sink, so it hears which is present.
    public init(sink: SensorSink, iio: (SensorSink) -> AccelerometerSource, proxy: @escaping (SensorSink) -> SensorProxySource) {
        self.sink = sink
        makeProxy = proxy
        self.iio = iio(self)
        current = self.iio
        if !self.iio.isPresent {
            Log.info("the 'auto' source found no IIO accelerometer; watching for one, and for \(SensorProxy.busName)")
            watchProxy()
        }
    }

    public var isPresent: Bool { current.isPresent }

    public func setRunning(_ running: Bool) {
        self.running = running
        current.setRunning(running)
    }

    // MARK: SensorSink (from the two sources)

    public func sensorReported(_ report: SensorReport) {
        // Only the source in use runs, so a report is always its own; a device coming or going may
        // make the other one the source to use.
        if report == .accelerometerPresence {
            if !iio.isPresent, proxy == nil { watchProxy() }
            choose()
        }
        sink.sensorReported(report)
    }

    // MARK: Choosing

    /// The proxy's source connects without blocking: it may be made long after the start, while
    /// the daemon serves, and it keeps trying while the bus cannot be reached.
    private func watchProxy() {
        proxy = makeProxy(self)
    }

    /// The IIO device when present, else the proxy when it has an accelerometer, else the IIO source
    /// (which keeps watching hotplug). Starts the one chosen if someone claims.
    private func choose() {
        let next: SensorSource
        if iio.isPresent {
            next = iio
        } else if let proxy, proxy.isPresent {
            next = proxy
        } else {
            next = iio
        }
        guard next !== current else { return }
        if running { current.setRunning(false) }
        current = next
        Log.info("the 'auto' source uses " + (next === iio ? "the IIO accelerometer" : "the accelerometer of \(SensorProxy.busName)"))
        if running { next.setRunning(true) }
    }
}
