import DBus
import Orientation
import OrientationAPI
import Policy

extension OrientationService {
    /// `org.orientationd.Orientation1.Window` for window `id`.
    func windowInterface(_ id: WindowID) -> Interface {
        Interface(
            name: Orientation1.windowInterface,
            methods: [
                Method("MakeKeyAndVisible") { [unowned self] call in
                    guard let window = policy.window(id), window.owner != call.sender else {
                        return perform(call) { () throws(PolicyError) in try policy.makeKeyAndVisible(id, caller: call.sender); return [] }
                    }
                    return privileged(call, .configureApplication, what: "making another client's \(id) key") { () throws(PolicyError) in
                        try self.policy.makeKeyAndVisible(id, caller: nil)
                        return []
                    }
                },
                Method("RequestGeometryUpdate", in: [Arg("mask", "u")]) { [unowned self] call in
                    perform(call) { () throws(PolicyError) in
                        try policy.requestGeometryUpdate(id, call.arguments[0].uint32Value ?? 0, caller: call.sender)
                        return []
                    }
                },
                Method("Close") { [unowned self] call in
                    perform(call) { () throws(PolicyError) in try policy.closeWindow(id, caller: call.sender); return [] }
                },
            ],
            properties: [
                Property("SupportedMask", type: "u") { [unowned self] in .uint32(policy.supportedMask(of: id).rawValue) },
                Property("DelegateMask", type: "u", access: .readwrite,
                         get: { [unowned self] in .uint32(policy.window(id)?.delegateMask.rawValue ?? 0) },
                         set: { [unowned self] call, value in
                             performSet(call) { () throws(PolicyError) in
                                 try policy.setDelegateMask(id, value.uint32Value ?? 0, caller: call.sender)
                             }
                         }),
                Property("RootController", type: "o", access: .readwrite,
                         get: { [unowned self] in .objectPath(ObjectPaths.path(of: policy.window(id)?.rootController)) },
                         set: { [unowned self] call, value in
                             performSet(call) { () throws(PolicyError) in
                                 let root = try optionalControllerArgument(value)
                                 try policy.setRootController(id, root, caller: call.sender)
                             }
                         }),
                Property("IsKey", type: "b") { [unowned self] in .bool(policy.keyWindow == id) },
                Property("EffectiveMask", type: "u") { [unowned self] in .uint32(policy.effectiveMask(of: id).rawValue) },
                Property("DecidingController", type: "o") { [unowned self] in
                    .objectPath(ObjectPaths.path(of: policy.decidingController(of: id)))
                },
            ])
    }

    /// The controller an `o` argument names; `/` is an error: a controller is required here.
    func controllerArgument(_ value: Value) throws(PolicyError) -> ControllerID {
        let path = value.objectPathValue ?? ""
        guard let id = ObjectPaths.controller(at: path), policy.controller(id) != nil else {
            throw PolicyError(.unknownObject, path == "/" ? "'/' names no controller; a controller is required here"
                                                          : "there is no controller at \(path)")
        }
        return id
    }

    /// As `controllerArgument`, with `/` meaning none (a window's `RootController`).
    func optionalControllerArgument(_ value: Value) throws(PolicyError) -> ControllerID? {
        value.objectPathValue == "/" ? nil : try controllerArgument(value)
    }
}
