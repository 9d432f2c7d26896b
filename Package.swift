// swift-tools-version:6.0
import PackageDescription

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
        .target(name: "Orientation"),
        .target(name: "Policy", dependencies: ["Orientation"]),
        .target(name: "DBus", dependencies: ["CDBus", "CGLib"]),
        .target(name: "Sensors", dependencies: ["Orientation"]),
        .target(name: "Service", dependencies: ["DBus", "Orientation", "Policy", "Sensors", "CGLib"]),
        .executableTarget(name: "orientationd", dependencies: ["Service"]),
        .executableTarget(name: "orientationctl", dependencies: ["DBus", "Orientation", "Service"]),
        .executableTarget(name: "policy-benchmark", dependencies: ["Policy"], path: "Benchmarks/policy-benchmark"),
        .testTarget(name: "OrientationTests", dependencies: ["Orientation"]),
        .testTarget(name: "PolicyTests", dependencies: ["Policy"]),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors"], exclude: ["Traces"]),
        .target(name: "TestSupport", dependencies: ["DBus"], path: "Tests/TestSupport"),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "TestSupport"]),
        .testTarget(name: "ServiceTests", dependencies: ["Service", "DBus", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["DBus", "TestSupport"]),
        .testTarget(name: "IIOTests", dependencies: ["Service", "Sensors", "DBus", "TestSupport"]),
        .testTarget(name: "SensorProxyTests", dependencies: ["Service", "DBus", "TestSupport"]),
        .testTarget(name: "CompatTests", dependencies: ["Service", "DBus", "TestSupport"]),
        .testTarget(name: "ApiFilesTests", dependencies: ["DBus", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
