// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import Orientation
@testable import Service
import TestSupport
@testable import Applications

/// Desktop files as applications ship them: found in the data directories in order, read once,
/// read again when they change, and passed over when they are no desktop file or too large.
final class DesktopFileDeclarationsTests: XCTestCase {
    var root: String!

    override func setUp() {
        root = makeTempDirectory("orientationd-apps")
        for dir in ["first", "second"] { _ = runTool(["mkdir", "-p", "\(root!)/\(dir)/applications"]) }
    }

    override func tearDown() { _ = runTool(["rm", "-rf", root]) }

    func id(_ text: String) -> ApplicationID { ApplicationID(rawValue: text)! }

    func write(_ dir: String, _ app: String, _ body: String) {
        writeText("\(root!)/\(dir)/applications/\(app).desktop", "[Desktop Entry]\nType=Application\nName=\(app)\n" + body)
    }

    func testTheFirstDirectoryHoldingTheFileDecidesAndOrientationdsKeyComesFirst() {
        let d = DesktopFileDeclarations(directories: [root + "/first", root + "/second"])
        write("second", "org.example.Video", "X-Orientationd-SupportedOrientations=landscape;\n")
        XCTAssertEqual(d.mask(for: id("org.example.Video")), .landscape)
        write("first", "org.example.Video", "X-Ubuntu-Supported-Orientations=portrait\nX-Orientationd-SupportedOrientations=landscape-left;\n")
        XCTAssertEqual(d.mask(for: id("org.example.Video")), .landscapeLeft, "the first directory's file, orientationd's key first")
        write("first", "org.example.Phone", "X-Ubuntu-Supported-Orientations=portrait,invertedPortrait\n")
        XCTAssertEqual(d.mask(for: id("org.example.Phone")), [.portrait, .portraitUpsideDown])
        XCTAssertNil(d.mask(for: id("org.example.Missing")))
        write("first", "org.example.Plain", "")
        XCTAssertNil(d.mask(for: id("org.example.Plain")), "a file that declares nothing")
    }

    func testAFileIsReadAgainOnlyWhenItChanges() {
        let d = DesktopFileDeclarations(directories: [root + "/first"])
        write("first", "app", "X-Orientationd-SupportedOrientations=portrait;\n")
        XCTAssertEqual(d.mask(for: id("app")), .portrait)
        let path = root + "/first/applications/app.desktop"
        // Same size and time: the cached answer, even though the text differs.
        let before = statTimes(path)
        writeText(path, "[Desktop Entry]\nType=Application\nName=app\nX-Orientationd-SupportedOrientations=all;;;;;;\n")
        setTimes(path, before)
        XCTAssertEqual(d.mask(for: id("app")), .portrait, "not read again while unchanged")
        // A new modification time: read again.
        setTimes(path, (before.0 + 10, before.1))
        XCTAssertEqual(d.mask(for: id("app")), .all)
    }

    func testAnInvalidValueFallsToLomirisKeyAndABadFileIsPassedOver() {
        let d = DesktopFileDeclarations(directories: [root + "/first", root + "/second"])
        write("first", "app", "X-Orientationd-SupportedOrientations=sideways;\nX-Ubuntu-Supported-Orientations=landscape\n")
        XCTAssertEqual(d.mask(for: id("app")), .landscapeLeft)
        writeText(root + "/first/applications/broken.desktop", "this is not a key file\n[")
        write("second", "broken", "X-Orientationd-SupportedOrientations=portrait;\n")
        XCTAssertEqual(d.mask(for: id("broken")), .portrait, "a file that is no desktop file is passed over for the next one")
        writeText(root + "/first/applications/huge.desktop",
                  "[Desktop Entry]\nX-Orientationd-SupportedOrientations=portrait;\n" + String(repeating: "#\n", count: 40_000))
        write("second", "huge", "X-Orientationd-SupportedOrientations=landscape;\n")
        XCTAssertEqual(d.mask(for: id("huge")), .landscape, "a file over 64 KiB is passed over for the next one")
        _ = runTool(["mkdir", "-p", root + "/first/applications/dir.desktop"])
        write("second", "dir", "X-Orientationd-SupportedOrientations=portrait;\n")
        XCTAssertEqual(d.mask(for: id("dir")), .portrait, "a directory is no file")
    }

    func testTheCacheIsBounded() {
        let d = DesktopFileDeclarations(directories: [root + "/first"], limit: 2)
        for n in 0..<5 { write("first", "app\(n)", "X-Orientationd-SupportedOrientations=portrait;\n") }
        for n in 0..<5 { XCTAssertEqual(d.mask(for: id("app\(n)")), .portrait) }
        XCTAssertEqual(d.cache.count, 2, "the least recently asked are forgotten")
        XCTAssertEqual(d.mask(for: id("app0")), .portrait, "a forgotten one is read again")
    }

    func testDefaultDirectories() {
        XCTAssertEqual(DesktopFileDeclarations.defaultDirectories(xdgDataDirs: nil),
                       ["/usr/local/share", "/usr/share", "/var/lib/flatpak/exports/share"])
        XCTAssertEqual(DesktopFileDeclarations.defaultDirectories(xdgDataDirs: "/opt/share:relative:/usr/share"),
                       ["/opt/share", "/usr/share", "/var/lib/flatpak/exports/share"])
    }

    private func statTimes(_ path: String) -> (Int, Int) {
        var info = stat()
        _ = stat(path, &info)
        return (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
    }

    private func setTimes(_ path: String, _ time: (Int, Int)) {
        var times = [timespec(tv_sec: time.0, tv_nsec: time.1), timespec(tv_sec: time.0, tv_nsec: time.1)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }
}
