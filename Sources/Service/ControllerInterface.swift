// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import Orientation
import OrientationAPI
import Policy

extension OrientationService {
    /// `org.orientationd.Orientation1.Controller`, shared by every controller: handlers find theirs by `MethodCall.object`.
    func controllerInterface() -> Interface {
        Interface(
            name: Orientation1.controllerInterface,
            methods: [
                Method("PushViewController", in: ("controller", ObjectPath.self)) { [unowned self] call, controller in
                    let id = ControllerID(rawValue: call.object)
                    return perform(call) { () throws(PolicyError) in
                        try policy.push(try controllerArgument(controller), onto: id, caller: call.sender)
                        return []
                    }
                },
                Method("PopViewController", out: [Arg("controller", "o")]) { [unowned self] call in
                    let id = ControllerID(rawValue: call.object)
                    return perform(call) { () throws(PolicyError) in [.objectPath(ObjectPaths.path(of: try policy.pop(id, caller: call.sender)))] }
                },
                Method("SetViewControllers", in: ("controllers", [ObjectPath].self)) { [unowned self] call, controllers in
                    let id = ControllerID(rawValue: call.object)
                    return perform(call) { () throws(PolicyError) in
                        var list: [ControllerID] = []
                        for controller in controllers { list.append(try controllerArgument(controller)) }
                        try policy.setViewControllers(id, list, caller: call.sender)
                        return []
                    }
                },
                Method("PresentViewController", in: ("controller", ObjectPath.self)) { [unowned self] call, controller in
                    let id = ControllerID(rawValue: call.object)
                    return perform(call) { () throws(PolicyError) in
                        try policy.present(try controllerArgument(controller), from: id, caller: call.sender)
                        return []
                    }
                },
                Method("DismissViewController") { [unowned self] call in
                    let id = ControllerID(rawValue: call.object)
                    return perform(call) { () throws(PolicyError) in try policy.dismiss(id, caller: call.sender); return [] }
                },
                Method("Destroy") { [unowned self] call in
                    let id = ControllerID(rawValue: call.object)
                    return perform(call) { () throws(PolicyError) in try policy.destroy(id, caller: call.sender); return [] }
                },
            ],
            properties: [
                Property("Kind", type: "s", emits: .const, object: reading { .string($0?.kind.rawValue ?? "") }),
                Property("SupportedMask", type: UInt32.self, object: reading { .uint32($0?.supportedMask.rawValue ?? 0) },
                         set: { [unowned self] call, mask in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setSupportedMask(ControllerID(rawValue: call.object), mask, caller: call.sender)
                             }
                         }),
                Property("ShouldAutorotate", type: Bool.self, object: reading { .bool($0?.shouldAutorotate ?? true) },
                         set: { [unowned self] call, autorotate in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setShouldAutorotate(ControllerID(rawValue: call.object), autorotate, caller: call.sender)
                             }
                         }),
                Property("PreferredOrientation", type: UInt32.self, object: reading { .uint32($0?.preferredOrientation.rawValue ?? 0) },
                         set: { [unowned self] call, orientation in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setPreferredOrientation(ControllerID(rawValue: call.object), orientation, caller: call.sender)
                             }
                         }),
                Property("ForwardsToChild", type: Bool.self, object: reading { .bool($0?.forwardsToChild ?? false) },
                         set: { [unowned self] call, forwards in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setForwardsToChild(ControllerID(rawValue: call.object), forwards, caller: call.sender)
                             }
                         }),
                Property("ViewControllers", type: "ao", object: reading { .objectPaths($0?.children.map { ObjectPaths.path(of: $0) } ?? []) }),
                Property("SelectedIndex", type: UInt32.self, object: reading { .uint32($0?.selectedIndex ?? 0) },
                         set: { [unowned self] call, index in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setSelectedIndex(ControllerID(rawValue: call.object), index, caller: call.sender)
                             }
                         }),
                Property("PresentedController", type: "o", object: reading { .objectPath(ObjectPaths.path(of: $0?.presented)) }),
                Property("PresentingController", type: "o", object: reading { .objectPath(ObjectPaths.path(of: $0?.presenting)) }),
                Property("Parent", type: "o", object: reading { .objectPath(ObjectPaths.path(of: $0?.parent)) }),
                Property("PrefersOrientationLocked", type: Bool.self, object: reading { .bool($0?.prefersOrientationLocked ?? false) },
                         set: { [unowned self] call, locked in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setPrefersOrientationLocked(ControllerID(rawValue: call.object), locked, caller: call.sender)
                             }
                         }),
            ],
            annotations: [(OrientationService.generatedNameAnnotation, Orientation1.generatedName(of: Orientation1.controllerInterface)!)])
            .addingSetterMethods()
    }

    /// A controller getter: `read` receives the controller the key names (nil once it is gone).
    private func reading(_ read: @escaping (Controller?) -> Value) -> (UInt64) -> Value {
        { [unowned self] key in read(policy.controller(ControllerID(rawValue: key))) }
    }
}
