// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "LibraryLoans",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "library-loans", targets: ["library-loans"]),
        .library(name: "LibraryLoans", targets: ["LibraryLoans"]),
    ],
    dependencies: [
        .package(name: "scenario-run", path: "../..")
    ],
    targets: [
        .target(
            name: "LibraryLoans",
            dependencies: [
                .product(name: "ObjectManager", package: "scenario-run"),
                .product(name: "Scenarios", package: "scenario-run"),
                .product(name: "Steps", package: "scenario-run"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "library-loans",
            dependencies: [
                "LibraryLoans",
                .product(name: "ScenarioRunCLI", package: "scenario-run"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LibraryLoansTests",
            dependencies: [
                "LibraryLoans",
                .product(name: "Scenarios", package: "scenario-run"),
                .product(name: "ScenarioTesting", package: "scenario-run"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
