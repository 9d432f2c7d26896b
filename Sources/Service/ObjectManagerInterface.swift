import DBus
import OrientationAPI
import Policy
import Log

extension OrientationService {
    /// The annotation that names an interface in code gdbus-codegen generates from the XML.
    static let generatedNameAnnotation = "org.gtk.GDBus.C.Name"

    /// The most objects `GetManagedObjects` lists in one reply: about 550 bytes each, so a reply stays
    /// far below the system bus's 32 MiB, and building it keeps the loop busy for a bounded time.
    static let maxManagedObjectsListed = 16384

    /// `org.freedesktop.DBus.ObjectManager` on the manager object (dbus-api.md, "Signals"): every window
    /// and controller with its properties, and a signal when one comes or goes, whatever the reason,
    /// so `GDBusObjectManagerClient` and zbus's object manager follow the tree as it is.
    func objectManagerInterface() -> Interface {
        Interface(
            name: StandardInterface.objectManager,
            methods: [
                Method("GetManagedObjects", out: [Arg("objects", "a{oa{sa{sv}}}")]) { [unowned self] _ in
                    let count = policy.windowCount + policy.controllerCount
                    guard count <= Self.maxManagedObjectsListed else {
                        return .error(.limitsExceeded("GetManagedObjects lists at most \(Self.maxManagedObjectsListed) objects in one "
                            + "reply and there are \(count); follow InterfacesAdded and InterfacesRemoved instead, or read objects at their paths"))
                    }
                    let windows = policy.firstWindowIDs(count).map { (ObjectPaths.path(of: $0), windowInterface($0)) }
                    let controllers = policy.firstControllerIDs(count).map { (ObjectPaths.path(of: $0), controllerInterface($0)) }
                    let entries = (windows + controllers).map { path, table in (Value.objectPath(path), Self.managedInterfaces(table)) }
                    return .values([.dict(keySignature: "o", valueSignature: "a{sa{sv}}", entries)])
                },
            ],
            signals: [
                Signal("InterfacesAdded", args: [Arg("object", "o"), Arg("interfaces", "a{sa{sv}}")]),
                Signal("InterfacesRemoved", args: [Arg("object", "o"), Arg("interfaces", "as")]),
            ])
    }

    /// An object's entry: its interface and every property's value, as GetAll would read them.
    static func managedInterfaces(_ table: Interface) -> Value {
        let properties = Value.stringVariantDict(table.properties.map { ($0.name, $0.get()) })
        return .dict(keySignature: "s", valueSignature: "a{sv}", [(.string(table.name), properties)])
    }

    /// `InterfacesAdded` for a window or controller just created, with its properties.
    func announceAdded(_ path: String, _ table: Interface) {
        emitObjectManagerSignal("InterfacesAdded", [.objectPath(path), Self.managedInterfaces(table)])
    }

    /// `InterfacesRemoved` for a window or controller gone.
    func announceRemoved(_ path: String, _ interface: String) {
        emitObjectManagerSignal("InterfacesRemoved", [.objectPath(path), .array(elementSignature: "s", [.string(interface)])])
    }

    private func emitObjectManagerSignal(_ signal: String, _ values: [Value]) {
        do {
            try connection.objects.emitSignal(path: Orientation1.managerPath, interface: StandardInterface.objectManager,
                                              name: signal, values: values)
        } catch {
            Log.error("cannot emit \(signal): \(error)")
        }
    }
}
