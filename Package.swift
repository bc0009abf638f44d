// swift-tools-version: 6.1
import PackageDescription

/// Warnings are errors everywhere: CI and developers build the same way.
let strict: [SwiftSetting] = [
    .unsafeFlags(["-warnings-as-errors"])
]

/// jemalloc in place of glibc's malloc, for the production binary and the benchmarks that measure
/// it: the ingest worker spends a ninth less CPU per row on it (docs/ingest.md, Memory).
let jemalloc: [LinkerSetting] = [.linkedLibrary("jemalloc", .when(platforms: [.linux]))]

let package = Package(
    name: "switchboard",
    platforms: [.macOS(.v15)],
    products: [
        // The production binary: every role and its operator tools. Nothing else goes into the image.
        .executable(name: "switchboard", targets: ["switchboard"]),
        // Benchmarks, load generators and the console demo (`make bench-*`, the browser test).
        .executable(name: "switchboard-bench", targets: ["SwitchboardBench"]),
    ],
    // Exact versions: what `make test` builds is what the image builds. Package.resolved is not
    // committed (these machines' package mirrors have other commit ids than GitHub's); the whole
    // resolved graph, transitive packages included, is deploy/package-versions.txt, which
    // scripts/validate-deploy.sh and the image build check against the resolution.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", exact: "2.37.6"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", exact: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", exact: "1.35.2"),
        .package(url: "https://github.com/jpsim/Yams.git", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", exact: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", exact: "5.7.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
    ],
    targets: [
        // Pure building blocks both cores share: the JSON writer and readers, the civil-date
        // algorithm, bounded backoff and deadlines, the gzip inflater (over zlib). No I/O.
        .target(
            name: "Primitives",
            dependencies: ["CZlib"],
            swiftSettings: strict
        ),
        // Pure core: contact-center models, decoders, the floor reducer, the traffic simulation. No I/O.
        .target(
            name: "ContactCenter",
            dependencies: ["Primitives"],
            swiftSettings: strict
        ),
        // Pure core: holiday calendar, operating hours, flows/ and their evaluator, the hook's call and
        // answer. No I/O.
        .target(
            name: "OperatingHours",
            dependencies: ["Primitives", .product(name: "Yams", package: "Yams")],
            swiftSettings: strict
        ),
        // librdkafka's C API (Debian: librdkafka-dev).
        .systemLibrary(
            name: "CRdKafka",
            pkgConfig: "rdkafka",
            providers: [.apt(["librdkafka-dev"])]
        ),
        // zlib (Debian: zlib1g-dev): Primitives' gzip inflater (CTR exports in `switchboard import`,
        // gzip request bodies of the Firehose receiver).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Adapter: our librdkafka binding: producer, consumer, embedded mock cluster.
        .target(
            name: "Kafka",
            dependencies: [
                "CRdKafka",
                "Primitives",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // Adapter: PostgreSQL through postgres-nio: migrations, writers, offsets, dead letters, views.
        .target(
            name: "Storage",
            dependencies: [
                "ContactCenter",
                "Primitives",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            // One SQL file per migration (Sources/Storage/Migrations/NNNN_name.sql), and the roles'
            // privileges (Sources/Storage/Schema/privileges.sql).
            resources: [.copy("Migrations"), .copy("Schema")],
            swiftSettings: strict
        ),
        // Adapter: HTTP: hook routes, console streams and page, health, readiness, metrics.
        .target(
            name: "Server",
            dependencies: [
                "ContactCenter",
                "OperatingHours",
                "Primitives",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                // OAuth access tokens for /mcp: JWT verification and the issuer's JWKS.
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            resources: [.copy("Resources")],
            swiftSettings: strict
        ),
        // The application layer: staffing (plans, backtests, seeded history), the CTR import, the
        // traffic simulator and the flow store. It uses the cores and declares as protocols what
        // it needs from the adapters (`StaffingRecords`, `ImportDestination`, `SimulatorSink`,
        // `SeedHistoryStore`); Roles implements them.
        .target(
            name: "Services",
            dependencies: [
                "ContactCenter",
                "OperatingHours",
                "Primitives",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The roles (ingest, serve, dev, simulate, migrate): settings, and the adapters and services
        // wired together (Wiring/), one ServiceGroup per role (Assembly/).
        .target(
            name: "Roles",
            dependencies: [
                "ContactCenter",
                "OperatingHours",
                "Primitives",
                "Services",
                "Kafka",
                "Storage",
                "Server",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strict
        ),
        // The command line: ArgumentParser commands that call the roles.
        .executableTarget(
            name: "switchboard",
            dependencies: [
                "Roles",
                "Services",
                "Primitives",
                "ContactCenter",
                "OperatingHours",
                "Storage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict,
            linkerSettings: jemalloc
        ),
        // Seeded fixtures, process spawning and the database bootstrap shared by the
        // tests and the benchmarks (never linked into the product).
        .target(
            name: "SwitchboardTesting",
            dependencies: [
                "ContactCenter",
                "Kafka",
                "Primitives",
                "Storage",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strict
        ),
        // Benchmarks, load generators and the console demo (`switchboard-bench`).
        .executableTarget(
            name: "SwitchboardBench",
            dependencies: [
                "Roles",
                "Services",
                "Primitives",
                "SwitchboardTesting",
                "ContactCenter",
                "OperatingHours",
                "Kafka",
                "Storage",
                "Server",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict,
            // The allocator of `switchboard`: the in-process hook server and decoder benchmarks
            // measure what production runs.
            linkerSettings: jemalloc
        ),
        .testTarget(name: "PrimitivesTests", dependencies: ["Primitives"], swiftSettings: strict),
        .testTarget(
            name: "ContactCenterTests",
            dependencies: ["ContactCenter", "Primitives", "SwitchboardTesting"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "OperatingHoursTests", dependencies: ["OperatingHours", "Primitives"], swiftSettings: strict),
        .testTarget(
            name: "KafkaTests",
            dependencies: [
                "Kafka",
                "SwitchboardTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "StorageTests",
            dependencies: [
                "Storage", "ContactCenter", "Primitives", "SwitchboardTesting",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "Server", "Roles", "Services", "OperatingHours", "ContactCenter", "Primitives", "SwitchboardTesting",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // The application layer over in-memory ports: no database, no broker.
        .testTarget(
            name: "ServicesTests",
            dependencies: ["Services", "ContactCenter", "OperatingHours", "Primitives"],
            swiftSettings: strict
        ),
        // The roles in process: wiring, and end to end through `switchboard` processes.
        .testTarget(
            name: "RolesTests",
            dependencies: [
                "Roles", "Services", "Server", "Kafka", "Storage", "ContactCenter", "OperatingHours", "Primitives",
                "SwitchboardTesting",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
