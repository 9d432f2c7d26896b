// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// The message bus itself (`org.freedesktop.DBus`), which owns the names and routes the messages:
/// its names, spelled here once, its `NameOwnerChanged` signal, and calls to it.
public enum BusDriver {
    public static let name = "org.freedesktop.DBus"
    public static let path = "/org/freedesktop/DBus"
    public static let interface = "org.freedesktop.DBus"

    /// The match rule for the driver's `NameOwnerChanged`: about every name, or about `name` only (arg0).
    public static func nameOwnerChangedRule(for name: String? = nil) -> String {
        "type='signal',sender='\(self.name)',interface='\(interface)',member='NameOwnerChanged',path='\(path)'"
            + (name.map { ",arg0='\($0)'" } ?? "")
    }

    /// The name and its old and new owners (empty for none) that a `NameOwnerChanged` from the
    /// driver carries; nil for any other message.
    public static func nameOwnerChange(in message: Message) -> (name: String, oldOwner: String, newOwner: String)? {
        guard message.type == .signal, message.interface == interface, message.member == "NameOwnerChanged",
              message.sender == name, message.signature == "sss", let args = try? message.arguments(),
              let changed = args[0].stringValue, let old = args[1].stringValue, let new = args[2].stringValue
        else { return nil }
        return (changed, old, new)
    }
}

