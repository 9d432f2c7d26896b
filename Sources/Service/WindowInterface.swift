// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import Orientation
import OrientationAPI
import Policy

extension OrientationService {
    /// `org.orientationd.Orientation1.Window`, shared by every window: handlers find theirs by `MethodCall.object`.
    func windowInterface() -> Interface {
        Interface(
            name: Orientation1.windowInterface,
            methods: [
                Method("MakeKeyAndVisible") { [unowned self] call in
                    let id = WindowID(rawValue: call.object)
                    guard let window = policy.window(id), window.owner != call.sender else {
                        // P6f: with no focus authority, taking the key window from another client's needs the privilege.
                        guard policy.takesKeyWindow(id) else {
                            return perform(call) { () throws(PolicyError) in try policy.makeKeyAndVisible(id, caller: call.sender); return [] }
                        }
                        return privileged(call, .takeKeyWindow, what: "making \(id) key, which takes the key window from "
                                          + "another client's window while no focus authority is set") { () throws(PolicyError) in
                            try self.policy.makeKeyAndVisible(id, caller: call.sender, mayTakeKeyWindow: true)
                            return []
                        }
                    }
                    return privileged(call, .configureApplication, what: "making another client's \(id) key") { () throws(PolicyError) in
                        try self.policy.makeKeyAndVisible(id, caller: nil)
                        return []
                    }
                },
                Method("RequestGeometryUpdate", in: ("mask", UInt32.self)) { [unowned self] call, mask in
                    let id = WindowID(rawValue: call.object)
                    return perform(call) { () throws(PolicyError) in
                        try policy.requestGeometryUpdate(id, mask, caller: call.sender)
                        return []
                    }
                },
                Method("Close") { [unowned self] call in
                    let id = WindowID(rawValue: call.object)
                    return perform(call) { () throws(PolicyError) in try policy.closeWindow(id, caller: call.sender); return [] }
                },
            ],
            properties: [
                Property("SupportedMask", type: "u", object: { [unowned self] in .uint32(policy.supportedMask(of: WindowID(rawValue: $0)).rawValue) }),
                Property("DelegateMask", type: UInt32.self,
                         object: { [unowned self] in .uint32(policy.window(WindowID(rawValue: $0))?.delegateMask.rawValue ?? 0) },
                         set: { [unowned self] call, mask in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setDelegateMask(WindowID(rawValue: call.object), mask, caller: call.sender)
                             }
                         }),
                Property("RootController", type: ObjectPath.self,
                         object: { [unowned self] in .objectPath(ObjectPaths.path(of: policy.window(WindowID(rawValue: $0))?.rootController)) },
                         set: { [unowned self] call, path in
                             performSet(call) { () throws(PolicyError) in
                                 let root = try optionalControllerArgument(path)
                                 try policy.setRootController(WindowID(rawValue: call.object), root, caller: call.sender)
                             }
                         }),
                Property("IsKey", type: "b", object: { [unowned self] in .bool(policy.keyWindow == WindowID(rawValue: $0)) }),
                Property("KeyWhenFocused", type: "b", object: { [unowned self] in .bool(policy.keyWhenFocused(WindowID(rawValue: $0))) }),
                Property("EffectiveMask", type: "u", object: { [unowned self] in .uint32(policy.effectiveMask(of: WindowID(rawValue: $0)).rawValue) }),
                Property("DecidingController", type: "o", object: { [unowned self] in
                    .objectPath(ObjectPaths.path(of: policy.decidingController(of: WindowID(rawValue: $0))))
                }),
            ],
            annotations: [(OrientationService.generatedNameAnnotation, Orientation1.generatedName(of: Orientation1.windowInterface)!)])
            .addingSetterMethods()
    }

    /// The controller an `o` argument names; `/` is an error: a controller is required here.
    func controllerArgument(_ argument: ObjectPath) throws(PolicyError) -> ControllerID {
        let path = argument.path
        guard let id = ObjectPaths.controller(at: path), policy.controller(id) != nil else {
            throw PolicyError(.unknownObject, path == Orientation1.noObjectPath ? "'/' names no controller; a controller is required here"
                                                                               : "there is no controller at \(path)")
        }
        return id
    }

    /// As `controllerArgument`, with `/` meaning none (a window's `RootController`).
    func optionalControllerArgument(_ argument: ObjectPath) throws(PolicyError) -> ControllerID? {
        argument.path == Orientation1.noObjectPath ? nil : try controllerArgument(argument)
    }
}
