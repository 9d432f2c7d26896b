// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import TestSupport

/// `make install DESTDIR=…` puts every file where it belongs, with the prefix written into the files
/// that name paths, and `make uninstall` takes them away again.
final class InstallLayoutTests: XCTestCase {
    static let docs = ["README.md", "dbus-api.md", "performance.md", "policy.md", "sensors.md", "shells.md"]

    /// What an install under `/usr` holds, with each file's mode.
    static func expectedFiles(docs: [String]) -> [String: mode_t] {
        var files: [String: mode_t] = [
            "/usr/libexec/orientationd": 0o755,
            "/usr/libexec/orientationd-toplevels": 0o755,
            "/usr/bin/orientationctl": 0o755,
            "/etc/xdg/autostart/orientationd-focus.desktop": 0o644,
            "/etc/orientationd/orientationd.conf": 0o644,
            "/usr/share/dbus-1/system.d/org.orientationd.Orientation1.conf": 0o644,
            "/usr/share/dbus-1/system-services/org.orientationd.Orientation1.service": 0o644,
            "/usr/share/dbus-1/interfaces/org.orientationd.Orientation1.xml": 0o644,
            "/usr/share/dbus-1/interfaces/org.orientationd.Orientation1.Window.xml": 0o644,
            "/usr/share/dbus-1/interfaces/org.orientationd.Orientation1.Controller.xml": 0o644,
            "/usr/share/polkit-1/actions/org.orientationd.Orientation1.policy": 0o644,
            "/usr/lib/systemd/system/orientationd.service": 0o644,
            "/usr/lib/udev/rules.d/80-orientationd.rules": 0o644,
            "/usr/lib/sysusers.d/orientationd.conf": 0o644,
            "/usr/share/man/man8/orientationd.8": 0o644,
            "/usr/share/man/man1/orientationctl.1": 0o644,
            "/usr/share/man/man5/orientationd.conf.5": 0o644,
            "/usr/share/bash-completion/completions/orientationctl": 0o644,
            "/usr/share/zsh/site-functions/_orientationctl": 0o644,
            "/usr/share/fish/vendor_completions.d/orientationctl.fish": 0o644,
            "/usr/share/dbus-1/services/org.orientationd.FocusRelay.service": 0o644,
            "/usr/share/kwin/scripts/orientationd-focus/metadata.json": 0o644,
            "/usr/share/kwin/scripts/orientationd-focus/contents/code/main.js": 0o644,
            "/usr/share/gnome-shell/extensions/orientationd-focus@orientationd.org/metadata.json": 0o644,
            "/usr/share/gnome-shell/extensions/orientationd-focus@orientationd.org/extension.js": 0o644,
            "/usr/share/gnome-shell/extensions/orientationd-focus-45@orientationd.org/metadata.json": 0o644,
            "/usr/share/gnome-shell/extensions/orientationd-focus-45@orientationd.org/extension.js": 0o644,
        ]
        for doc in docs { files["/usr/share/doc/orientationd/" + doc] = 0o644 }
        return files
    }

