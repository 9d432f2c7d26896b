// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import CGLib
import Orientation
import EventLoop
import Configuration
import Log

/// What survives a restart (P15).
package struct SavedState: Equatable {
    package var rotationLocked: Bool
    /// The application mask set over the bus; nil (and not written) while the config's is in force.
    package var applicationMask: OrientationMask?
    package var interfaceOrientation: InterfaceOrientation
    /// The user's per-application orientations (`SetApplicationOrientations`).
    package var applicationOrientations: [ApplicationID: OrientationMask] = [:]

    package init(rotationLocked: Bool, applicationMask: OrientationMask?, interfaceOrientation: InterfaceOrientation,
                 applicationOrientations: [ApplicationID: OrientationMask] = [:]) {
        self.rotationLocked = rotationLocked
        self.applicationMask = applicationMask
        self.interfaceOrientation = interfaceOrientation
        self.applicationOrientations = applicationOrientations
    }

    /// What privileged calls change, whose callers are answered once it is on the disk.
    package struct Durable: Equatable {
        var rotationLocked: Bool
        var applicationMask: OrientationMask?
        var applicationOrientations: [ApplicationID: OrientationMask]
    }

    package var durable: Durable {
        Durable(rotationLocked: rotationLocked, applicationMask: applicationMask, applicationOrientations: applicationOrientations)
    }
}

