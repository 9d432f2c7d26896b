// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import Orientation
import TestSupport
@testable import Configuration

/// Configuration drop-ins as systemd's daemons read theirs, and the chassis that `Idiom=auto` reads.
final class ConfigDropInTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = makeTempDirectory("orientationd-dropins") }
    override func tearDown() { _ = runTool(["rm", "-rf", directory]) }

    func file(_ path: String, _ text: String) {
        let full = directory + "/" + path
        try? FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        writeText(full, text)
    }

    func parse(_ arguments: [String]) throws -> Settings {
        guard case .run(let settings, _) = try DaemonCommandLine.parse(arguments) else { throw StartupError.configuration("no run") }
        return settings
    }

    /// Sorted by name across the three directories; /etc hides /run and /usr/lib, /run hides /usr/lib; an
    /// empty file or a link to /dev/null masks; only *.conf files count.
    func testDropInsApplyByNameAndTheHigherDirectoryHidesTheLower() throws {
        let usr = directory + "/usr", run = directory + "/run", etc = directory + "/etc"
        file("usr/10-a.conf", "[Sensor]\nPollHz=10\n")
        file("usr/50-b.conf", "[Sensor]\nPollHz=50\n")
        file("usr/60-c.conf", "[Sensor]\nPollHz=60\n")
        file("usr/70-d.conf", "[Sensor]\nPollHz=70\n")
        file("run/50-b.conf", "[Sensor]\nPollHz=51\n")
        file("run/70-d.conf", "[Sensor]\nPollHz=71\n")
        file("etc/50-b.conf", "[Sensor]\nPollHz=52\n")
        file("etc/05-empty.conf", "")
        file("etc/README", "[Sensor]\nPollHz=1\n")
        file("etc/80-e.conf.disabled", "[Sensor]\nPollHz=1\n")
        XCTAssertEqual(symlink("/dev/null", etc + "/60-c.conf"), 0)
        XCTAssertEqual(ConfigFiles.dropIns(in: [usr, run, etc]), [usr + "/10-a.conf", etc + "/50-b.conf", run + "/70-d.conf"])
    }

    /// With --config FILE: FILE, then FILE.d/ in name order; a later key overrides, [Applications] merge;
    /// every key is kept with its file for `orientationctl config`.
    func testAConfigFilesDropInsAddUp() throws {
        let main = directory + "/orientationd.conf"
        file("orientationd.conf", "[Compat]\nSensorProxy=false\n[Sensor]\nPollHz=30\n[Applications]\norg.example.A=portrait\n")
        file("orientationd.conf.d/20-b.conf", "[Applications]\norg.example.B=landscape\n[Sensor]\nPollHz=25\n")
        file("orientationd.conf.d/10-a.conf", "[Compat]\nSensorProxy=true\n[Sensor]\nPollHz=40\n")
        let settings = try parse(["--config", main, "--machine-info", directory + "/none"])
        XCTAssertEqual(settings.configFiles, [main, directory + "/orientationd.conf.d/10-a.conf", directory + "/orientationd.conf.d/20-b.conf"])
        XCTAssertTrue(settings.sensorProxyCompat)
        XCTAssertEqual(settings.pollHz, 25)
        XCTAssertEqual(settings.policy.applications, [ApplicationID(rawValue: "org.example.A")!: .portrait,
                                                      ApplicationID(rawValue: "org.example.B")!: .landscape])
        XCTAssertEqual(settings.configValues.last { $0.key == "PollHz" }?.file, directory + "/orientationd.conf.d/20-b.conf")
    }

    /// The drop-ins of the default directories are not read with --config: tests and other installs
    /// stay apart from the machine's.
    func testWithConfigTheMachinesDirectoriesAreNotRead() {
        XCTAssertEqual(ConfigFiles.directories(forMainFile: "/x/o.conf"), ["/x/o.conf.d"])
        XCTAssertEqual(ConfigFiles.directories(forMainFile: nil), ["/usr/lib/orientationd/orientationd.conf.d",
                                                                   "/run/orientationd/orientationd.conf.d",
                                                                   "/etc/orientationd/orientationd.conf.d"])
    }

    func testABadDropInIsReportedNamingItsFileAndKey() throws {
        let main = directory + "/orientationd.conf"
        file("orientationd.conf", "")
        file("orientationd.conf.d/30-bad.conf", "[Sensor]\nPollHz=0\n")
        XCTAssertThrowsError(try parse(["--config", main])) { error in
            XCTAssertEqual((error as? StartupError)?.message, directory + "/orientationd.conf.d/30-bad.conf: [Sensor] PollHz=0: accepted: 1–200")
            XCTAssertEqual((error as? StartupError)?.exitStatus, 2)
        }
    }

    /// `StillPollHz` takes decimals, so the peer's 700 ms (1.43 Hz) can be asked for; out of range is refused.
    func testStillPollHzTakesDecimals() throws {
        let main = directory + "/orientationd.conf"
        file("orientationd.conf", "[Sensor]\nStillPollHz=1.43\n")
        XCTAssertEqual(try parse(["--config", main]).stillPollHz, 1.43)
        for bad in ["0.05", "201", "nan", "two"] {
            file("orientationd.conf", "[Sensor]\nStillPollHz=\(bad)\n")
            XCTAssertThrowsError(try parse(["--config", main]), bad) { error in
                XCTAssertTrue((error as? StartupError)?.message.hasSuffix("[Sensor] StillPollHz=\(bad): accepted: 0.1–200, decimals too "
                                                                          + "(1.43 is iio-sensor-proxy's 700 ms)") ?? false, "\(error)")
            }
        }
    }

    /// Idiom=auto (the default) takes the chassis; phone or tablet in any file wins; auto in a later
    /// drop-in gives the choice back to the chassis.
    func testTheIdiomIsTheChassisUnlessAFileChoosesIt() throws {
        let main = directory + "/orientationd.conf"
        let handset = directory + "/machine-info"
        file("machine-info", "CHASSIS=handset\n")
        file("orientationd.conf", "[Application]\nIdiom=tablet\n")
        var settings = try parse(["--config", main, "--machine-info", handset])
        XCTAssertEqual(settings.policy.idiom, .tablet)
        XCTAssertEqual(settings.idiomExplanation, "Idiom=tablet in \(main)")
        XCTAssertEqual(settings.idiomSource, "configuration")
        file("orientationd.conf.d/90-auto.conf", "[Application]\nIdiom=auto\n")
        settings = try parse(["--config", main, "--machine-info", handset])
        XCTAssertEqual(settings.policy.idiom, .phone)
        XCTAssertEqual(settings.idiomExplanation, "Idiom=auto, chassis handset from CHASSIS= in \(handset)")
        XCTAssertEqual(settings.idiomSource, "chassis handset (machine-info)")
        file("orientationd.conf.d/90-auto.conf", "[Application]\nIdiom=pocket\n")
        XCTAssertThrowsError(try parse(["--config", main])) { error in
            XCTAssertTrue(((error as? StartupError)?.message ?? "").hasSuffix("90-auto.conf: [Application] Idiom=pocket: accepted: auto (from the chassis), phone, tablet"),
                          "\(error)")
        }
    }

    func testMachineInfoAndFirmwareValuesAreReadAsHostnamedReadsThem() {
        XCTAssertEqual(Chassis.machineInfoChassis("PRETTY_HOSTNAME=x\nCHASSIS=tablet\n"), "tablet")
        XCTAssertEqual(Chassis.machineInfoChassis("CHASSIS=\"convertible\"\n"), "convertible")
        XCTAssertEqual(Chassis.machineInfoChassis("  CHASSIS='handset'  \n"), "handset")
        XCTAssertNil(Chassis.machineInfoChassis("# CHASSIS=handset\n"))
        XCTAssertEqual(Chassis.dmiChassis(30)?.0, "tablet")
        XCTAssertEqual(Chassis.dmiChassis(31)?.0, "convertible")
        XCTAssertEqual(Chassis.dmiChassis(32)?.1, "Detachable")
        XCTAssertEqual(Chassis.dmiChassis(9)?.0, "laptop")
        XCTAssertEqual(Chassis.dmiChassis(11)?.0, "handset")
        XCTAssertNil(Chassis.dmiChassis(2), "Unknown: ACPI is asked next")
        XCTAssertEqual(Chassis.acpiChassis(8), "tablet")
        XCTAssertEqual(Chassis.acpiChassis(2), "laptop")
        XCTAssertNil(Chassis.acpiChassis(0))
        XCTAssertEqual(Chassis(name: "handset", origin: "").idiom, .phone)
        for other in ["tablet", "convertible", "laptop", "desktop", "unknown"] {
            XCTAssertEqual(Chassis(name: other, origin: "").idiom, .tablet, other)
        }
        // A machine-info chassis hostnamed would not accept is passed over.
        var paths = Chassis.Paths()
        file("mi", "CHASSIS=toaster\n")
        paths.machineInfo = directory + "/mi"
        paths.deviceTree = directory + "/none"
        paths.dmi = directory + "/dmi"
        paths.acpi = directory + "/none"
        file("dmi", "31\n")
        XCTAssertEqual(Chassis.detect(paths), Chassis(name: "convertible", origin: "DMI chassis_type 31 (Convertible)", source: "DMI 31"))
    }
}