    func testInstallUnderUsrPutsEveryFileInItsPlace() throws {
        let install = try Installation(prefix: "/usr")
        defer { install.remove() }
        let docs = ["README.md"] + (try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/Docs"))
            .filter { $0.hasSuffix(".md") }
        let expected = Self.expectedFiles(docs: docs)
        XCTAssertEqual(install.files(), expected.keys.sorted())
        for (file, mode) in expected {
            XCTAssertEqual(install.mode(file), mode, "mode of \(file)")
        }

        // The programs are the built ones; the data files are the repository's as they are.
        for (installed, built) in [("/usr/libexec/orientationd", "orientationd"), ("/usr/bin/orientationctl", "orientationctl"),
                                   ("/usr/libexec/orientationd-toplevels", "orientationd-toplevels")] {
            XCTAssertEqual(runTool(["cmp", install.path(installed), programsDirectory() + "/" + built]).status, 0, installed)
        }
        for (installed, source) in [("/etc/orientationd/orientationd.conf", "data/orientationd.conf"),
                                    ("/usr/lib/udev/rules.d/80-orientationd.rules", "data/80-orientationd.rules"),
                                    ("/usr/lib/sysusers.d/orientationd.conf", "data/orientationd.sysusers"),
                                    ("/usr/share/dbus-1/system.d/org.orientationd.Orientation1.conf", "dbus/org.orientationd.Orientation1.conf"),
                                    ("/usr/share/polkit-1/actions/org.orientationd.Orientation1.policy", "dbus/org.orientationd.Orientation1.policy")] {
            XCTAssertEqual(install.text(installed), readText(packageRoot + "/" + source), installed)
        }

        // Under /usr the daemon's built-in paths are right: the command lines name none.
        let unit = keyFileEntries(install.text("/usr/lib/systemd/system/orientationd.service"))
        XCTAssertEqual(unit["Service"]?["ExecStart"], ["/usr/libexec/orientationd --system"])
        let activation = keyFileEntries(install.text("/usr/share/dbus-1/system-services/org.orientationd.Orientation1.service"))
        XCTAssertEqual(activation["D-BUS Service"]?["Exec"], ["/usr/libexec/orientationd --system"])
        XCTAssertEqual(activation["D-BUS Service"]?["SystemdService"], ["orientationd.service"])
        let relay = keyFileEntries(install.text("/usr/share/dbus-1/services/org.orientationd.FocusRelay.service"))
        XCTAssertEqual(relay["D-BUS Service"]?["Name"], ["org.orientationd.FocusRelay"])
        XCTAssertEqual(relay["D-BUS Service"]?["Exec"], ["/usr/bin/orientationctl relay-focus"])
        // The wlroots desktops' reporter starts with every session, Phosh's (Phosh:GNOME) included.
        let autostart = keyFileEntries(install.text("/etc/xdg/autostart/orientationd-focus.desktop"))
        XCTAssertEqual(autostart["Desktop Entry"]?["Exec"],
                       ["/usr/bin/orientationctl report-focus --helper /usr/libexec/orientationd-toplevels"])
        XCTAssertNil(autostart["Desktop Entry"]?["NotShowIn"], "gnome-session runs it under Phosh, whose desktop names GNOME too")
        XCTAssertNil(autostart["Desktop Entry"]?["OnlyShowIn"])
        XCTAssertEqual(install.text("/usr/share/kwin/scripts/orientationd-focus/contents/code/main.js"),
                       readText(packageRoot + "/integrations/kwin/orientationd-focus/contents/code/main.js"))
        // Each GNOME Shell extension is its format's extension.js.in with the reporter and the lock both share written in.
        let reporter = readText(packageRoot + "/integrations/gnome-shell/focus-reporter.js")
        XCTAssertTrue(reporter.contains("class FocusReporter {"), "focus-reporter.js holds the reporter")
        let lock = readText(packageRoot + "/integrations/gnome-shell/rotation-lock.js")
        XCTAssertTrue(lock.contains("class RotationLock {"), "rotation-lock.js holds the lock and the button")
        for uuid in ["orientationd-focus@orientationd.org", "orientationd-focus-45@orientationd.org"] {
            let template = readText(packageRoot + "/integrations/gnome-shell/\(uuid)/extension.js.in")
            XCTAssertTrue(template.contains("\n// @FOCUS_REPORTER@\n"), "\(uuid)/extension.js.in says where the reporter goes")
            XCTAssertTrue(template.contains("\n// @ROTATION_LOCK@\n"), "\(uuid)/extension.js.in says where the lock goes")
            XCTAssertFalse(template.contains("_report()"), "\(uuid)/extension.js.in repeats the reporter")
            XCTAssertEqual(install.text("/usr/share/gnome-shell/extensions/\(uuid)/extension.js"),
                           template.replacingOccurrences(of: "// @FOCUS_REPORTER@\n", with: reporter)
                               .replacingOccurrences(of: "// @ROTATION_LOCK@\n", with: lock), uuid)
        }
        XCTAssertTrue(install.text("/usr/share/man/man8/orientationd.8").hasPrefix(".\\\" Generated by scdoc"),
                      "the manual pages are built from man/*.scd")
    }

    /// Another prefix: the unit and the activation file start the daemon from it, with its config
    /// file and (for the bus) its state directory; no @word@ is left in any installed text.
    func testAnotherPrefixIsWrittenIntoTheCommandLines() throws {
        let install = try Installation(prefix: "/opt/od")
        defer { install.remove() }
        XCTAssertTrue(install.files().contains("/opt/od/libexec/orientationd"))
        XCTAssertTrue(install.files().contains("/opt/od/etc/xdg/autostart/orientationd-focus.desktop"))
        XCTAssertTrue(install.files().contains("/opt/od/etc/orientationd/orientationd.conf"))
        XCTAssertTrue(install.files().allSatisfy { $0.hasPrefix("/opt/od/") }, "\(install.files())")

        let command = "/opt/od/libexec/orientationd --system --config /opt/od/etc/orientationd/orientationd.conf"
        let unit = keyFileEntries(install.text("/opt/od/lib/systemd/system/orientationd.service"))
        XCTAssertEqual(unit["Service"]?["ExecStart"], [command])
        let activation = keyFileEntries(install.text("/opt/od/share/dbus-1/system-services/org.orientationd.Orientation1.service"))
        XCTAssertEqual(activation["D-BUS Service"]?["Exec"], [command + " --state-dir /opt/od/var/lib/orientationd"])

        // The documentation is copied as it is, and may speak of placeholders.
        for file in install.dataFiles() where !file.hasPrefix("/opt/od/share/doc/") {
            let placeholder = install.text(file).firstMatch(of: /@[a-z_]+@/).map { String($0.output) }
            XCTAssertNil(placeholder, "\(file) keeps a placeholder")
        }
    }

    /// Each directory variable moves its files, and DESTDIR is not written into any of them.
    func testDirectoryVariablesMoveTheirFiles() throws {
        let install = try Installation(prefix: "/usr", extra: [
            "LIBEXECDIR=/usr/lib/orientationd", "SYSCONFDIR=/etc/xdg", "UNITDIR=/lib/systemd/system",
            "UDEVRULESDIR=/lib/udev/rules.d", "MANDIR=/usr/man", "DOCDIR=/usr/share/doc/od",
            "ZSHCOMPLETIONDIR=/usr/share/zsh/vendor-completions",
        ])
        defer { install.remove() }
        let files = install.files()
        for file in ["/usr/lib/orientationd/orientationd", "/etc/xdg/orientationd/orientationd.conf",
                     "/lib/systemd/system/orientationd.service", "/lib/udev/rules.d/80-orientationd.rules",
                     "/usr/man/man8/orientationd.8", "/usr/share/doc/od/README.md",
                     "/usr/share/zsh/vendor-completions/_orientationctl"] {
            XCTAssertTrue(files.contains(file), "\(file) missing from \(files)")
        }
        let unit = install.text("/lib/systemd/system/orientationd.service")
        XCTAssertTrue(unit.contains("\nExecStart=/usr/lib/orientationd/orientationd --system --config /etc/xdg/orientationd/orientationd.conf\n"), unit)
        for file in install.dataFiles() {
            XCTAssertFalse(install.text(file).contains(install.root), "\(file) names DESTDIR")
        }
    }

    func testUninstallRemovesEveryFile() throws {
        let install = try Installation(prefix: "/usr")
        defer { install.remove() }
        XCTAssertFalse(install.files().isEmpty)
        let result = install.make("uninstall")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(install.files(), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: install.path("/etc/orientationd")), "its own directories go too")
        XCTAssertFalse(FileManager.default.fileExists(atPath: install.path("/usr/share/doc/orientationd")))
    }

