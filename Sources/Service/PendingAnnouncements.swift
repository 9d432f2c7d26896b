import Policy

/// The objects whose properties may read differently since they were last announced, gathered over
/// the calls of one turn of the main loop so each is announced once.
struct PendingAnnouncements {
    var manager = false
    var windows: Set<WindowID> = []
    var controllers: Set<ControllerID> = []

    var isEmpty: Bool { !manager && windows.isEmpty && controllers.isEmpty }

    /// Adds what one policy operation marked.
    mutating func add(_ changes: Changes) {
        manager = manager || changes.manager
        windows.formUnion(changes.windows)
        controllers.formUnion(changes.controllers)
    }
}
