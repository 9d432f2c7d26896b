// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// A client's user: the uid behind its bus connection, for the per-user limits.
public typealias UserID = UInt32

/// What one client owns, so that its departure removes exactly its objects and the limits
/// are counted without a scan of every object.
struct ClientHoldings {
    /// The uid the client connected as; fixed for the connection's life.
    let user: UserID
    var windows: Set<WindowID> = []
    var controllers: Set<ControllerID> = []
}

/// How many objects the clients of one user own together.
struct UserCounts {
    var windows = 0
    var controllers = 0
}
