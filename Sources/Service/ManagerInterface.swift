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
                    privileged(call, .configureApplication, what: "SetFocusedProcess") { [unowned self] in
                        policy.setFocusedProcess(pid, authority: call.sender)
                        return []
                    }
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
                Property("InterfaceLockedByApplication", type: "b") { [unowned self] in .bool(policy.interfaceLockedByApplication) },
            ],
            signals: [
                Signal("WillChange", args: [Arg("from", "u"), Arg("to", "u")]),
                Signal("DidChange", args: [Arg("from", "u"), Arg("to", "u")]),
                Signal("DeviceOrientationDidChange", args: [Arg("orientation", "u")]),
            ],
            annotations: [(OrientationService.generatedNameAnnotation, Orientation1.generatedNames[Orientation1.managerInterface]!)])
            .addingSetterMethods()
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
