import XCTest
import Orientation
@testable import Service
import TestSupport
@testable import Configuration

/// A config value that is not UTF-8 is told, never taken for a missing key: GKeyFile reads such a
/// value as absent, which would start the daemon from the default without a word. A bad value is
/// quoted short.
final class ConfigTextTests: XCTestCase {
    func apply(_ bytes: [UInt8]) throws(StartupError) -> (Settings, [String]) {
        let dir = makeTempDirectory("orientationd-config")
        defer { _ = runTool(["rm", "-rf", dir]) }
        let path = dir + "/orientationd.conf"
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        var settings = Settings()
        let warnings = try ConfigFile.apply(path: path, optional: false, to: &settings)
        return (settings, warnings)
    }

    func testAValueThatIsNotUTF8StopsTheStartNamingIt() {
        XCTAssertThrowsError(try apply(Array("[Application]\nIdiom=".utf8) + [0xff, 0x0a])) { error in
            let message = (error as? StartupError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("[Application] Idiom: the value is not UTF-8 text"), message)
        }
    }

    func testAnApplicationsValueThatIsNotUTF8IsAWarning() throws {
        let (settings, warnings) = try apply(Array("[Applications]\norg.example.Bad=".utf8) + [0xfe, 0x0a]
                                             + Array("org.example.Good=portrait\n".utf8))
        XCTAssertEqual(settings.policy.applications, [ApplicationID(rawValue: "org.example.Good")!: .portrait])
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings[0].contains("org.example.Bad: the value is not UTF-8 text, ignored"), "\(warnings)")
    }

    func testALongValueIsQuotedShort() {
        XCTAssertThrowsError(try apply(Array(("[Application]\nIdiom=" + String(repeating: "x", count: 100_000) + "\n").utf8))) { error in
            let message = (error as? StartupError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("Idiom=" + String(repeating: "x", count: 80) + "… (100000 bytes): "), message)
            XCTAssertLessThan(message.count, 400, message)
        }
    }
}
