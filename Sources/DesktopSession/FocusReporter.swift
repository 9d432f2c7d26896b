// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import OrientationAPI

/// Tells orientationd which view is in front (`ReportFocus`), with whether its window fills the screen
/// and what the user's own desktop file for it declares (read here, in the session: the daemon reads
/// no home directory): at once while the daemon runs, and again each time a daemon takes the name, so
/// a restarted daemon learns the focus without a new focus change. A refusal is explained once per daemon, not at every focus change. All calls
/// are asynchronous: a slow daemon never stalls the caller's loop.
public final class FocusReporter {
    let connection: Connection
    /// The daemon's unique name while it runs.
    private var owner: String?
    /// The view last reported, sent again to a daemon that comes back.
    private var focused: FocusedView?
    private var refusalReported = false
    private var watch: SignalSubscription?
    /// Where a refusal is explained.
    let say: (String) -> Void
    /// Where the user's desktop files are looked for.
    let userFiles: UserDesktopFiles

    public init(connection: Connection, userFiles: UserDesktopFiles = .fromEnvironment(), say: @escaping (String) -> Void) {
        self.connection = connection
        self.userFiles = userFiles
        self.say = say
    }

    /// Follows the daemon's name, and finds whether it runs now.
    public func start() {
        watch = connection.watchNameOwnerChanged { [unowned self] name, _, new in
            guard name == Orientation1.busName else { return }
            owner = new.isEmpty ? nil : new
            refusalReported = false
            if owner != nil, let focused { send(focused) }
        }
        connection.callBusDriver("GetNameOwner", [.string(Orientation1.busName)]) { [unowned self] result in
            guard owner == nil, case .success(let values) = result, let name = values.first?.stringValue else { return }
            owner = name
            if let focused { send(focused) }
        }
    }

    /// Reports `view` as focused: now if the daemon runs, else when it comes. The same view twice in a
    /// row is sent once.
    public func report(_ view: FocusedView) {
        guard view != focused else { return }
        focused = view
        if owner != nil { send(view) }
    }

    private func send(_ view: FocusedView) {
        connection.call(destination: Orientation1.busName, path: Orientation1.managerPath, interface: Orientation1.managerInterface,
                        method: "ReportFocus", values: Self.arguments(view, userFiles)) {
            [unowned self] result in
            guard case .failure(let error) = result, !refusalReported else { return }
            refusalReported = true
            say("cannot report the focused application: \(error.message) (\(error.name))")
        }
    }

    /// `ReportFocus`'s arguments for `view`: its id, its process, and the details known: `fullscreen`
    /// when the compositor said, `user-desktop-file` when the user has a file for it with an
    /// orientation key. The file is read at each report, so an edit counts at the next focus change.
    public static func arguments(_ view: FocusedView, _ userFiles: UserDesktopFiles) -> [Value] {
        var details: [(Value, Value)] = []
        if let fills = view.fillsScreen { details.append((.string("fullscreen"), .variant(.bool(fills)))) }
        let keys = view.application.isEmpty ? [:] : userFiles.orientationKeys(of: view.application)
        if !keys.isEmpty {
            let pairs = keys.sorted { $0.key < $1.key }.map { (Value.string($0.key), Value.string($0.value)) }
            details.append((.string("user-desktop-file"), .variant(.dict(keySignature: "s", valueSignature: "s", pairs))))
        }
        return [.string(view.application), .uint32(view.process), .dict(keySignature: "s", valueSignature: "v", details)]
    }
}
