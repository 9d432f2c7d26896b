// swift-tools-version:6.0
// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import PackageDescription

/// How the release daemon and orientationctl are linked, for less resident memory and a lighter start
/// (Docs/performance.md). Each line's saving is in its commit; all are measured by Benchmarks/memory and
/// Benchmarks/startup.
let leanLinkFlags = [
    // libdbus linked in: libdbus.so brings libsystemd, and with it libgcrypt, libgpg-error, liblz4,
    // libzstd, liblzma and libcap, none of which a D-Bus client uses. --remap-inputs turns the -ldbus-1
    // of the CDBus module into Linker/libdbus-1-static.ld (libdbus-1.a, from libdbus-1-dev);
    // Sources/SystemdStubs/SystemdSocketStubs.swift answers its two references to libsystemd.
    "-Xlinker", "--remap-inputs=*/libdbus-1.so=\(Context.packageDirectory)/Linker/libdbus-1-static.ld",
    // lld, with relative relocations packed (DT_RELR, glibc 2.36): 4 KB instead of 0.5 MB of .rela.dyn,
    // every byte of which the loader read at start and left resident.
    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
    // libstdc++ and libgcc linked in: only the few objects the Swift runtime uses, instead of two shared
    // libraries, their relocations and symbol lookups. Linker/libstdc++.so is a linker script that points
    // the runtime's -lstdc++ at the archive.
    "-L\(Context.packageDirectory)/Linker", "-Xclang-linker", "-static-libgcc",
    // Nothing loads this program as a library: its symbols need no dynamic table (the toolchain's
    // static-stdlib arguments export them all), which the loader would read at start.
    "-Xlinker", "--no-export-dynamic",
    // Segments aligned to 64 KB, so the loader places the program at a 64 KB boundary and those
    // windows fall on the same code at every start; at 4 KB alignment where they fall moved with the
    // random base, and the code kept resident with them, by up to 300 KB from one start to the next.
    // The base keeps 24 random bits of the 28 the kernel gives (mmap_rnd_bits).
    "-Xlinker", "-z", "-Xlinker", "max-page-size=65536",
]

/// The daemon adds the order of its functions.
let daemonLinkFlags = leanLinkFlags + [
    // The functions the daemon runs, placed together: the kernel maps a program in 64 KB windows
    // around each page touched, so one function alone in a window keeps 64 KB resident.
    // Linker/orientationd.order is written by Benchmarks/memory/symbol-order.py from the code being
    // built; lld warns of a listed name the code no longer has, and scripts/check-symbol-order fails
    // the release build then (make release, make programs).
    "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Linker/orientationd.order",
]

/// How the daemon's modules are compiled in release: each function in a section of its own, so the
/// order above can place the functions that run together one by one, not a whole source file's
/// (Swift puts a file's code in one section otherwise, and the linker moves sections, not functions).
let daemonModuleSettings: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))]

