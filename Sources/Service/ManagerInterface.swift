// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import Orientation
import OrientationAPI
import Policy

extension OrientationService {
    /// `org.orientationd.Orientation1`, declared once: dispatch, properties and introspection come from this table.
    func managerInterface() -> Interface {
        Interface(
            name: Orientation1.managerInterface,
            methods: [
                Method("BeginGeneratingDeviceOrientationNotifications") { [unowned self] call in
                    perform(call) { policy.beginGenerating(client: call.sender); return [] }
                },
                Method("EndGeneratingDeviceOrientationNotifications") { [unowned self] call in
                    perform(call) { () throws(PolicyError) in try policy.endGenerating(client: call.sender); return [] }
                },
                Method("RegisterWindow", out: [Arg("window", "o")]) { [unowned self] call in
                    withCredentials(of: call) { [unowned self] caller throws(PolicyError) in
                        [.objectPath(ObjectPaths.path(of: try policy.registerWindow(client: call.sender, user: caller.user,
                                                                                     process: caller.process)))]
                    }
                },
                Method("CreateController", in: ("kind", String.self), out: [Arg("controller", "o")]) { [unowned self] call, kind in
                    withCredentials(of: call) { [unowned self] caller throws(PolicyError) in
                        [.objectPath(ObjectPaths.path(of: try policy.createController(kind: kind, client: call.sender, user: caller.user)))]
                    }
                },
                Method("AttemptRotationToDeviceOrientation") { [unowned self] call in
                    perform(call) { policy.attemptRotation(); return [] }
                },
                Method("SetDeviceOrientation", in: ("orientation", UInt32.self)) { [unowned self] call, raw in
                    privileged(call, .setDeviceOrientation, what: "SetDeviceOrientation") { () throws(PolicyError) in
                        try self.policy.setDeviceOrientation(raw)
                        return []
                    }
                },
                Method("InjectAcceleration", in: ("x", Double.self), ("y", Double.self), ("z", Double.self)) { [unowned self] call, x, y, z in
                    injectAcceleration(call, [x, y, z])
                },
                Method("ResetApplicationMask") { [unowned self] call in
                    privileged(call, .configureApplication, what: "ResetApplicationMask") { () throws(PolicyError) in
                        try self.policy.resetApplicationMask()
                        return []
                    }
                },
                Method("SetFocusedProcess", in: ("pid", UInt32.self)) { [unowned self] call, pid in
                    setFocusedApplication(call, "", pid, what: "SetFocusedProcess")
                },
                Method("SetFocusedApplication", in: ("app_id", String.self), ("pid", UInt32.self)) { [unowned self] call, id, pid in
                    setFocusedApplication(call, id, pid, what: "SetFocusedApplication")
                },
                Method("ReportFocus", in: [Arg("app_id", "s"), Arg("pid", "u"), Arg("details", "a{sv}")]) { [unowned self] call in
                    reportFocus(call)
                },
                Method("SetApplicationOrientations", in: ("app_id", String.self), ("mask", UInt32.self)) { [unowned self] call, id, mask in
                    withApplication(id) { [unowned self] app in
                        privileged(call, .configureApplications, what: "SetApplicationOrientations") { () throws(PolicyError) in
                            try self.policy.setApplicationOrientations(app, mask)
                            return []
                        }
                    }
                },
                Method("ResetApplicationOrientations", in: ("app_id", String.self)) { [unowned self] call, id in
                    withApplication(id) { [unowned self] app in
                        privileged(call, .configureApplications, what: "ResetApplicationOrientations") { [unowned self] in
                            policy.resetApplicationOrientations(app)
                            return []
                        }
                    }
                },
                Method("AcceptSuggestedOrientation") { [unowned self] call in
                    privileged(call, .lockRotation, what: "AcceptSuggestedOrientation") { () throws(PolicyError) in
                        try self.policy.acceptSuggestion()
                        return []
                    }
                },
                Method("ApplicationDeclaration", in: ("app_id", String.self), out: [Arg("mask", "u"), Arg("source", "s")]) { [unowned self] _, id in
                    withApplication(id) { [unowned self] app in
                        let found = policy.declaration(of: app, desktopFile: desktopFiles.mask(for: app))
                        return .values([.uint32(found.mask.rawValue), .string(found.source.rawValue)])
                    }
                },
                Method("ExplainApplicationDeclaration", in: ("app_id", String.self), out: [Arg("explanation", "s")]) { [unowned self] _, id in
                    withApplication(id) { [unowned self] app in .values([.string(explainDeclaration(of: app))]) }
                },
            ],
            properties: [
                Property("DeviceOrientation", type: "u") { [unowned self] in .uint32(policy.deviceOrientation.rawValue) },
                Property("InterfaceOrientation", type: "u") { [unowned self] in .uint32(policy.interfaceOrientation.rawValue) },
                Property("SupportedMask", type: "u") { [unowned self] in .uint32(policy.supportedMask.rawValue) },
                Property("ApplicationMask", type: UInt32.self,
                         get: { [unowned self] in .uint32(policy.applicationMask.rawValue) },
                         set: { [unowned self] call, raw in
                             privilegedSet(call, .configureApplication, what: "setting ApplicationMask") { () throws(PolicyError) in
                                 try self.policy.setApplicationMask(raw)
                             }
                         }),
                Property("Idiom", type: "s", emits: .const) { [unowned self] in .string(policy.idiom.rawValue) },
                Property("IdiomSource", type: "s", emits: .const) { [unowned self] in .string(settings.idiomSource) },
                Property("RotationLocked", type: Bool.self,
                         get: { [unowned self] in .bool(policy.rotationLocked) },
                         set: { [unowned self] call, locked in
                             privilegedSet(call, .lockRotation, what: "setting RotationLocked") {
                                 self.policy.setRotationLocked(locked)
                             }
                         }),
                Property("HasAccelerometer", type: "b") { [unowned self] in .bool(hasAccelerometer) },
                Property("KeyWindow", type: "o") { [unowned self] in .objectPath(policy.keyWindow.map { ObjectPaths.path(of: $0) } ?? "/") },
                Property("RotationDuration", type: "d", emits: .const) { [unowned self] in .double(settings.rotationDuration) },
                // Qt's D-Bus types need a name for a structure; Docs/clients.md shows the type.
                Property("ScreenBounds", type: "(uu)") { [unowned self] in
                    ExportedTables.screenBounds(policy.interfaceOrientation, settings.portraitSize)
                }
                    .annotated("org.qtproject.QtDBus.QtTypeName", "OrientationScreenBounds"),
                Property("FocusedProcess", type: "u") { [unowned self] in .uint32(policy.focusedProcess) },
                Property("FocusedApplication", type: "s") { [unowned self] in .string(policy.focusedApplication?.rawValue ?? "") },
                Property("FocusedApplicationMask", type: "u") { [unowned self] in .uint32(policy.focusedDeclaration.mask.rawValue) },
                Property("FocusedApplicationSource", type: "s") { [unowned self] in .string(policy.focusedDeclaration.source.rawValue) },
                Property("ApplicationOrientations", type: "a{su}") { [unowned self] in
                    ExportedTables.applicationOrientations(policy.applicationOverrides)
                }
                    .annotated("org.qtproject.QtDBus.QtTypeName", "OrientationApplicationMasks"),
                Property("InterfaceLockedByApplication", type: "b") { [unowned self] in .bool(policy.interfaceLockedByApplication) },
                Property("Posture", type: "s") { [unowned self] in .string(policy.posture.rawValue) },
                Property("HingeAngle", type: "d") { [unowned self] in .double(policy.hingeAngle) },
                Property("SuggestedOrientation", type: "u") { [unowned self] in .uint32(policy.suggestedOrientation.rawValue) },
                Property("TouchHold", type: "b") { [unowned self] in .bool(policy.touchHold) },
                Property("MountMatrixSuspect", type: "b") { [unowned self] in .bool(mountMatrixCheck.suspect) },
            ],
            signals: [
                Signal("WillChange", args: [Arg("from", "u"), Arg("to", "u")]),
                Signal("DidChange", args: [Arg("from", "u"), Arg("to", "u")]),
                Signal("DeviceOrientationDidChange", args: [Arg("orientation", "u")]),
                Signal("RotationSuggested", args: [Arg("orientation", "u")]),
            ],
            annotations: [(OrientationService.generatedNameAnnotation, Orientation1.generatedName(of: Orientation1.managerInterface)!)])
            .addingSetterMethods()
    }

