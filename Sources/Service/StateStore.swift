@preconcurrency import Glibc
import CGLib
import Orientation
import SensorSources

/// What survives a restart (P15).
struct SavedState: Equatable {
    var rotationLocked: Bool
    /// The application mask set over the bus; nil (and not written) while the config's is in force.
    var applicationMask: OrientationMask?
    var interfaceOrientation: InterfaceOrientation
}

/// The state file in the state directory, rewritten atomically after each change.
///
/// The file is tiny and written by rename, so a crash or SIGKILL at any moment
/// leaves either the old or the new state, never a torn one.
final class StateStore {
    let path: String
    private var last: SavedState?

    /// The key of a mask set over the bus. Earlier versions wrote `ApplicationMask` after every change,
    /// the config's mask included, so that key cannot tell an administrator's choice from a client's
    /// and is not read: it would override every later edit of the config.
    private static let applicationMaskKey = "ApplicationMaskSetOverBus"

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
        let maskText = file.string("State", Self.applicationMaskKey)
        let mask = maskText.flatMap { try? OrientationMask(parsing: $0) }
        guard let locked = file.string("State", "RotationLocked").flatMap({ ["true": true, "false": false][$0] }),
              maskText == nil || mask != nil,
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
        if let mask = state.applicationMask { file.set("State", Self.applicationMaskKey, String(mask.rawValue)) }
        file.set("State", "InterfaceOrientation", String(state.interfaceOrientation.rawValue))
        do {
            try file.save(path: path)
            last = state
        } catch {
            log("cannot save the state to \(path): \(error.message)")
        }
    }
}