let package = Package(
    name: "orientationd",
    products: [
        .library(name: "Orientation", targets: ["Orientation"]),
        .library(name: "Policy", targets: ["Policy"]),
    ],
    targets: [
        .systemLibrary(name: "CDBus", path: "Sources/CDBus", pkgConfig: "dbus-1",
                       providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CGLib", path: "Sources/CGLib", pkgConfig: "glib-2.0",
                       providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CSystemCalls", path: "Sources/CSystemCalls"),
        // The page-out given as the main loop sleeps (ProgramPages); its calls to the C library go
        // through the GOT, not the program's PLT, which lies in the code it pages out. Its debug
        // information in DWARF 4, as the Swift modules', which valgrind (callgrind, symbol-order.py) reads.
        .target(name: "CPageOut", cSettings: [.unsafeFlags(["-fno-plt", "-gdwarf-4"])]),
        .target(name: "SystemCalls", dependencies: ["CSystemCalls", "CPageOut"], swiftSettings: daemonModuleSettings),
        .target(name: "EventLoop", dependencies: ["CGLib"], swiftSettings: daemonModuleSettings),
        .target(name: "DBus", dependencies: ["CDBus", "CGLib", "EventLoop", "Log"], swiftSettings: daemonModuleSettings),
        .target(name: "Arguments", swiftSettings: daemonModuleSettings),
        .target(name: "Log", dependencies: ["SystemCalls"], swiftSettings: daemonModuleSettings),
        .target(name: "Orientation", swiftSettings: daemonModuleSettings),
        .target(name: "OrientationAPI", swiftSettings: daemonModuleSettings),
        .target(name: "Policy", dependencies: ["Orientation"], swiftSettings: daemonModuleSettings),
        .target(name: "Sensors", dependencies: ["Orientation"], swiftSettings: daemonModuleSettings),
        // orientationctl calibrate's measurements: not linked into the daemon.
        .target(name: "Calibration", dependencies: ["Sensors"]),
        .target(name: "SensorSources", dependencies: ["Sensors", "Orientation", "EventLoop", "DBus", "OrientationAPI", "CGLib", "Log",
                                                       "SystemCalls"], swiftSettings: daemonModuleSettings),
        .target(name: "Configuration", dependencies: ["Arguments", "DBus", "Orientation", "OrientationAPI", "Policy", "Sensors",
                                                      "CGLib", "Log", "SystemCalls"], swiftSettings: daemonModuleSettings),
        .target(name: "State", dependencies: ["Configuration", "EventLoop", "Orientation", "CGLib", "Log", "SystemCalls"],
                swiftSettings: daemonModuleSettings),
        .target(name: "Authorization", dependencies: ["DBus", "EventLoop", "OrientationAPI", "Policy", "Log"],
                swiftSettings: daemonModuleSettings),
        .target(name: "Applications", dependencies: ["Configuration", "EventLoop", "Orientation", "Log", "SystemCalls"],
                swiftSettings: daemonModuleSettings),
        .target(name: "Compat", dependencies: ["DBus", "EventLoop", "Orientation", "OrientationAPI", "Policy", "Sensors",
                                               "SensorSources", "Log"], swiftSettings: daemonModuleSettings),
        .target(name: "Service", dependencies: ["DBus", "EventLoop", "Orientation", "OrientationAPI", "Policy", "Sensors",
                                                "SensorSources", "Configuration", "State", "Authorization", "Applications",
                                                "Compat", "Arguments", "CGLib", "Log", "SystemCalls"], swiftSettings: daemonModuleSettings),
        // What libdbus, linked in by the release builds, asks of libsystemd.
        .target(name: "SystemdStubs", swiftSettings: [.define("STATIC_LIBDBUS", .when(configuration: .release))]),
        .executableTarget(name: "orientationd", dependencies: ["Service", "EventLoop", "Log", "SystemdStubs"],
                          swiftSettings: daemonModuleSettings,
                          linkerSettings: [.unsafeFlags(daemonLinkFlags, .when(configuration: .release))]),
        .target(name: "DesktopSession", dependencies: ["DBus", "EventLoop", "Orientation", "OrientationAPI", "CGLib", "SystemCalls", "Applications"]),
        .executableTarget(name: "orientationctl", dependencies: ["Arguments", "DBus", "EventLoop", "DesktopSession", "Orientation", "OrientationAPI",
                                                                 "CGLib", "SystemCalls", "Configuration", "Calibration", "SensorSources", "Sensors",
                                                                 "SystemdStubs"],
                          linkerSettings: [.unsafeFlags(leanLinkFlags, .when(configuration: .release))]),
        .executableTarget(name: "monitor-sensor", dependencies: ["DBus", "EventLoop", "OrientationAPI", "SystemCalls"]),
        .executableTarget(name: "policy-benchmark", dependencies: ["Policy"], path: "Benchmarks/policy-benchmark"),
        .executableTarget(name: "adversarial-benchmark", dependencies: ["DBus", "EventLoop", "OrientationAPI", "Harness"],
                          path: "Benchmarks/adversarial", exclude: ["run.sh"]),
        .testTarget(name: "ArgumentsTests", dependencies: ["Arguments"]),
        .testTarget(name: "LogTests", dependencies: ["Log"]),
        .testTarget(name: "DesktopSessionTests", dependencies: ["DesktopSession", "Orientation", "DBus"]),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop"]),
        .testTarget(name: "OrientationTests", dependencies: ["Orientation"]),
        .testTarget(name: "OrientationAPITests", dependencies: ["OrientationAPI"]),
        .testTarget(name: "PolicyTests", dependencies: ["Policy", "TestSupport"]),
        .testTarget(name: "ServiceUnitTests", dependencies: ["Service", "Configuration", "State", "Authorization", "Applications",
                                                           "Compat", "Policy", "DBus", "Orientation", "OrientationAPI", "TestSupport"]),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors"]),
        .testTarget(name: "CalibrationTests", dependencies: ["Calibration", "Sensors"]),
        .testTarget(name: "SceneTests", dependencies: ["Sensors", "SensorSources", "Policy", "Orientation"]),
        .testTarget(name: "SensorSourcesTests", dependencies: ["SensorSources", "Sensors", "SystemCalls", "TestSupport"]),
        .target(name: "Harness", dependencies: ["DBus", "EventLoop", "OrientationAPI", "SystemCalls"], path: "Harness", exclude: ["private-bus.conf", "python-imports.py"]),
        .target(name: "TestSupport", dependencies: ["Harness", "DBus", "OrientationAPI"], path: "Tests/TestSupport"),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "EventLoop", "TestSupport"]),
        .testTarget(name: "ServiceTests", dependencies: ["DBus", "OrientationAPI", "Service", "Configuration", "SystemCalls", "TestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "CLITests", dependencies: ["DBus", "OrientationAPI", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "IIOTests", dependencies: ["DBus", "OrientationAPI", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "SensorProxyTests", dependencies: ["SensorSources", "DBus", "EventLoop", "Orientation", "OrientationAPI",
                                                             "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "CompatTests", dependencies: ["DBus", "OrientationAPI", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "ApiFilesTests", dependencies: ["DBus", "OrientationAPI", "SystemCalls", "TestSupport"]),
        .testTarget(name: "InstallTests", dependencies: ["Service", "Configuration", "Orientation", "OrientationAPI", "DBus", "EventLoop", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
