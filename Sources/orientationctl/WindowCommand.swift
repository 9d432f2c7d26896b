import DBus
import Orientation
import OrientationAPI

/// `window`: a client holding a key window with one root controller, for demos and scripts.
enum WindowCommand {
    /// The options of `window`, parsed.
    struct Options {
        var delegateMask: OrientationMask?
        var kind = "view"
        var mask: OrientationMask?
        var preferred: InterfaceOrientation?
        var autorotate = true

        init(_ arguments: [String]) throws(Failure) {
            var index = 0
            func operand(_ flag: String) throws(Failure) -> String {
                index += 1
                guard index < arguments.count else { throw .usage("window: \(flag) needs a value") }
                return arguments[index]
            }
            func mask(_ flag: String) throws(Failure) -> OrientationMask {
                let text = try operand(flag)
                do { return try OrientationMask(parsing: text) } catch { throw .usage("window: \(flag): \(error.message)") }
            }
            while index < arguments.count {
                let argument = arguments[index]
                switch argument {
                case "--delegate-mask": delegateMask = try mask(argument)
                case "--mask": self.mask = try mask(argument)
                case "--root":
                    kind = try operand(argument)
                    guard ["view", "navigation", "tab"].contains(kind) else {
                        throw .usage("window: --root '\(kind)' is not a controller kind; accepted: view, navigation, tab")
                    }
                case "--preferred":
                    let text = try operand(argument)
                    do { preferred = try InterfaceOrientation(parsing: text) } catch {
                        throw .usage("window: --preferred: \(error.message)")
                    }
                case "--no-autorotate": autorotate = false
                default: throw .usage("window: unknown argument '\(argument)'; see 'orientationctl window --help'")
                }
                index += 1
            }
        }
    }

    static func run(_ invocation: Invocation) throws(Failure) {
        let options = try Options(invocation.arguments)
        let session = Session()
        let manager = try Manager(bus: invocation.bus)
        let owner = try manager.daemonOwner()
        session.watchDaemon(on: manager.connection, owner: owner)

        let window = try path(manager.call("RegisterWindow"), "RegisterWindow")
        let controller = try path(manager.call("CreateController", [.string(options.kind)]), "CreateController")
        let w = Orientation1.windowInterface, c = Orientation1.controllerInterface
        if let mask = options.delegateMask { try manager.set("DelegateMask", .uint32(mask.rawValue), path: window, interface: w) }
        if let mask = options.mask { try manager.set("SupportedMask", .uint32(mask.rawValue), path: controller, interface: c) }
        if let preferred = options.preferred {
            try manager.set("PreferredOrientation", .uint32(preferred.rawValue), path: controller, interface: c)
        }
        if !options.autorotate { try manager.set("ShouldAutorotate", .bool(false), path: controller, interface: c) }
        try manager.set("RootController", .objectPath(controller), path: window, interface: w)
        try manager.call("MakeKeyAndVisible", path: window, interface: w)

        if invocation.json {
            emit(JSON.object([("window", .string(window)), ("controller", .string(controller))]).rendered)
        } else {
            emit("window \(window)")
            emit("controller \(controller)")
        }
        try session.run()
    }

    private static func path(_ reply: [Value], _ method: String) throws(Failure) -> String {
        guard let path = reply.first?.objectPathValue else { throw .runtime("\(method) answered with no object path") }
        return path
    }
}