    /// `SetFocusedApplication` (and `SetFocusedProcess`, with no id): needs `report-focus`, and while
    /// another connection is the focus authority, `configure-application` too: the first reporter of a
    /// session, its shell, keeps the role until it leaves the bus (applications.md). The id is checked
    /// before anything, and its desktop file read (cached) only once the caller is authorized.
    func setFocusedApplication(_ call: MethodCall, _ id: String, _ pid: UInt32, what: String) -> Reply {
        if !id.isEmpty {
            return withApplication(id) { [unowned self] app in reportFocus(call, app, pid, FocusDetails(), what: what) }
        }
        return reportFocus(call, nil, pid, FocusDetails(), what: what)
    }

    /// `ReportFocus(app_id, pid, details)`: `SetFocusedApplication` with what the session knows of the
    /// application's window and its user's own desktop file. Bad details are refused before privilege,
    /// with nothing changed.
    func reportFocus(_ call: MethodCall) -> Reply {
        guard call.arguments.count == 3, let id = call.arguments[0].stringValue, let pid = call.arguments[1].uint32Value,
              let entries = call.arguments[2].stringKeyedEntries else { return call.mismatch }
        let details: FocusDetails
        do { details = try FocusDetails(entries, application: id) } catch { return .error(error.dbusError) }
        if id.isEmpty { return reportFocus(call, nil, pid, details, what: "ReportFocus") }
        return withApplication(id) { [unowned self] app in reportFocus(call, app, pid, details, what: "ReportFocus") }
    }

