import DBus
import Orientation
import OrientationAPI
import Policy

extension OrientationService {
    /// `org.orientationd.Orientation1.Controller` for controller `id`.
    func controllerInterface(_ id: ControllerID) -> Interface {
        Interface(
            name: Orientation1.controllerInterface,
            methods: [
                Method("PushViewController", in: ("controller", ObjectPath.self)) { [unowned self] call, controller in
                    perform(call) { () throws(PolicyError) in
                        try policy.push(try controllerArgument(controller), onto: id, caller: call.sender)
                        return []
                    }
                },
                Method("PopViewController", out: [Arg("controller", "o")]) { [unowned self] call in
                    perform(call) { () throws(PolicyError) in [.objectPath(ObjectPaths.path(of: try policy.pop(id, caller: call.sender)))] }
                },
                Method("SetViewControllers", in: ("controllers", [ObjectPath].self)) { [unowned self] call, controllers in
                    perform(call) { () throws(PolicyError) in
                        var list: [ControllerID] = []
                        for controller in controllers { list.append(try controllerArgument(controller)) }
                        try policy.setViewControllers(id, list, caller: call.sender)
                        return []
                    }
                },
                Method("PresentViewController", in: ("controller", ObjectPath.self)) { [unowned self] call, controller in
                    perform(call) { () throws(PolicyError) in
                        try policy.present(try controllerArgument(controller), from: id, caller: call.sender)
                        return []
                    }
                },
                Method("DismissViewController") { [unowned self] call in
                    perform(call) { () throws(PolicyError) in try policy.dismiss(id, caller: call.sender); return [] }
                },
                Method("Destroy") { [unowned self] call in
                    perform(call) { () throws(PolicyError) in try policy.destroy(id, caller: call.sender); return [] }
                },
            ],
            properties: [
                Property("Kind", type: "s", emits: .const) { [unowned self] in .string(policy.controller(id)?.kind.rawValue ?? "") },
                Property("SupportedMask", type: UInt32.self,
                         get: { [unowned self] in .uint32(policy.controller(id)?.supportedMask.rawValue ?? 0) },
                         set: { [unowned self] call, mask in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setSupportedMask(id, mask, caller: call.sender)
                             }
                         }),
                Property("ShouldAutorotate", type: Bool.self,
                         get: { [unowned self] in .bool(policy.controller(id)?.shouldAutorotate ?? true) },
                         set: { [unowned self] call, autorotate in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setShouldAutorotate(id, autorotate, caller: call.sender)
                             }
                         }),
                Property("PreferredOrientation", type: UInt32.self,
                         get: { [unowned self] in .uint32(policy.controller(id)?.preferredOrientation.rawValue ?? 0) },
                         set: { [unowned self] call, orientation in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setPreferredOrientation(id, orientation, caller: call.sender)
                             }
                         }),
                Property("ForwardsToChild", type: Bool.self,
                         get: { [unowned self] in .bool(policy.controller(id)?.forwardsToChild ?? false) },
                         set: { [unowned self] call, forwards in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setForwardsToChild(id, forwards, caller: call.sender)
                             }
                         }),
                Property("ViewControllers", type: "ao") { [unowned self] in
                    .objectPaths(policy.controller(id)?.children.map { ObjectPaths.path(of: $0) } ?? [])
                },
                Property("SelectedIndex", type: UInt32.self,
                         get: { [unowned self] in .uint32(policy.controller(id)?.selectedIndex ?? 0) },
                         set: { [unowned self] call, index in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setSelectedIndex(id, index, caller: call.sender)
                             }
                         }),
                Property("PresentedController", type: "o") { [unowned self] in
                    .objectPath(ObjectPaths.path(of: policy.controller(id)?.presented))
                },
                Property("PresentingController", type: "o") { [unowned self] in
                    .objectPath(ObjectPaths.path(of: policy.controller(id)?.presenting))
                },
                Property("Parent", type: "o") { [unowned self] in .objectPath(ObjectPaths.path(of: policy.controller(id)?.parent)) },
                Property("PrefersOrientationLocked", type: Bool.self,
                         get: { [unowned self] in .bool(policy.controller(id)?.prefersOrientationLocked ?? false) },
                         set: { [unowned self] call, locked in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setPrefersOrientationLocked(id, locked, caller: call.sender)
                             }
                         }),
            ],
            annotations: [(OrientationService.generatedNameAnnotation, Orientation1.generatedNames[Orientation1.controllerInterface]!)])
            .addingSetterMethods()
    }
}
