import DBus
import OrientationAPI

/// `monitor`: holds a claim and prints the manager's events until interrupted.
enum MonitorCommand {
    static func run(_ invocation: Invocation) throws(Failure) {
        _ = try invocation.expectOperands([])
        let session = Session()
        let manager = try Manager(bus: invocation.bus)
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
        try session.run()
        do {
            try manager.call("EndGeneratingDeviceOrientationNotifications")
        } catch {
            complain("warning: could not end the claim: \(error.message)")
        }
    }
}
