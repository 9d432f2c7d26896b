// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

// Helpers for the net.hadess.SensorProxy compatibility tests: the built daemon and other
// programs (monitor-sensor, a Python GIO client) run as child processes of the test's `World`.

func pause(_ seconds: Double) { waitUntil(seconds) { false } }

typealias Child = ChildProcess

/// The compatibility tests' world (`EndToEndTestCase`): the daemon and any programs beside it,
/// started in the test's `World` and stopped after it.
class CompatTestCase: EndToEndTestCase {
    var bus: PrivateBus { world.bus }
    var probe: Connection { world.probe }
    var scratch: String { world.scratch }

    /// Starts `orientationd --address BUS --sensor simulated --state-dir … EXTRA` and, when `waitFor`
    /// is given, waits until that name has an owner (or the daemon has exited).
    @discardableResult
    func startDaemon(_ extra: [String], name: String = "daemon", waitFor: String? = Orientation1.busName,
                     environment: [String: String] = [:]) throws -> Child {
        try world.startDaemon(extra, name: name, environment: environment, waitFor: waitFor, checked: false)
    }

    /// Runs a program with the private bus as its system bus.
    func startOnSystemBus(_ argv: [String], name: String, stdinPipe: Bool = false) throws -> Child {
        try world.start(argv, name: name, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address], stdinPipe: stdinPipe)
    }

    func newClient() throws -> Connection { try world.newConnection() }

    func hasOwner(_ name: String) -> Bool { world.hasOwner(name) }

    func owner(_ name: String) -> String? { world.owner(name) }

    /// The compatibility object's `AccelerometerOrientation`.
    func proxyOrientation() throws -> String {
        try get("AccelerometerOrientation", destination: SensorProxy.busName, SensorProxy.path, SensorProxy.interface).stringValue ?? "?"
    }

    func deviceOrientation() throws -> UInt32 { try get("DeviceOrientation").uint32Value ?? 99 }

    func interfaceOrientation() throws -> UInt32 { try get("InterfaceOrientation").uint32Value ?? 99 }
}
