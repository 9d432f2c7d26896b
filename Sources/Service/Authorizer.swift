@preconcurrency import Glibc
import DBus
import OrientationAPI
import SensorSources

/// Decides privileged calls (dbus-api.md, "Privilege"): polkit when it runs on the bus,
/// else the caller's uid (0, the daemon's own) or the config's users and groups.
///
/// Every check is asynchronous, so a slow polkit never blocks the main loop.
final class Authorizer {
    /// The polkit actions of `dbus/org.orientationd.Orientation1.policy`.
    enum Action: String {
        case lockRotation = "org.orientationd.Orientation1.lock-rotation"
        case setDeviceOrientation = "org.orientationd.Orientation1.set-device-orientation"
        case configureApplication = "org.orientationd.Orientation1.configure-application"
        case takeKeyWindow = "org.orientationd.Orientation1.take-key-window"
    }

    private let connection: Connection
    private let uids: Set<UInt32>
    private let gids: Set<UInt32>

    /// Resolves the config's user and group names once, at start, so no lookup happens per call.
    init(connection: Connection, users: [String], groups: [String]) {
        self.connection = connection
        var uids: Set<UInt32> = [0, getuid()]
        for name in users {
            if let entry = getpwnam(name) { uids.insert(entry.pointee.pw_uid) } else { log("[Security] unknown user '\(name)' ignored") }
        }
        var gids: Set<UInt32> = []
        for name in groups {
            if let entry = getgrnam(name) { gids.insert(entry.pointee.gr_gid) } else { log("[Security] unknown group '\(name)' ignored") }
        }
        self.uids = uids
        self.gids = gids
    }

    /// Calls `completion` with nil when `sender` may perform `action`, else with AccessDenied.
    func authorize(_ sender: String, _ action: Action, what: String, _ completion: @escaping (DBusError?) -> Void) {
        connection.callBusDriver("NameHasOwner", [.string("org.freedesktop.PolicyKit1")]) { [self] result in
            if case .success(let values) = result, values.first?.boolValue == true {
                askPolkit(sender, action, what: what, completion)
            } else {
                checkCredentials(sender, action, what: what, completion)
            }
        }
    }

    private func denied(_ sender: String, _ action: Action, _ what: String, _ why: String) -> DBusError {
        .accessDenied("\(what) is privileged (\(action.rawValue)) and \(sender) is not authorized: \(why)")
    }

    private func askPolkit(_ sender: String, _ action: Action, what: String, _ completion: @escaping (DBusError?) -> Void) {
        let subject = Value.structure([.string("system-bus-name"), .stringVariantDict([("name", .string(sender))])])
        let details = Value.dict(keySignature: "s", valueSignature: "s", [])
        connection.call(destination: "org.freedesktop.PolicyKit1", path: "/org/freedesktop/PolicyKit1/Authority",
                        interface: "org.freedesktop.PolicyKit1.Authority", method: "CheckAuthorization",
                        values: [subject, .string(action.rawValue), details, .uint32(1), .string("")]) { [self] result in
            switch result {
            case .success(let values):
                let authorized = values.first?.structureValues?.first?.boolValue ?? false
                completion(authorized ? nil : denied(sender, action, what, "polkit refused"))
            case .failure(let error):
                completion(denied(sender, action, what, "polkit failed: \(error.message)"))
            }
        }
    }

    private func checkCredentials(_ sender: String, _ action: Action, what: String, _ completion: @escaping (DBusError?) -> Void) {
        connection.callBusDriver("GetConnectionCredentials", [.string(sender)]) { [self] result in
            guard case .success(let values) = result, let credentials = values.first?.stringKeyedDictionary,
                  let uid = credentials["UnixUserID"]?.uint32Value
            else {
                return completion(denied(sender, action, what, "its credentials could not be read"))
            }
            let groups = credentials["UnixGroupIDs"]?.arrayValues?.compactMap(\.uint32Value) ?? []
            if uids.contains(uid) || groups.contains(where: gids.contains) {
                completion(nil)
            } else {
                completion(denied(sender, action, what, "uid \(uid) is not root, not the daemon's user, and not listed in [Security]"))
            }
        }
    }
}
