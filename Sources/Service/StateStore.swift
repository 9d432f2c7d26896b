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

/// The state file in the state directory, rewritten after each change (Docs/security.md, "The state file").
///
/// Writes go to a child process and are coalesced: while one is under way, later changes wait and
/// only the newest is written next. Every write replaces the file by rename, so a crash or power cut
/// at any moment leaves the old or the new state, never a torn one.
final class StateStore {
    /// The file's name in the state directory.
    static let fileName = "state"
    /// A state file is three short lines; anything bigger is not one, and is not read into memory.
    static let sizeLimit = 4096

    /// The key of a mask set over the bus. Earlier versions wrote `ApplicationMask` after every change,
    /// the config's mask included, so that key cannot tell an administrator's choice from a client's
    /// and is not read: it would override every later edit of the config.
    private static let applicationMaskKey = "ApplicationMaskSetOverBus"

    /// nil when the directory cannot be used (already reported): the state is then not kept.
    private let directory: StateDirectory?
    /// What the file holds, as far as the daemon knows.
    private var written: SavedState?
    /// The newest state not written yet, while a write is under way.
    private var pending: SavedState?
    private var writing: StateDirectory.Writing?
    /// Set by `finish`: no write is started in the background any more.
    private var stopping = false
    /// Whether the last write failed, so a failing disk is reported once, not at every change.
    private var failing = false

    /// The store in `directory`, which is created when missing and checked (StateDirectory).
    init(directory path: String) {
        do {
            directory = try StateDirectory(path: path)
            directory?.removeTemporaries(of: Self.fileName)
        } catch {
            log("\(error.message); the lock, the application mask and the orientation will not be kept across restarts")
            directory = nil
        }
    }

    var path: String { (directory?.path ?? "") + "/" + Self.fileName }

    /// The saved state, nil when there is none or it cannot be used. A file that is not usable is
    /// reported here, once, and replaced at the next `save`.
    func load() -> SavedState? {
        guard let directory else { return nil }
        let bytes: [UInt8]
        switch directory.read(Self.fileName, limit: Self.sizeLimit) {
        case .missing: return nil
        case .refused(let why):
            log("ignoring the state file \(path): \(why); starting from the defaults")
            return nil
        case .bytes(let contents): bytes = contents
        }
        let file = KeyFile()
        do { try file.load(data: bytes) } catch {
            log("ignoring the state file \(path): \(error.message); starting from the defaults")
            return nil
        }
        let maskText = file.string("State", Self.applicationMaskKey)
        let mask = maskText.flatMap { try? OrientationMask(parsing: $0) }
        guard let locked = file.string("State", "RotationLocked").flatMap({ ["true": true, "false": false][$0] }),
              maskText == nil || mask != nil,
              let orientation = file.string("State", "InterfaceOrientation").flatMap({ try? InterfaceOrientation(parsing: $0) })
        else {
            log("ignoring the state file \(path): a value is missing or unreadable; starting from the defaults")
            return nil
        }
        written = SavedState(rotationLocked: locked, applicationMask: mask, interfaceOrientation: orientation)
        return written
    }

    /// Writes `state` when it differs from what the file holds, without waiting for the disk.
    func save(_ state: SavedState) {
        guard let directory else { return }
        if writing != nil {
            pending = state
            return
        }
        guard state != written else { return }
        writing = directory.replace(Self.fileName, with: Self.encode(state)) { [unowned self] failure in
            writing = nil
            wrote(state, failure)
            // While stopping, `finish` writes what is pending itself.
            guard !stopping, let next = pending else { return }
            pending = nil
            save(next)
        }
    }

    /// Waits for the write under way and writes what is still pending: at shutdown, so the last
    /// acknowledged state is on the disk before the process ends.
    func finish() {
        guard let directory else { return }
        stopping = true
        writing?.wait()
        if let next = pending, next != written {
            pending = nil
            wrote(next, directory.replaceNow(Self.fileName, with: Self.encode(next)))
        }
    }

    private func wrote(_ state: SavedState, _ failure: String?) {
        if let failure {
            if !failing { log("cannot save the state: \(failure); it will be tried again at the next change") }
            failing = true
            written = nil
        } else {
            if failing { log("the state is saved again in \(path)") }
            failing = false
            written = state
        }
    }

    private static func encode(_ state: SavedState) -> [UInt8] {
        let file = KeyFile()
        file.set("State", "RotationLocked", state.rotationLocked ? "true" : "false")
        if let mask = state.applicationMask { file.set("State", Self.applicationMaskKey, String(mask.rawValue)) }
        file.set("State", "InterfaceOrientation", String(state.interfaceOrientation.rawValue))
        return file.data()
    }
}
