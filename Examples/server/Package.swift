// swift-tools-version: 6.0
// A small notes service on Depot, Hummingbird 2 and SQLite: its own package, so that Depot's
// root package depends on nothing but swift-atomics.
import PackageDescription

let package = Package(
    name: "depot-server-example",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Depot", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(
            url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "NotesServer",
            dependencies: [
                .product(name: "Depot", package: "Depot"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Two modules that each add their routes by contributing them to the core's
        // `routeGroups`: the core lists neither.
        .target(
            name: "NotesRoutes",
            dependencies: [
                "NotesServer", .product(name: "Depot", package: "Depot"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .target(
            name: "StatsRoutes",
            dependencies: [
                "NotesServer", .product(name: "Depot", package: "Depot"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        // A module that wraps the core's notes store in a decorator that times each call.
        .target(
            name: "StoreTiming",
            dependencies: ["NotesServer", .product(name: "Depot", package: "Depot")]
        ),
        .executableTarget(
            name: "notes-server",
            dependencies: [
                "NotesServer", "NotesRoutes", "StatsRoutes", "StoreTiming",
                .product(name: "Depot", package: "Depot"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "NotesServerTests",
            dependencies: [
                "NotesServer", "NotesRoutes", "StatsRoutes", "StoreTiming",
                .product(name: "Depot", package: "Depot"),
                .product(name: "DepotTesting", package: "Depot"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ]
)
