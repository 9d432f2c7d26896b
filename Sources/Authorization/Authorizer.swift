// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import DBus
import EventLoop
import OrientationAPI
import Log

/// Decides privileged calls (dbus-api.md, "Privilege"; Docs/security.md): polkit when a trusted
/// authority runs on the bus, else the caller's uid (0, the daemon's own) or the config's users and groups.
///
/// Every check is asynchronous, so a slow or stalled polkit never blocks the main loop, and each
/// client's decisions are handed out in the order its calls arrived, whatever order the answers come in.
package final class Authorizer {
    /// The polkit actions of `dbus/org.orientationd.Orientation1.policy`.
    package enum Action: String {
        case lockRotation = "org.orientationd.Orientation1.lock-rotation"
        case setDeviceOrientation = "org.orientationd.Orientation1.set-device-orientation"
        case configureApplication = "org.orientationd.Orientation1.configure-application"
        case takeKeyWindow = "org.orientationd.Orientation1.take-key-window"
        case reportFocus = "org.orientationd.Orientation1.report-focus"
        case configureApplications = "org.orientationd.Orientation1.configure-applications"
    }

    /// Bounds on what callers can make the daemon wait for (Docs/security.md, "Privilege").
    package enum Bounds {
        /// Checks at the authority per client (dbus-api.md, LimitsExceeded).
        static let checksPerClient = 2
        /// Privileged calls waiting per client, decided or not, so a client cannot pile up calls
        /// behind one whose answer is slow.
        static let waitingPerClient = 16
        /// Checks at the authority per uid, so one user's many connections cannot take them all.
        static let checksPerUser = 8
        /// Checks at the authority in all, below the bus's 128 pending replies per connection
        /// (`max_replies_per_connection`), which the daemon's other calls need too.
        static let checksInAll = 64
        /// How long a caller waits for polkit before its call is refused: well inside libdbus's and
        /// GDBus's default client timeout (25 s), so a default client gets this refusal, not NoReply.
        static let answerMs: UInt32 = 10_000
        /// As `answerMs`, when the caller allowed a password prompt, which a person must answer.
        static let interactiveAnswerMs = Orientation1.interactiveAuthorizationMs
    }

    private static let authorityName = "org.freedesktop.PolicyKit1"

    /// A check at the authority: its cancellation id, the authority's unique name and the caller's uid.
    private typealias Check = (id: String, authority: String, uid: UInt32)

    /// One privileged call waiting for its decision.
    private final class Request {
        let client: String
        let action: Action
        let what: String
        let interactive: Bool
        let decided: (DBusError?) -> Void
        /// Set once the decision is known; the call takes effect when all before it have.
        var decision: DBusError??
        /// Set while the authority checks it.
        var check: Check?
        var timer: EventLoop.Timer?
        /// The client left: nothing more is done for it.
        var abandoned = false

        init(client: String, action: Action, what: String, interactive: Bool, decided: @escaping (DBusError?) -> Void) {
            self.client = client
            self.action = action
            self.what = what
            self.interactive = interactive
            self.decided = decided
        }
    }

    private let bus: any Bus
    private let credentials: ClientCredentials
    private let ownUID = getuid()
    /// uids allowed without polkit: root, the daemon's own, `[Security] PrivilegedUsers`.
    private let uids: [UInt32]
    private let gids: [UInt32]
    /// uids whose ownership of `org.freedesktop.PolicyKit1` is trusted.
    private let authorityUIDs: [UInt32]
    private var queues: [String: [Request]] = [:]
    /// The uid behind each authority seen; unique names are never reused, so this never goes stale.
    private var authorityOwners: [String: UInt32] = [:]
    /// Untrusted authorities already reported, so the log says it once per owner.
    private var reportedAuthorities: Set<String> = []
    private var checksByUser: [UInt32: Int] = [:]
    /// Checks sent and not answered yet, including those whose caller left or gave up:
    /// the bus counts them against the daemon until the authority answers.
    private var outstanding = 0
    private var nextCheck: UInt64 = 1

    /// Resolves the config's user and group names once, at start, so no lookup happens per call.
    /// On the system bus only root and the system's polkit user are trusted to run the authority;
    /// on another bus the daemon's own uid is too (a test or session bus has no polkitd user).
    package init(bus: any Bus, credentials: ClientCredentials, users: [String], groups: [String], systemBus: Bool) {
        self.bus = bus
        self.credentials = credentials
        // A few ids each: arrays, searched in order, are all they need.
        var uids: [UInt32] = [0, ownUID]
        for name in users {
            if let entry = getpwnam(name) { uids.append(entry.pointee.pw_uid) } else { Log.warning("[Security] unknown user '\(name)' ignored") }
        }
        var gids: [UInt32] = []
        for name in groups {
            if let entry = getgrnam(name) { gids.append(entry.pointee.gr_gid) } else { Log.warning("[Security] unknown group '\(name)' ignored") }
        }
        self.uids = uids
        self.gids = gids
        // Debian's polkitd drops root for the `polkitd` user, which its bus policy lets own the name.
        var trusted: [UInt32] = [0]
        if let entry = getpwnam("polkitd") { trusted.append(entry.pointee.pw_uid) }
        if !systemBus { trusted.append(ownUID) }
        authorityUIDs = trusted
    }

    /// Calls `decided` with nil when `call`'s sender may perform `action`, else with the refusal
    /// (AccessDenied, or LimitsExceeded when it already waits for too many). One client's decisions
    /// come in the order of its calls; `what` names the call in messages.
    package func authorize(_ call: MethodCall, _ action: Action, what: String, _ decided: @escaping (DBusError?) -> Void) {
        let client = call.sender
        let waiting = queues[client] ?? []
        guard waiting.count < Bounds.waitingPerClient else {
            return decided(.limitsExceeded("\(what): \(client) already has \(waiting.count) privileged calls waiting for "
                + "authorization, the most a client may; wait for their answers"))
        }
        let request = Request(client: client, action: action, what: what,
                              interactive: call.message.allowsInteractiveAuthorization, decided: decided)
        queues[client, default: []].append(request)
        credentials.credentials(of: client) { [self] found in
            guard !request.abandoned else { return }
            switch found {
            case nil:
                finish(request, denied(request, "the bus cannot tell its uid; has it left?"))
            case let caller? where caller.user == 0 || caller.user == ownUID:
                // polkit authorizes root for everything; answering here means a stalled authority never blocks it.
                finish(request, nil)
            case let caller?:
                findAuthority { [self] authority in
                    guard !request.abandoned else { return }
                    switch authority {
                    case .failure(let why): finish(request, denied(request, why.message))
                    case .success(let owner?): askAuthority(owner, request, caller)
                    case .success(nil): finish(request, decideByCredentials(request, caller))
                    }
                }
            }
        }
    }

    /// Forgets a client that left the bus and withdraws its checks from the authority.
    package func clientLeft(_ name: String) {
        guard let waiting = queues.removeValue(forKey: name) else { return }
        for request in waiting {
            request.abandoned = true
            request.timer?.cancel()
            if let check = release(request) { withdraw(check) }
        }
    }

    // MARK: Steps

    /// The unique name of a trusted authority, nil when there is none to ask.
    private func findAuthority(_ done: @escaping (Result<String?, DBusError>) -> Void) {
        bus.callBusDriver("GetNameOwner", [.string(Self.authorityName)]) { [self] result in
            switch result {
            case .failure(let error) where error.kind == .nameHasNoOwner:
                done(.success(nil))
            case .failure(let error):
                done(.failure(.failed("the bus could not say who runs polkit: \(error.message)")))
            case .success(let values):
                guard let owner = values.first?.stringValue else { return done(.failure(.failed("GetNameOwner returned no name"))) }
                ownerUID(owner) { [self] uid in
                    guard let uid else { return done(.success(nil)) }
                    guard authorityUIDs.contains(uid) else {
                        if reportedAuthorities.insert(owner).inserted {
                            Log.warning("\(Self.authorityName) is owned by \(owner), running as uid \(uid), which is not trusted "
                                + "to run polkit; deciding without it")
                        }
                        return done(.success(nil))
                    }
                    done(.success(owner))
                }
            }
        }
    }

    private func ownerUID(_ owner: String, _ done: @escaping (UInt32?) -> Void) {
        if let known = authorityOwners[owner] { return done(known) }
        bus.getConnectionUnixUser(owner) { [self] result in
            // An owner that left between the two questions is no authority.
            guard case .success(let uid) = result else { return done(nil) }
            authorityOwners[owner] = uid
            done(uid)
        }
    }

    /// The rule without polkit: root, the daemon's own uid, or `[Security]`'s users and groups.
    private func decideByCredentials(_ request: Request, _ caller: Credentials) -> DBusError? {
        if uids.contains(caller.user) || caller.groups.contains(where: gids.contains) { return nil }
        return denied(request, "uid \(caller.user) is not root, not the daemon's user, and not listed in [Security]")
    }

    /// `CheckAuthorization` at `authority` (its unique name, so the name cannot change hands in between).
    private func askAuthority(_ authority: String, _ request: Request, _ caller: Credentials) {
        let client = request.client
        // The client's earlier calls still undecided count, wherever they are on the way to the authority:
        // the steps before this one answer out of order under load, and the cap must not depend on it.
        let earlier = queues[client]?.prefix { $0 !== request }.filter { $0.decision == nil }.count ?? 0
        if earlier >= Bounds.checksPerClient {
            return finish(request, .limitsExceeded("\(request.what): \(client) already waits for \(earlier) "
                + "authorization checks, the most a client may; wait for their answers"))
        }
        if checksByUser[caller.user, default: 0] >= Bounds.checksPerUser {
            return finish(request, .limitsExceeded("\(request.what): uid \(caller.user) already waits for "
                + "\(Bounds.checksPerUser) authorization checks, the most a user may; wait for their answers"))
        }
        if outstanding >= Bounds.checksInAll {
            return finish(request, .limitsExceeded("\(request.what): \(outstanding) authorization checks are waiting "
                + "for polkit, the most the daemon keeps; try again later"))
        }
        let id = "orientationd-\(nextCheck)"
        nextCheck += 1
        request.check = (id, authority, caller.user)
        checksByUser[caller.user, default: 0] += 1
        outstanding += 1
        let subject = Value.structure([.string("system-bus-name"), .stringVariantDict([("name", .string(client))])])
        let details = Value.dict(keySignature: "s", valueSignature: "s", [])
        // Flag 1 is AllowUserInteraction: only when the caller itself allowed a prompt.
        let flags: UInt32 = request.interactive ? 1 : 0
        // No libdbus timeout: the bus holds the pending reply until the authority answers anyway, so
        // `outstanding` is released only then; the caller's own wait is bounded by the timer below.
        bus.call(destination: authority, path: "/org/freedesktop/PolicyKit1/Authority",
                        interface: "org.freedesktop.PolicyKit1.Authority", method: "CheckAuthorization",
                        values: [subject, .string(request.action.rawValue), details, .uint32(flags), .string(id)],
                        timeoutMs: Int32.max) { [self] result in
            outstanding -= 1
            guard !request.abandoned, request.decision == nil else { return }
            finish(request, verdict(result, request))
        }
        let waitMs = request.interactive ? Bounds.interactiveAnswerMs : Bounds.answerMs
        request.timer = EventLoop.Timer(afterMs: waitMs) { [self] in
            guard !request.abandoned, request.decision == nil, let check = request.check else { return }
            finish(request, denied(request, "polkit did not answer within \(waitMs / 1000) s"))
            withdraw(check)
        }
    }

    private func verdict(_ result: Result<[Value], DBusError>, _ request: Request) -> DBusError? {
        switch result {
        case .success(let values):
            let fields = values.first?.structureValues ?? []
            if fields.first?.boolValue == true { return nil }
            if fields.count > 1, fields[1].boolValue == true, !request.interactive {
                return denied(request, "polkit requires authentication, and the call "
                    + "\(Orientation1.interactiveAuthorizationRefused) (e.g. busctl --allow-interactive-authorization=yes)")
            }
            return denied(request, "polkit refused")
        case .failure(let error):
            return denied(request, "polkit failed: \(error.message)")
        }
    }

    /// Asks the authority to drop a check nobody waits for. No reply is asked for, so a stalled
    /// authority holds no more of the daemon's pending replies.
    private func withdraw(_ check: Check) {
        do {
            try bus.callWithoutReply(destination: check.authority, path: "/org/freedesktop/PolicyKit1/Authority",
                                            interface: "org.freedesktop.PolicyKit1.Authority",
                                            method: "CancelCheckAuthorization", values: [.string(check.id)])
        } catch {
            Log.warning("cannot cancel authorization check \(check.id): \(error)")
        }
    }

    /// Records `request`'s decision, then hands out, in order, every decision at the head of its client's queue.
    /// A refusal is handed out at once: it changes nothing, so it has no place in the order of effects.
    private func finish(_ request: Request, _ decision: DBusError?) {
        request.decision = .some(decision)
        request.timer?.cancel()
        request.timer = nil
        release(request)
        let client = request.client
        if let refusal = decision {
            queues[client]?.removeAll { $0 === request }
            if queues[client]?.isEmpty == true { queues[client] = nil }
            request.decided(refusal)
        }
        while let head = queues[client]?.first, let decision = head.decision {
            queues[client]?.removeFirst()
            if queues[client]?.isEmpty == true { queues[client] = nil }
            head.decided(decision)
        }
    }

    /// Ends `request`'s turn at the authority for the per-client and per-user counts; returns the check it had.
    @discardableResult
    private func release(_ request: Request) -> Check? {
        guard let check = request.check else { return nil }
        request.check = nil
        checksByUser[check.uid, default: 1] -= 1
        if checksByUser[check.uid] == 0 { checksByUser[check.uid] = nil }
        return check
    }

    private func denied(_ request: Request, _ why: String) -> DBusError {
        .accessDenied("\(request.what) is privileged (\(request.action.rawValue)) and \(request.client) is not authorized: \(why)")
    }
}
