// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import OrientationAPI

/// `monitor`: holds a claim and prints the manager's events until interrupted.
enum MonitorCommand {
    static func run(_ invocation: Invocation) throws(Failure) {
        _ = try invocation.expectOperands([])
        let session = Session()
        let manager = try Manager(invocation)
        let connection = manager.connection
        let owner = try manager.daemonOwner()
        let printer = EventPrinter(json: invocation.json)
        do {
            try connection.addMatch("type='signal',sender='\(Orientation1.busName)',path='\(Orientation1.managerPath)',"
                + "interface='\(Orientation1.managerInterface)'")
            try connection.addMatch("type='signal',sender='\(Orientation1.busName)',path='\(Orientation1.managerPath)',"
                + "interface='\(StandardInterface.properties)',member='PropertiesChanged',arg0='\(Orientation1.managerInterface)'")
        } catch {
            throw Failure(error)
        }
        connection.onSignal { message in
            guard message.sender == owner else { return }
            printer.print(message)
        }
        session.watchDaemon(on: connection, owner: owner)
        try manager.call("BeginGeneratingDeviceOrientationNotifications")
        complain("monitoring \(Orientation1.busName) (\(owner)); interrupt to stop")
        printer.printState(try manager.allProperties())
        try session.run()
        do {
            try manager.call("EndGeneratingDeviceOrientationNotifications")
        } catch {
            complain("warning: could not end the claim: \(error.message)")
        }
    }
}

extension Command {
    static let monitor = Command(
        name: "monitor", synopsis: "monitor",
        summary: "hold a device-orientation claim and print each change until interrupted",
        help: """
            Usage: orientationctl [--json] monitor

            Calls BeginGeneratingDeviceOrientationNotifications (so the sensor runs), prints
            the state, then one line per event with the time of day, until SIGINT or
            SIGTERM, when it ends its claim and exits 0:
              12:03:04.100 state DeviceOrientation: portrait (top edge up); InterfaceOrientation: portrait (top edge up); ...
              12:03:04.512 device landscape-left (right edge up)
              12:03:04.513 will-change portrait -> landscape-right (right edge up)
              12:03:04.513 changed InterfaceOrientation: landscape-right (right edge up)
              12:03:04.514 did-change portrait -> landscape-right (right edge up)
              12:03:09.020 suggested landscape-right (right edge up) while rotation is locked; ...
              12:03:11.300 changed TouchHold: yes
            ('device' is DeviceOrientationDidChange, 'suggested' RotationSuggested (the
            rotation lock is on and the device turned), 'changed' a manager PropertiesChanged
            other than DeviceOrientation's, which the device line says: 'TouchHold: yes' while
            a finger is on the screen, and the device does not turn it. The edge is the
            device's edge that is up: UIKit's landscape names cross, see 'help status'.)
            With --json: one object per line, with "time", "event" (state, device,
            will-change, did-change, suggested or changed) and the values by name and raw ("state"
            has every property, as 'status --json'), e.g.
              {"time": "12:03:04.512", "event": "device", "orientation": "landscape-left", "orientationValue": 3}
              {"time": "...", "event": "will-change", "from": "portrait", "fromValue": 1, "to": "landscape-right", "toValue": 3}
              {"time": "...", "event": "changed", "properties": {"InterfaceOrientation": "landscape-right", ...}, "invalidated": []}
            Exits 1 with a message when orientationd leaves the bus.
            """,
        run: MonitorCommand.run)
}
