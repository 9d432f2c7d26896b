// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// One device event as the kernel (`ACTION@DEVPATH\0KEY=VALUE\0…`) or udev's monitor
/// (a `libudev\0` header with magic 0xfeedcafe, then `KEY=VALUE\0…`) sends it on a netlink socket.
public struct Uevent: Equatable, Sendable {
    public var properties: [String: String]

    public var action: String? { properties["ACTION"] }
    public var devpath: String? { properties["DEVPATH"] }
    public var subsystem: String? { properties["SUBSYSTEM"] }
    /// The device's name in its bus, the last part of DEVPATH (`iio:device0`).
    public var sysname: String? { devpath?.split(separator: "/").last.map(String.init) }

    public init(properties: [String: String]) { self.properties = properties }

    /// Parses one datagram in either format; nil for anything else.
    public init?(datagram bytes: [UInt8]) {
        let magic: [UInt8] = [0xfe, 0xed, 0xca, 0xfe]
        var body: ArraySlice<UInt8>
        if bytes.count >= 24, bytes[0..<8].elementsEqual("libudev\0".utf8), bytes[8..<12].elementsEqual(magic) {
            // header_size, properties_off and properties_len are in the sender's byte order, which is ours.
            func word(_ at: Int) -> Int {
                Int(UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24)
            }
            let offset = word(16), length = word(20)
            guard offset >= 24, length > 0, offset <= bytes.count, length <= bytes.count - offset else { return nil }
            body = bytes[offset..<(offset + length)]
        } else {
            guard let nul = bytes.firstIndex(of: 0), bytes[..<nul].contains(UInt8(ascii: "@")) else { return nil }
            body = bytes[(nul + 1)...]
        }
        var properties: [String: String] = [:]
        for field in body.split(separator: 0) {
            guard let equals = field.firstIndex(of: UInt8(ascii: "=")) else { continue }
            properties[String(decoding: field[..<equals], as: UTF8.self)] = String(decoding: field[(equals + 1)...], as: UTF8.self)
        }
        guard properties["ACTION"] != nil, properties["DEVPATH"] != nil else { return nil }
        self.properties = properties
    }
}
