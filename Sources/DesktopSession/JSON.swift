// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// A JSON value: what sway's IPC answers (parsed by `JSON(parsing:)`), and what orientationctl prints.
public indirect enum JSON {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case null
    case array([JSON])
    /// Keys keep their order.
    case object([(String, JSON)])
}
