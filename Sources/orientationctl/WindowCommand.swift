// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Arguments
import DBus
import Orientation
import OrientationAPI
import DesktopSession

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
            var cursor = ArgumentCursor(arguments)
            while let argument = cursor.next() {
                func operand() throws(Failure) -> String {
                    guard let value = cursor.value() else { throw .usage("window: \(argument) needs a value") }
                    return value
                }
                func mask() throws(Failure) -> OrientationMask {
                    let text = try operand()
                    do { return try OrientationMask(parsing: text) } catch { throw .usage("window: \(argument): \(error.message)") }
                }
                switch argument {
                case "--delegate-mask": delegateMask = try mask()
                case "--mask": self.mask = try mask()
                case "--root":
                    kind = try operand()
                    guard WindowCommand.kinds.contains(kind) else {
                        throw .usage("window: --root '\(kind)' is not a controller kind; accepted: "
                            + WindowCommand.kinds.joined(separator: ", "))
                    }
                case "--preferred":
                    let text = try operand()
                    do { preferred = try InterfaceOrientation(parsing: text) } catch {
                        throw .usage("window: --preferred: \(error.message)")
                    }
                case "--no-autorotate": autorotate = false
                default: throw .usage("window: unknown argument '\(argument)'; see 'orientationctl window --help'")
                }
                if cursor.hasUnusedValue { throw .usage("window: \(argument) takes no value") }
            }
        }
    }

    static func run(_ invocation: Invocation) throws(Failure) {
        let options = try Options(invocation.arguments)
        let session = Session()
        let manager = try Manager(invocation)
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

    /// The root controller's kinds, the first the default.
    static let kinds = ["view", "navigation", "tab"]

    /// The options, for the help page and the completions; `Options.init` reads them.
    static let options: [CommandOption] = [
        CommandOption(flag: "--delegate-mask", value: "MASK", values: Commands.maskWords,
                      summary: "the window's DelegateMask (default: not set)"),
        CommandOption(flag: "--root", value: "KIND", values: kinds,
                      summary: "the root controller's kind: view (default), navigation, tab"),
        CommandOption(flag: "--mask", value: "MASK", values: Commands.maskWords,
                      summary: "the controller's SupportedMask (default: the idiom's)"),
        CommandOption(flag: "--preferred", value: "ORIENTATION", values: Commands.interfaceOrientationWords,
                      summary: "the controller's PreferredOrientation: portrait,\n"
                          + "portrait-upside-down, landscape-right, landscape-left or 1-4"),
        CommandOption(flag: "--no-autorotate", summary: "ShouldAutorotate = false"),
    ]

    private static func path(_ reply: [Value], _ method: String) throws(Failure) -> String {
        guard let path = reply.first?.objectPathValue else { throw .runtime("\(method) answered with no object path") }
        return path
    }
}

extension Command {
    static let window = Command(
        name: "window", synopsis: "window [OPTIONS]",
        summary: "register a window with a root controller and keep it until interrupted",
        help: """
            Usage: orientationctl [--json] window [--delegate-mask MASK] [--root KIND]
                                  [--mask MASK] [--preferred ORIENTATION] [--no-autorotate]

            Registers a window, creates a root controller, makes the window key, prints
            'window PATH' and 'controller PATH' (with --json: {"window": PATH,
            "controller": PATH}), then stays connected until SIGINT or SIGTERM and exits 0;
            the daemon removes both objects when the tool leaves the bus.
            \(Help.list(WindowCommand.options.map { ($0.label, $0.summary) }, column: 27))
            \(Help.masks)
            """,
        options: WindowCommand.options, run: WindowCommand.run)
}