/// The state file in the state directory (Docs/security.md, "The state file").
///
/// A change of the lock or the application mask is written at once, and the caller that made it is
/// answered once it is on the disk (`save(_:then:)`): the write runs in a child process, so the caller
/// waits and the main loop does not. The interface orientation alone is written lazily, at most once
/// every `lazyIntervalMs` and at a clean exit, so a rotation costs no write of its own. Writes are
/// coalesced: while one is under way, later changes wait and only the newest is written next. Every
/// write replaces the file by rename, so a crash or power cut at any moment leaves the old or the new
/// state, never a torn one.
package final class StateStore {
    /// The file's name in the state directory.
    package static let fileName = "state"
    /// A state file is three short lines and at most 1,024 overrides of at most 255-byte ids; anything
    /// bigger is not one, and is not read into memory.
    package static let sizeLimit = 512 * 1024
    /// The group holding the per-application overrides, one key per application id.
    private static let overridesGroup = "ApplicationOrientations"
    /// The shortest time between two writes made for the interface orientation alone.
    package static let lazyIntervalMs = 5000

    /// The key of a mask set over the bus. Earlier versions wrote `ApplicationMask` after every change,
    /// the config's mask included, so that key cannot tell an administrator's choice from a client's
    /// and is not read: it would override every later edit of the config.
    private static let applicationMaskKey = "ApplicationMaskSetOverBus"

    /// nil when the directory cannot be used (already reported): the state is then not kept.
    private let directory: StateDirectory?
    /// What the file holds, as far as the daemon knows; nil when unknown (no usable file, or a write failed).
    private var written: SavedState?
    /// The newest state asked for.
    private var latest: SavedState?
    /// The write under way: its state and its number (writes are numbered from 1 as they start).
    private var inFlight: (state: SavedState, number: Int, writing: StateDirectory.Writing)?
    private var nextWrite = 1
    /// Callers waiting for their change to be on the disk, each with the number of the write that
    /// carries it.
    private var waiters: [(write: Int, done: (String?) -> Void)] = []
    /// When the last write started (monotonic µs), for the lazy writes' interval.
    private var lastWriteStart: Int?
    private var lazyTimer: EventLoop.Timer?
    /// `load()` found no file.
    private var missing = false
    /// Set by `finish`: no write is started in the background any more.
    private var stopping = false
    /// Whether the last write failed, so a failing disk is reported once, not at every change.
    private var failing = false

    /// The store in `directory`, which is created when missing and checked (StateDirectory).
    package init(directory path: String) {
        do {
            directory = try StateDirectory(path: path)
            directory?.removeTemporaries(of: Self.fileName)
        } catch {
            Log.warning("\(error.message); the lock, the application mask and the orientation will not be kept across restarts")
            directory = nil
        }
    }

    package var path: String { (directory?.path ?? "") + "/" + Self.fileName }

    /// The saved state, nil when there is none or it cannot be used. A file that is not usable is
    /// reported here, once, and replaced at the next `save`.
    package func load() -> SavedState? {
        guard let directory else { return nil }
        let bytes: [UInt8]
        switch directory.read(Self.fileName, limit: Self.sizeLimit) {
        case .missing:
            missing = true
            return nil
        case .refused(let why):
            Log.warning("ignoring the state file \(path): \(why); starting from the defaults")
            return nil
        case .bytes(let contents): bytes = contents
        }
        let file = KeyFile()
        do { try file.load(data: bytes) } catch {
            Log.warning("ignoring the state file \(path): \(error.message); starting from the defaults")
            return nil
        }
        let maskText = file.string("State", Self.applicationMaskKey)
        let mask = maskText.flatMap { try? OrientationMask(parsing: $0) }
        guard let locked = file.string("State", "RotationLocked").flatMap({ ["true": true, "false": false][$0] }),
              maskText == nil || mask != nil,
              let orientation = file.string("State", "InterfaceOrientation").flatMap({ try? InterfaceOrientation(parsing: $0) })
        else {
            Log.warning("ignoring the state file \(path): a value is missing or unreadable; starting from the defaults")
            return nil
        }
        var overrides: [ApplicationID: OrientationMask] = [:]
        for key in file.keys(in: Self.overridesGroup) {
            guard let id = ApplicationID(rawValue: key),
                  let mask = file.string(Self.overridesGroup, key).flatMap({ UInt32($0) }).map(OrientationMask.init(rawValue:)),
                  mask.isValid
            else {
                Log.warning("ignoring \(key.prefix(80)) in [\(Self.overridesGroup)] of the state file \(path): not an application "
                    + "id with a mask")
                continue
            }
            overrides[id] = mask
        }
        written = SavedState(rotationLocked: locked, applicationMask: mask, interfaceOrientation: orientation,
                             applicationOrientations: overrides)
        return written
    }

    /// At start, after `load()`, with the state the daemon starts in: a file found unusable is replaced
    /// now, not at the first change; a missing one already stands for this state (the defaults, as the
    /// next start would take them again), so nothing is written, and no writer started, until it changes.
    package func begin(with state: SavedState) {
        guard missing, directory != nil else { return save(state) }
        latest = state
        written = state
        // The lazy interval counts from the start, as if this state had been written then.
        lastWriteStart = g_get_monotonic_time()
    }

    /// Asks for `state` to be kept. A change of the lock or the application mask (or a file that holds
    /// nothing usable) is written at once, or right after the write under way; a change of the interface
    /// orientation alone waits for the lazy interval. `then`, when given, runs once what `state` holds
    /// of the lock and the application mask is on the disk: with nil, or with what failed. At once when
    /// it is there already, or when there is no usable state directory (the state is not kept at all,
    /// as was reported at start).
    package func save(_ state: SavedState, then: ((String?) -> Void)? = nil) {
        latest = state
        guard directory != nil, !stopping else {
            then?(nil)
            return
        }
        if let then {
            if let flight = inFlight {
                waiters.append((flight.state.durable == state.durable ? flight.number : nextWrite, then))
            } else if written?.durable == state.durable {
                then(nil)
            } else {
                waiters.append((nextWrite, then))
            }
        }
        writeIfNeeded()
    }

    /// Starts the next write when one is needed and none is under way: at once for the durable values,
    /// else, for the orientation alone, once the lazy interval since the last write has passed.
    private func writeIfNeeded() {
        guard inFlight == nil, !stopping, let latest else { return }
        // Callers whose change a later one undid (lock, unlock, lock, sent without waiting) wait for a
        // write that is no longer needed: what the disk holds is the newest state, so theirs is done.
        if !waiters.isEmpty, latest.durable == written?.durable { release(throughWrite: nextWrite, nil) }
        guard latest != written else { return }
        if latest.durable != written?.durable || waiters.contains(where: { $0.write == nextWrite }) {
            startWrite()
            return
        }
        guard lazyTimer == nil else { return }
        let due = (lastWriteStart ?? 0) + Self.lazyIntervalMs * 1000 - g_get_monotonic_time()
        guard due > 0 else { return startWrite() }
        lazyTimer = EventLoop.Timer(afterMs: UInt32((due + 999) / 1000)) { [unowned self] in
            lazyTimer = nil
            writeIfNeeded()
        }
    }

    private func startWrite() {
        guard let directory, let state = latest else { return }
        lazyTimer?.cancel()
        lazyTimer = nil
        let number = nextWrite
        nextWrite += 1
        lastWriteStart = g_get_monotonic_time()
        // Weak: a writer may end after a stopped store is gone, in a process that goes on (tests).
        let writing = directory.replace(Self.fileName, with: Self.encode(state)) { [weak self] failure in
            guard let self else { return }
            inFlight = nil
            wrote(state, number, failure)
            // What changed meanwhile is written next. A failed write is tried again at the next change,
            // not at once: a full or read-only disk would otherwise keep the daemon forking writers.
            // While stopping, `finish` writes what is pending itself.
            if failure == nil || latest != state { writeIfNeeded() }
        }
        // `replace` reports a failure to start from an idle, so the write is in flight until then.
        inFlight = (state, number, writing)
    }

    /// Waits for the write under way and writes what is still pending: at shutdown, so the last
    /// acknowledged state, and the newest orientation, are on the disk before the process ends.
    package func finish() {
        guard let directory else { return }
        stopping = true
        lazyTimer?.cancel()
        lazyTimer = nil
        inFlight?.writing.wait()
        if let next = latest, next != written {
            let number = nextWrite
            nextWrite += 1
            wrote(next, number, directory.replaceNow(Self.fileName, with: Self.encode(next)))
        }
    }

    private func wrote(_ state: SavedState, _ number: Int, _ failure: String?) {
        if let failure {
            if !failing { Log.error("cannot save the state: \(failure); it will be tried again at the next change") }
            failing = true
            written = nil
        } else {
            if failing { Log.info("the state is saved again in \(path)") }
            failing = false
            written = state
        }
        release(throughWrite: number, failure)
    }

    /// Answers the callers waiting for writes up to `number`.
    private func release(throughWrite number: Int, _ failure: String?) {
        let answered = waiters.filter { $0.write <= number }
        waiters.removeAll { $0.write <= number }
        for waiter in answered { waiter.done(failure) }
    }

    private static func encode(_ state: SavedState) -> [UInt8] {
        let file = KeyFile()
        file.set("State", "RotationLocked", state.rotationLocked ? "true" : "false")
        if let mask = state.applicationMask { file.set("State", Self.applicationMaskKey, String(mask.rawValue)) }
        file.set("State", "InterfaceOrientation", String(state.interfaceOrientation.rawValue))
        for (id, mask) in state.applicationOrientations.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            file.set(Self.overridesGroup, id.rawValue, String(mask.rawValue))
        }
        return file.data()
    }
}
