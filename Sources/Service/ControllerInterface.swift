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
                Method("PushViewController", in: [Arg("controller", "o")]) { [unowned self] call in
                    perform(call) { () throws(PolicyError) in
                        try policy.push(try controllerArgument(call.arguments[0]), onto: id, caller: call.sender)
                        return []
                    }
                },
                Method("PopViewController", out: [Arg("controller", "o")]) { [unowned self] call in
                    perform(call) { () throws(PolicyError) in [.objectPath(ObjectPaths.path(of: try policy.pop(id, caller: call.sender)))] }
                },
                Method("SetViewControllers", in: [Arg("controllers", "ao")]) { [unowned self] call in
                    perform(call) { () throws(PolicyError) in
                        var list: [ControllerID] = []
                        for value in call.arguments[0].arrayValues ?? [] { list.append(try controllerArgument(value)) }
                        try policy.setViewControllers(id, list, caller: call.sender)
                        return []
                    }
                },
                Method("PresentViewController", in: [Arg("controller", "o")]) { [unowned self] call in
                    perform(call) { () throws(PolicyError) in
                        try policy.present(try controllerArgument(call.arguments[0]), from: id, caller: call.sender)
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
                Property("SupportedMask", type: "u", access: .readwrite,
                         get: { [unowned self] in .uint32(policy.controller(id)?.supportedMask.rawValue ?? 0) },
                         set: { [unowned self] call, value in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setSupportedMask(id, value.uint32Value ?? 0, caller: call.sender)
                             }
                         }),
                Property("ShouldAutorotate", type: "b", access: .readwrite,
                         get: { [unowned self] in .bool(policy.controller(id)?.shouldAutorotate ?? true) },
                         set: { [unowned self] call, value in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setShouldAutorotate(id, value.boolValue ?? true, caller: call.sender)
                             }
                         }),
                Property("PreferredOrientation", type: "u", access: .readwrite,
                         get: { [unowned self] in .uint32(policy.controller(id)?.preferredOrientation.rawValue ?? 0) },
                         set: { [unowned self] call, value in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setPreferredOrientation(id, value.uint32Value ?? 0, caller: call.sender)
                             }
                         }),
                Property("ForwardsToChild", type: "b", access: .readwrite,
                         get: { [unowned self] in .bool(policy.controller(id)?.forwardsToChild ?? false) },
                         set: { [unowned self] call, value in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setForwardsToChild(id, value.boolValue ?? true, caller: call.sender)
                             }
                         }),
                Property("ViewControllers", type: "ao") { [unowned self] in
                    .objectPaths(policy.controller(id)?.children.map { ObjectPaths.path(of: $0) } ?? [])
                },
                Property("SelectedIndex", type: "u", access: .readwrite,
                         get: { [unowned self] in .uint32(policy.controller(id)?.selectedIndex ?? 0) },
                         set: { [unowned self] call, value in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setSelectedIndex(id, value.uint32Value ?? 0, caller: call.sender)
                             }
                         }),
                Property("PresentedController", type: "o") { [unowned self] in
                    .objectPath(ObjectPaths.path(of: policy.controller(id)?.presented))
                },
                Property("PresentingController", type: "o") { [unowned self] in
                    .objectPath(ObjectPaths.path(of: policy.controller(id)?.presenting))
                },
                Property("Parent", type: "o") { [unowned self] in .objectPath(ObjectPaths.path(of: policy.controller(id)?.parent)) },
            ])
    }
}
