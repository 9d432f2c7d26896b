// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import OrientationAPI
import Policy

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
                    let objects = policy.firstWindowIDs(count).map(AnnouncedObject.window)
                        + policy.firstControllerIDs(count).map(AnnouncedObject.controller)
                    let entries = objects.map { object in
                        (Value.objectPath(object.path), Value.dict(keySignature: "s", valueSignature: "a{sv}", [
                            (.string(object.interface), .stringVariantDict(tables.properties(of: object))),
                        ]))
                    }
                    return .values([.dict(keySignature: "o", valueSignature: "a{sa{sv}}", entries)])
                },
            ],
            signals: [
                Signal("InterfacesAdded", args: [Arg("object", "o"), Arg("interfaces", "a{sa{sv}}")]),
                Signal("InterfacesRemoved", args: [Arg("object", "o"), Arg("interfaces", "as")]),
            ])
    }

}
