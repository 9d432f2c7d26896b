// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import CDBus

/// A registration made with `Connection.onSignal`, used to remove it again.
public struct SignalSubscription: Hashable, Sendable {
    let id: Int
    package init(id: Int) { self.id = id }
}

extension Connection {
    /// Asks the bus to route matching messages here; wraps `dbus_bus_add_match` (a blocking round trip).
    public func addMatch(_ rule: String) throws(DBusError) {
        var err = CDBus.DBusError()
        dbus_error_init(&err)
        dbus_bus_add_match(raw, rule, &err)
        if dbus_error_is_set(&err) != 0 { throw DBusError(consuming: &err) }
    }

    /// Adds a match rule without waiting for the bus's answer (`dbus_bus_add_match` with no error):
    /// for rules known to be valid. The bus handles messages in order, so the rule is in force
    /// before anything this connection sends afterwards is processed.
    func addMatchWithoutWaiting(_ rule: String) {
        dbus_bus_add_match(raw, rule, nil)
    }

    /// Calls `handler` for every incoming signal (filtered in the connection's one
    /// `dbus_connection_add_filter` filter). Only signals that some match rule routes here arrive.
    @discardableResult
    public func onSignal(_ handler: @escaping (Message) -> Void) -> SignalSubscription {
        let id = nextHandlerID
        nextHandlerID += 1
        signalHandlers.append((id, handler))
        return SignalSubscription(id: id)
    }

    /// Removes a handler added by `onSignal`.
    public func removeSignalHandler(_ subscription: SignalSubscription) {
        signalHandlers.removeAll { $0.id == subscription.id }
    }

    /// Reports names appearing, changing owner and leaving the bus (an empty owner means none),
    /// e.g. so a daemon drops a client's state when it disconnects.
    /// Subscribes to `org.freedesktop.DBus.NameOwnerChanged`.
    @discardableResult
    public func watchNameOwnerChanged(_ handler: @escaping (_ name: String, _ oldOwner: String, _ newOwner: String) -> Void) -> SignalSubscription {
        // A fixed, valid rule: no need to wait a round trip for the bus to accept it.
        addMatchWithoutWaiting(BusDriver.nameOwnerChangedRule())
        return onSignal { message in
            guard let change = BusDriver.nameOwnerChange(in: message) else { return }
            handler(change.name, change.oldOwner, change.newOwner)
        }
    }
}
