/// The commands by name.
enum Commands {
    static let names = ["app-mask", "attempt", "follow", "get", "inject", "lock", "monitor", "set-device", "status", "unlock", "window"]

    /// The command called `name`, nil when there is none.
    static func named(_ name: String) -> ((Invocation) throws(Failure) -> Void)? {
        switch name {
        case "status": StatusCommands.status
        case "get": StatusCommands.get
        case "monitor": MonitorCommand.run
        case "lock": { invocation throws(Failure) in try ChangeCommands.lock(invocation, locked: true) }
        case "unlock": { invocation throws(Failure) in try ChangeCommands.lock(invocation, locked: false) }
        case "set-device": ChangeCommands.setDevice
        case "inject": ChangeCommands.inject
        case "app-mask": ChangeCommands.applicationMask
        case "attempt": ChangeCommands.attempt
        case "window": WindowCommand.run
        case FollowCommand.name: FollowCommand.run
        default: nil
        }
    }
}
