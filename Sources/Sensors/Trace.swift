// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// A recorded accelerometer trace: CSV lines `t_ms,x,y,z`, `#` comments and blank lines ignored.
public struct Trace: Sendable {
    public let samples: [Sample]

    /// Parses `text`; throws a message naming the first bad line.
    public init(parsing text: String) throws(TraceError) {
        var samples: [Sample] = []
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = content.split(separator: ",", omittingEmptySubsequences: false)
                .map { String($0).filter { $0 != " " && $0 != "\t" && $0 != "\r" } }
            if fields.allSatisfy(\.isEmpty) { continue }
            let values = fields.compactMap(Double.init)
            guard fields.count == 4, values.count == 4, values.allSatisfy(\.isFinite) else {
                throw TraceError(message: "line \(number): '\(line)' is not 't_ms,x,y,z' with four finite numbers")
            }
            if let last = samples.last, values[0] < last.t {
                throw TraceError(message: "line \(number): time \(values[0]) ms goes back from \(last.t) ms")
            }
            samples.append(Sample(t: values[0], x: values[1], y: values[2], z: values[3]))
        }
        self.samples = samples
    }
}

/// Why a trace could not be read.
public struct TraceError: Error, Sendable {
    public let message: String
}
