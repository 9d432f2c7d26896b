// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// The interfaces the D-Bus specification gives every object.
public enum StandardInterface {
    public static let peer = "org.freedesktop.DBus.Peer"
    public static let introspectable = "org.freedesktop.DBus.Introspectable"
    public static let properties = "org.freedesktop.DBus.Properties"
    /// Implemented by an object that manages the objects below it (`GetManagedObjects`, `InterfacesAdded`,
    /// `InterfacesRemoved`); not every object has it.
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
}