    /// `make install-sensor-proxy`, what the orientationd-sensor-proxy package holds: the vendor drop-in that
    /// turns the compatibility interface on, the name's bus policy and activation file, the unit alias and
    /// monitor-sensor; `make uninstall-sensor-proxy` takes exactly those away.
    func testTheSwitchFromIioSensorProxyInstallsItsFilesAndGoes() throws {
        let install = try Installation(prefix: "/usr")
        defer { install.remove() }
        let before = install.files()
        let result = install.make("install-sensor-proxy")
        XCTAssertEqual(result.status, 0, result.stderr)
        let added = Set(install.files()).subtracting(before).sorted()
        XCTAssertEqual(added, ["/usr/bin/monitor-sensor", "/usr/lib/orientationd/orientationd.conf.d/50-sensor-proxy.conf",
                               "/usr/lib/systemd/system/iio-sensor-proxy.service",
                               "/usr/share/dbus-1/system-services/net.hadess.SensorProxy.service",
                               "/usr/share/dbus-1/system.d/net.hadess.SensorProxy.conf", "/usr/share/man/man1/monitor-sensor.1"])
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: install.path("/usr/lib/systemd/system/iio-sensor-proxy.service")),
                       "orientationd.service", "the unit alias")
        XCTAssertEqual(install.mode("/usr/bin/monitor-sensor"), 0o755)
        if toolExists("groff") {
            let page = runTool(["groff", "-ww", "-z", "-man", install.path("/usr/share/man/man1/monitor-sensor.1")])
            XCTAssertEqual(page.status, 0)
            XCTAssertEqual(page.stderr, "", "monitor-sensor(1) renders without warnings")
        }
        let activation = install.text("/usr/share/dbus-1/system-services/net.hadess.SensorProxy.service")
        XCTAssertTrue(activation.contains("\nName=net.hadess.SensorProxy\nExec=/usr/libexec/orientationd --system\nUser=orientationd\n"
            + "SystemdService=iio-sensor-proxy.service\n"), activation)
        XCTAssertTrue(install.text("/usr/lib/orientationd/orientationd.conf.d/50-sensor-proxy.conf").contains("\n[Compat]\nSensorProxy=true\n"))
        let removed = install.make("uninstall-sensor-proxy")
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(install.files(), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: install.path("/usr/lib/orientationd")), "its drop-in directory goes too")
    }

    /// `make install` compiles nothing: without built programs it stops with one line saying to run make.
    func testInstallWithoutABuildSaysToRunMake() throws {
        let empty = makeTempDirectory("orientationd-nothing-built")
        let root = makeTempDirectory("orientationd-install")
        defer { _ = runTool(["rm", "-rf", empty, root]) }
        let result = runTool(["make", "--no-print-directory", "-C", packageRoot, "install", "PREFIX=/usr", "DESTDIR=\(root)",
                              "PROGRAMS_DIR=\(empty)", "SWIFT=false"], timeoutMs: 60_000)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(result.stderr.split(separator: "\n").first.map(String.init),
                       "make: nothing built in \(empty): run make first, then make install", result.stderr)
        XCTAssertEqual(runTool(["find", root, "-type", "f"]).stdout, "", "nothing installed")
    }

    /// `make` as a user, then `sudo make install` where root has no Swift on PATH: the install runs no
    /// Swift at all (SWIFT names a program that does not exist, and PATH has no toolchain).
    func testInstallRunsNoSwift() throws {
        try buildWaylandHelper()
        let root = makeTempDirectory("orientationd-install")
        defer { _ = runTool(["rm", "-rf", root]) }
        let result = runTool(["env", "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "make", "--no-print-directory", "-C", packageRoot, "install",
                              "PREFIX=/usr", "DESTDIR=\(root)", "PROGRAMS_DIR=\(programsDirectory())", "SWIFT=/nonexistent/swift"],
                             timeoutMs: 120_000)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: root + "/usr/libexec/orientationd"))
    }

    /// The config file belongs to the administrator once edited: install does not overwrite it and
    /// uninstall leaves it.
    func testAnEditedConfigFileIsKept() throws {
        let install = try Installation(prefix: "/usr")
        defer { install.remove() }
        let config = "/etc/orientationd/orientationd.conf"
        let edited = "[Compat]\nSensorProxy=true\n"
        writeText(install.path(config), edited)
        XCTAssertEqual(install.make("install").status, 0)
        XCTAssertEqual(install.text(config), edited, "a second install keeps the edited file")
        let result = install.make("uninstall")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("keeping"), result.stdout)
        XCTAssertEqual(install.files(), [config])
        XCTAssertEqual(install.text(config), edited)
    }
}
