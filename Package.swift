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
        .target(name: "EventLoop", dependencies: ["CGLib"]),
        .target(name: "DBus", dependencies: ["CDBus", "CGLib", "EventLoop"]),
        .target(name: "Orientation"),
        .target(name: "OrientationAPI"),
        .target(name: "Policy", dependencies: ["Orientation"]),
        .target(name: "Sensors", dependencies: ["Orientation"]),
        .target(name: "SensorSources", dependencies: ["Sensors", "Orientation", "EventLoop", "DBus", "OrientationAPI", "CGLib"]),
        .target(name: "Service", dependencies: ["DBus", "EventLoop", "Orientation", "OrientationAPI", "Policy", "Sensors",
                                                "SensorSources", "CGLib"]),
        .executableTarget(name: "orientationd", dependencies: ["Service", "EventLoop"]),
        .executableTarget(name: "orientationctl", dependencies: ["DBus", "EventLoop", "Orientation", "OrientationAPI", "CGLib"]),
        .executableTarget(name: "policy-benchmark", dependencies: ["Policy"], path: "Benchmarks/policy-benchmark"),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop"]),
        .testTarget(name: "OrientationTests", dependencies: ["Orientation"]),
        .testTarget(name: "OrientationAPITests", dependencies: ["OrientationAPI"]),
        .testTarget(name: "PolicyTests", dependencies: ["Policy"]),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors"], exclude: ["Traces"]),
        .target(name: "TestSupport", dependencies: ["DBus", "EventLoop", "OrientationAPI"], path: "Tests/TestSupport"),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "EventLoop", "TestSupport"]),
        .testTarget(name: "ServiceTests", dependencies: ["DBus", "OrientationAPI", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["DBus", "OrientationAPI", "TestSupport"]),
        .testTarget(name: "IIOTests", dependencies: ["DBus", "OrientationAPI", "TestSupport"]),
        .testTarget(name: "SensorProxyTests", dependencies: ["SensorSources", "DBus", "EventLoop", "Orientation", "OrientationAPI",
                                                             "TestSupport"]),
        .testTarget(name: "CompatTests", dependencies: ["DBus", "OrientationAPI", "TestSupport"]),
        .testTarget(name: "ApiFilesTests", dependencies: ["DBus", "OrientationAPI", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
