// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// A 3×3 matrix that turns a sensor's axes into the device's (sensors.md, "Mount matrix"),
/// in the format of the kernel's `mount_matrix` and systemd's hwdb `ACCEL_MOUNT_MATRIX`.
public struct MountMatrix: Equatable, Sendable, CustomStringConvertible {
    /// Rows, each applied to (x, y, z): x' = rows[0] · (x, y, z), and so on.
    public let rows: [[Double]]

    public static let identity = MountMatrix(checked: [[1, 0, 0], [0, 1, 0], [0, 0, 1]])

    private init(checked rows: [[Double]]) { self.rows = rows }

    /// Validates `rows`: three rows of three finite numbers, none all zero.
    public init(rows: [[Double]]) throws(MountMatrixError) {
        guard rows.count == 3, rows.allSatisfy({ $0.count == 3 }) else {
            throw MountMatrixError(message: "a mount matrix has three rows of three numbers")
        }
        guard rows.allSatisfy({ $0.allSatisfy(\.isFinite) }) else {
            throw MountMatrixError(message: "a mount matrix holds finite numbers only")
        }
        if let zero = rows.firstIndex(where: { $0.allSatisfy { $0 == 0 } }) {
            throw MountMatrixError(message: "row \(zero + 1) of the mount matrix is all zero, which would lose an axis")
        }
        self.rows = rows
    }

    /// Parses `a, b, c; d, e, f; g, h, i` (numbers in the C locale, blanks anywhere between them).
    public init(parsing text: String) throws(MountMatrixError) {
        let rowTexts = text.split(separator: ";", omittingEmptySubsequences: false)
        guard rowTexts.count == 3 else {
            throw MountMatrixError(message: "'\(text)' is not 'a, b, c; d, e, f; g, h, i': \(rowTexts.count) rows, not 3")
        }
        var rows: [[Double]] = []
        for (n, rowText) in rowTexts.enumerated() {
            let cells = rowText.split(separator: ",", omittingEmptySubsequences: false)
            let values = cells.compactMap { SysfsNumber.parse($0) }
            guard cells.count == 3, values.count == 3 else {
                throw MountMatrixError(message: "'\(text)' is not 'a, b, c; d, e, f; g, h, i': row \(n + 1) is not three numbers")
            }
            rows.append(values)
        }
        try self.init(rows: rows)
    }

    /// The reading in the device's axes.
    public func apply(x: Double, y: Double, z: Double) -> (x: Double, y: Double, z: Double) {
        let r = rows
        return (r[0][0] * x + r[0][1] * y + r[0][2] * z,
                r[1][0] * x + r[1][1] * y + r[1][2] * z,
                r[2][0] * x + r[2][1] * y + r[2][2] * z)
    }

    /// `a, b, c; d, e, f; g, h, i`.
    public var description: String {
        rows.map { $0.map { $0 == $0.rounded() && abs($0) < 1e15 ? SysfsNumber.decimal(Int($0)) : String($0) }.joined(separator: ", ") }.joined(separator: "; ")
    }
}

/// Why a mount matrix was refused.
public struct MountMatrixError: Error, Sendable, Equatable {
    public let message: String
}
