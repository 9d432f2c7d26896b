// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// `org.freedesktop.DBus.Properties.PropertiesChanged`: read from a received signal, or built
/// to be sent (`ObjectServer.emitPropertiesChanged` is the one place that sends it).
public struct PropertiesChanged {
    /// The interface whose properties changed.
    public var interface: String
    /// The new values, variants unwrapped, in the order they were sent.
    public var changed: [(String, Value)]
    /// The properties that changed without their value being sent.
    public var invalidated: [String]

    public init(interface: String, changed: [(String, Value)], invalidated: [String] = []) {
        self.interface = interface
        self.changed = changed
        self.invalidated = invalidated
    }

    /// What `message` announces; nil for any other message or a malformed one.
    public init?(_ message: Message) {
        guard message.type == .signal, message.interface == StandardInterface.properties,
              message.member == "PropertiesChanged", message.signature == "sa{sv}as",
              let args = try? message.arguments(), let interface = args[0].stringValue,
              let changed = args[1].stringKeyedEntries, let invalidated = args[2].arrayValues
        else { return nil }
        self.init(interface: interface, changed: changed, invalidated: invalidated.compactMap(\.stringValue))
    }

    /// The signal from the object at `path`, to `destination` only when given.
    func message(path: String, destination: String? = nil) throws(DBusError) -> Message {
        let m = try Message.signal(path: path, interface: StandardInterface.properties, name: "PropertiesChanged")
        if let destination { try m.address(to: destination) }
        try m.append([.string(interface), .stringVariantDict(changed), .array(elementSignature: "s", invalidated.map(Value.string))])
        return m
    }
}
