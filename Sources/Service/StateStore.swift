@preconcurrency import Glibc
import CGLib
import Orientation
import SensorSources

/// What survives a restart (P15).
struct SavedState: Equatable {
    var rotationLocked: Bool
    var applicationMask: OrientationMask
    var interfaceOrientation: InterfaceOrientation
}

/// The state file in the state directory, rewritten atomically after each change.
///
/// The file is tiny and written by rename, so a crash or SIGKILL at any moment
/// leaves either the old or the new state, never a torn one.
final class StateStore {
    let path: String
    private var last: SavedState?

    /// The store at `directory/state`; the directory is created when missing.
    init(directory: String) {
        path = directory + "/state"
        if g_mkdir_with_parents(directory, 0o755) != 0 {
            log("cannot create the state directory \(directory): \(String(cString: strerror(errno)))")
        }
    }

    /// The saved state, nil when there is none or it cannot be read.
    func load() -> SavedState? {
        let file = KeyFile()
        do { try file.load(path: path) } catch {
            if !error.missing { log("ignoring the state file: \(error.message)") }
            return nil
        }
        guard let locked = file.string("State", "RotationLocked").flatMap({ ["true": true, "false": false][$0] }),
              let mask = file.string("State", "ApplicationMask").flatMap({ try? OrientationMask(parsing: $0) }),
              let orientation = file.string("State", "InterfaceOrientation").flatMap({ try? InterfaceOrientation(parsing: $0) })
        else {
            log("ignoring the state file \(path): a value is missing or unreadable")
            return nil
        }
        last = SavedState(rotationLocked: locked, applicationMask: mask, interfaceOrientation: orientation)
        return last
    }

    /// Writes `state` when it differs from what was last written.
    func save(_ state: SavedState) {
        guard state != last else { return }
        let file = KeyFile()
        file.set("State", "RotationLocked", state.rotationLocked ? "true" : "false")
        file.set("State", "ApplicationMask", String(state.applicationMask.rawValue))
        file.set("State", "InterfaceOrientation", String(state.interfaceOrientation.rawValue))
        do {
            try file.save(path: path)
            last = state
        } catch {
            log("cannot save the state to \(path): \(error.message)")
        }
    }
}
