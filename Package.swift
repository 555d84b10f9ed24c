// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "scenario-run",
    products: [
        .executable(name: "scenario-run", targets: ["scenario-run"]),
        .library(name: "ObjectManager", targets: ["ObjectManager"]),
        .library(name: "StubServer", targets: ["StubServer"]),
        .library(name: "Scenarios", targets: ["Scenarios"]),
        .library(name: "Steps", targets: ["Steps"]),
        .library(name: "ScenarioTesting", targets: ["ScenarioTesting"]),
        .library(name: "ScenarioRunCLI", targets: ["ScenarioRunCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        // Already AsyncHTTPClient's: named for the trust roots of an https target (SSL_CERT_FILE).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // Exact: YAMLSource imports Yams' `CYaml` module (libyaml) directly (DECISIONS.md 29).
        .package(url: "https://github.com/jpsim/Yams.git", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // Without its default trait (loading external references through Swift Concurrency): a quicker build,
        // and `$ref`s into other files are read by the Contract module itself.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit.git", exact: "6.4.0", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        // `swift package generate-documentation`: the DocC reference of the products (CI builds it).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "Diagnostics", swiftSettings: swiftSettings),
        .target(name: "SharedValues", dependencies: ["Diagnostics"], swiftSettings: swiftSettings),
        .target(
            name: "YAMLSource",
            dependencies: ["Diagnostics", .product(name: "Yams", package: "Yams")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ObjectManager",
            dependencies: [
                "SharedValues", "Diagnostics",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Contract",
            dependencies: [
                "SharedValues", "Diagnostics", "YAMLSource", "StubServer",
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "StubServer",
            dependencies: [
                "SharedValues",
                "Diagnostics",
                "YAMLSource",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Scenarios",
            dependencies: ["SharedValues", "Diagnostics", "YAMLSource"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Steps",
            dependencies: ["ObjectManager", "StubServer", "Scenarios", "Diagnostics", "YAMLSource", "Contract"],
            swiftSettings: swiftSettings
        ),
        .systemLibrary(
            name: "CNCurses",
            // No pkgConfig: ncursesw's flags (-D_XOPEN_SOURCE…) are ones SwiftPM refuses, with a warning in
            // every downstream build; shim.h defines what they would, and the module map links ncursesw.
            providers: [.apt(["libncurses-dev"])]
        ),
        // Swift concurrency's global-enqueue hook reached by the linker (EventLoopExecutor), with or without
        // `--static-swift-stdlib`.
        .systemLibrary(name: "CSwiftHooks"),
        .target(
            name: "TUIRunner",
            dependencies: ["Scenarios", "Diagnostics", "CNCurses"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ExampleApp",
            dependencies: ["ObjectManager", "Scenarios", "Steps"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ScenarioTesting",
            dependencies: ["Scenarios", "Steps", "Diagnostics"],
            swiftSettings: swiftSettings
        ),
        // The run pipeline: executors (this process, worker processes, their in-memory twin), the worker
        // protocol and the worker's own loop, and the run's process concerns (signals, exit, output).
        .target(
            name: "RunPipeline",
            dependencies: ["Scenarios", "Steps", "StubServer", "ObjectManager", "Diagnostics", "SharedValues"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ScenarioRunCLI",
            dependencies: [
                "RunPipeline", "Scenarios", "Steps", "StubServer", "ObjectManager", "TUIRunner", "Diagnostics",
                "Contract", "SharedValues", "CSwiftHooks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "scenario-run",
            dependencies: ["ScenarioRunCLI", "ExampleApp"],
            swiftSettings: swiftSettings
        ),
        // The example app's scenario-run plus steps that crash, exit, raise signals and never return:
        // what the end-to-end tests of fault containment run.
        .executableTarget(
            name: "scenario-run-faults",
            dependencies: ["ScenarioRunCLI", "ExampleApp", "ObjectManager", "Scenarios", "Steps"],
            path: "Tests/FaultApp",
            swiftSettings: swiftSettings
        ),
        // The example app's scenario-run from an asynchronous main.swift: ScenarioRun.main's async form.
        .executableTarget(
            name: "scenario-run-async",
            dependencies: ["ScenarioRunCLI", "ExampleApp"],
            path: "Tests/AsyncMainApp",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "scenario-bench",
            dependencies: [
                "ObjectManager", "StubServer", "Scenarios", "Steps", "ExampleApp", "TUIRunner", "Diagnostics",
                "ScenarioRunCLI", "RunPipeline",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ObjectManagerTests",
            dependencies: [
                "ObjectManager", "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: swiftSettings),
        .testTarget(
            name: "FullStackTests",
            dependencies: [
                "ObjectManager", "StubServer", "ExampleApp", "Scenarios", "Steps", "ScenarioTesting", "Diagnostics",
                "ScenarioRunCLI", "RunPipeline", "TestSupport",
            ],
            // README's `swift test` project: scenario files and fixtures, read at run time.
            exclude: ["ReadmeProject/Scenarios", "ReadmeProject/Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "ObjectManager", "ScenarioRunCLI", "RunPipeline", "Scenarios", "Steps", "Diagnostics", "TestSupport",
                "scenario-run-faults", "scenario-run-async", "CSwiftHooks",
                // A real https server to record from (TestUpstream).
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["HostileCorpus", "TLS"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ContractTests",
            dependencies: ["Contract", "StubServer", "SharedValues", "Diagnostics"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SharedValuesTests",
            dependencies: ["SharedValues", "Diagnostics", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "DiagnosticsTests", dependencies: ["Diagnostics"], swiftSettings: swiftSettings),
        .testTarget(
            name: "ScenariosTests",
            dependencies: [
                "Scenarios", "SharedValues", "Diagnostics", "YAMLSource", "TestSupport",
                .product(name: "Yams", package: "Yams"),
            ],
            exclude: ["Malformed", "Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TUIRunnerTests",
            dependencies: ["TUIRunner", "Scenarios", "Diagnostics", "TestSupport"],
            exclude: ["Snapshots"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StubServerTests",
            dependencies: [
                "StubServer", "Diagnostics", "ObjectManager", "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
