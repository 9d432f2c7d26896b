import DBus
import Service

/// `monitor`: holds a claim and prints the manager's events until interrupted.
enum MonitorCommand {
    static func run(_ invocation: Invocation) throws(Failure) {
        _ = try invocation.expectOperands([])
        let session = Session()
        let manager = try Manager(bus: invocation.bus)
        let connection = manager.connection
        let owner = try manager.daemonOwner()
        let printer = EventPrinter(json: invocation.json)
        try viaDBus {
            try connection.addMatch("type='signal',sender='\(Names.bus)',path='\(Names.managerPath)',"
                + "interface='\(Names.managerInterface)'")
            try connection.addMatch("type='signal',sender='\(Names.bus)',path='\(Names.managerPath)',"
                + "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='\(Names.managerInterface)'")
        }
        connection.onSignal { message in
            guard message.sender == owner else { return }
            printer.print(message)
        }
        try session.watchDaemon(on: connection, owner: owner)
        try manager.call("BeginGeneratingDeviceOrientationNotifications")
        complain("monitoring \(Names.bus) (\(owner)); interrupt to stop")
        try session.run()
        do {
            try manager.call("EndGeneratingDeviceOrientationNotifications")
        } catch {
            complain("warning: could not end the claim: \(error.message)")
        }
    }
}
