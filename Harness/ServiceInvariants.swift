// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import OrientationAPI

/// The object paths `busctl tree --list` shows for the service on the bus at `address`.
public func serviceTree(address: String) -> String {
    runTool(["busctl", "--address=\(address)", "tree", "--list", Orientation1.busName]).stdout
}

/// What the fuzz run's invariants find broken, read over the bus (Docs/security.md): every window's
/// effective mask non-empty, and the interface orientation inside the mask in force.
public func brokenInvariants(on connection: Connection, address: String) -> [String] {
    func u(_ property: String, _ path: String, _ interface: String) -> UInt32? {
        let reply = try? connection.callBlocking(destination: Orientation1.busName, path: path, interface: StandardInterface.properties,
                                                 method: "Get", values: [.string(interface), .string(property)], timeoutMs: 5000)
        return reply?.first.map { $0.variantValue ?? $0 }?.uint32Value
    }
    var problems: [String] = []
    for line in serviceTree(address: address).split(separator: "\n") where line.contains("/window/") {
        let mask = u("EffectiveMask", String(line), Orientation1.windowInterface)
        if mask == 0 { problems.append("\(line) has an empty effective mask") }
    }
    guard let mask = u("SupportedMask", Orientation1.managerPath, Orientation1.managerInterface),
          let orientation = u("InterfaceOrientation", Orientation1.managerPath, Orientation1.managerInterface) else {
        return problems + ["the manager's properties could not be read"]
    }
    if orientation == 0 || orientation > 4 || mask & (1 << orientation) == 0 {
        problems.append("the interface orientation \(orientation) is outside the mask in force \(mask)")
    }
    return problems
}