    /// As above, with the id and the details checked.
    private func reportFocus(_ call: MethodCall, _ app: ApplicationID?, _ pid: UInt32, _ details: FocusDetails,
                             what: String) -> Reply {
        let takingOver = policy.focusAuthority.map { $0 != call.sender } ?? false
        return privileged(call, takingOver ? .configureApplication : .reportFocus, what: what) { [unowned self] () throws(PolicyError) in
            if !takingOver, let authority = policy.focusAuthority, authority != call.sender {
                throw PolicyError(.accessDenied, "\(authority) reports the focus; another connection may report it only "
                    + "with the configure-application privilege, or once \(authority) has left the bus")
            }
            let report = FocusReport(app, process: pid, desktopFile: app.flatMap { desktopFiles.mask(for: $0) },
                                     userDesktopFile: app.flatMap { userDeclarations.mask(details.userDesktopFile, for: $0) },
                                     fillsScreen: details.fullscreen)
            policy.setFocus(report, authority: call.sender)
            return []
        }
    }

    /// Runs `body` with `id` checked as an application id, or answers `InvalidArgs`: before privilege
    /// and before any file name is built from it.
    /// `ExplainApplicationDeclaration`: why `app` declares what `ApplicationDeclaration` answers, in one
    /// sentence: the user's choice, the configuration, or the desktop file the daemon read (and why it
    /// declares nothing: no file, a file passed over, no key, a bad value and what is wrong).
    func explainDeclaration(of app: ApplicationID) -> String {
        let found = policy.declaration(of: app, desktopFile: desktopFiles.mask(for: app))
        switch found.source {
        case .override: return "the user chose \(found.mask) for \(app) (SetApplicationOrientations); it comes before any declaration"
        case .config: return "[Applications] in the configuration gives \(app) \(found.mask); it comes before the desktop file"
        default: return desktopFiles.explain(app)
        }
    }

    func withApplication(_ id: String, _ body: (ApplicationID) -> Reply) -> Reply {
        do { return body(try policy.applicationID(id)) } catch { return .error(error.dbusError) }
    }

    /// `InjectAcceleration`: one sample (x, y, z) for the simulated sensor's classifier. The privilege is
    /// checked first, so an unprivileged caller learns nothing about the daemon's source from the answer.
    func injectAcceleration(_ call: MethodCall, _ sample: [Double]) -> Reply {
        privileged(call, .setDeviceOrientation, what: "InjectAcceleration") { [unowned self] in
            guard settings.sensor == .simulated else {
                return .error(.service("NotSimulated", "InjectAcceleration needs the simulated sensor; this daemon runs "
                    + "with the '\(settings.sensor.rawValue)' source (start it with --sensor simulated)"))
            }
            guard sample.allSatisfy(\.isFinite) else {
                return .error(.invalidArgs("acceleration (\(sample.map { "\($0)" }.joined(separator: ", "))) is not finite; "
                    + "samples are three finite numbers in m/s²"))
            }
            feed?.feed(x: sample[0], y: sample[1], z: sample[2])
            return .values([])
        }
    }
}
