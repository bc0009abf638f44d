// swift-tools-version: 6.1
import PackageDescription

/// Warnings are errors everywhere: CI and developers build the same way.
let strict: [SwiftSetting] = [
    .unsafeFlags(["-warnings-as-errors"])
]

let package = Package(
    name: "switchboard",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "switchboard", targets: ["switchboard"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
    ],
    targets: [
        // Pure core: contact-center models, decoders, the floor reducer. No I/O.
        .target(
            name: "ContactCenter",
            swiftSettings: strict
        ),
        // Pure core: holiday calendar, operating hours, flows/ and their evaluator. No I/O.
        .target(
            name: "OperatingHours",
            dependencies: [.product(name: "Yams", package: "Yams")],
            swiftSettings: strict
        ),
        // librdkafka's C API (Debian: librdkafka-dev).
        .systemLibrary(
            name: "CRdKafka",
            pkgConfig: "rdkafka",
            providers: [.apt(["librdkafka-dev"])]
        ),
        // zlib (Debian: zlib1g-dev), for gzip-compressed CTR exports in `switchboard import`.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Our librdkafka binding: producer, consumer, embedded mock cluster.
        .target(
            name: "Kafka",
            dependencies: [
                "CRdKafka",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // PostgreSQL through postgres-nio: migrations, writers, offsets, dead letters, views.
        .target(
            name: "Storage",
            dependencies: [
                "ContactCenter",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: strict
        ),
        // HTTP: hook routes, console streams and page, health, readiness, metrics.
        .target(
            name: "Server",
            dependencies: [
                "ContactCenter",
                "OperatingHours",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Resources")],
            swiftSettings: strict
        ),
        // The command line: wires the adapters together.
        .executableTarget(
            name: "switchboard",
            dependencies: [
                "CZlib",
                "ContactCenter",
                "OperatingHours",
                "Kafka",
                "Storage",
                "Server",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "ContactCenterTests", dependencies: ["ContactCenter"], swiftSettings: strict),
        .testTarget(name: "OperatingHoursTests", dependencies: ["OperatingHours"], swiftSettings: strict),
        .testTarget(
            name: "KafkaTests",
            dependencies: [
                "Kafka",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "StorageTests",
            dependencies: [
                "Storage", "ContactCenter", "Kafka",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strict
        ),
        // End to end through the executable's wiring (`@testable import switchboard`).
        .testTarget(
            name: "SwitchboardTests",
            dependencies: [
                "switchboard", "Server", "Kafka", "ContactCenter",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "Server", "OperatingHours", "ContactCenter",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
