import ArgumentParser
import ContactCenter
import Foundation
import Hummingbird
import Kafka
import Logging
import Metrics
import Prometheus
import Roles
import Server
import ServiceLifecycle

/// `switchboard console-demo` (hidden): the live-status feature alone on the embedded Kafka,
/// with a small floor of agents and contacts produced to it. No PostgreSQL.
///
/// Used by `scripts/browser-test.sh` (a fixed scene) and `scripts/bench-console.sh` (no scene;
/// the benchmark produces its own events). Prints `KAFKA_BOOTSTRAP=…` and `HTTP=…` lines once up.
struct ConsoleDemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console-demo",
        abstract: "Serve the operator console from the embedded Kafka with a demo floor (no PostgreSQL)."
    )

    @Option(help: "HTTP port (0 picks a free one).")
    var httpPort: Int = 8080

    @Option(help: "Partitions per topic of the embedded cluster.")
    var partitions: Int = 3

    @Flag(help: "Produce no demo floor (the benchmark produces its own events).")
    var empty = false

    @Flag(help: "Keep the demo floor moving: an agent changes state every few seconds.")
    var animate = false

    @Option(
        help: """
            The staffing panel's now: an ISO 8601 instant it starts at and runs on from (default: the wall clock); \
            the browser test stands at the instant it means, such as 23:50 JST, where the next 3 hours cross midnight.
            """)
    var at: String?

    func validate() throws {
        if let at, ISO8601DateFormatter().date(from: at) == nil {
            throw ValidationError("--at must be an ISO 8601 instant such as 2026-12-31T23:50:00+09:00 (got \(at))")
        }
    }

    func run() async throws {
        var settings = try Settings()
        settings.httpPort = httpPort
        LoggingSetup.bootstrap(settings)
        let logger = Logger(label: "switchboard.console-demo")
        // The staffing routes' clock: the instant asked for, moving on with the wall clock.
        let offset = at.flatMap { ISO8601DateFormatter().date(from: $0) }.map { $0.timeIntervalSinceNow } ?? 0
        let clock: @Sendable () -> Date = { Date(timeIntervalSinceNow: offset) }
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))

        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: Logger(label: "kafka.embedded"))
        for topic in [settings.agentEventsTopic, settings.contactEventsTopic] {
            try cluster.createTopic(topic, partitions: partitions)
        }
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(
                common: KafkaConfiguration(bootstrapServers: cluster.bootstrapServers), lingerMilliseconds: 1),
            logger: Logger(label: "kafka.producer")
        )
        let floor = FloorWiring(
            settings: settings, bootstrap: cluster.bootstrapServers, metadata: { try await producer.metadata() })
        let application = buildApplication(
            configuration: ServerConfiguration(
                host: settings.httpHost, port: settings.httpPort, limits: settings.httpLimits),
            dependencies: ServerDependencies(
                readinessChecks: [floor.readinessCheck],
                metricsRegistry: registry,
                routeProviders: [
                    floor.routes,
                    StaffingRoutes(
                        source: DemoStaffingSource(), tokens: AccessTokens(settings.consoleTokens),
                        timeZone: settings.floorTimeZone,
                        floor: FloorStaffing(
                            floor: SwitchboardTools.floorView(floor.publisher), source: DemoStaffingSource(),
                            timeZone: settings.floorTimeZone),
                        intraday: DemoIntradaySource(timeZone: settings.floorTimeZone), clock: clock),
                ]
            ),
            logger: Logger(label: "switchboard.http")
        )
        let scene = DemoFloorScene(settings: settings, producer: producer)
        let empty = self.empty
        let animate = self.animate
        let lines = [
            "KAFKA_BOOTSTRAP=\(cluster.bootstrapServers)",
            "HTTP=http://\(settings.httpHost):\(settings.httpPort)",
            "CONSOLE=http://\(settings.httpHost):\(settings.httpPort)/console",
        ]
        let startup = ConsoleDemoStartup {
            if !empty { try await scene.produceInitialScene() }
            FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            if animate { try await scene.animate() }
        }
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: producer),
                    .init(service: floor.publisher),
                    .init(service: application),
                    .init(service: startup),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
        withExtendedLifetime(cluster) {}
    }
}

/// Runs the demo's start-up once, then waits for shutdown.
private struct ConsoleDemoStartup: Service {
    let body: @Sendable () async throws -> Void

    func run() async throws {
        try await cancelWhenGracefulShutdown { try await body() }
        try? await gracefulShutdown()
    }
}

/// A small floor for demonstrations and the browser test: nine agents in five activities on
/// routing profiles that serve one to twenty queues, twenty queues (fourteen of them quiet), two
/// contacts waiting and one answered.
struct DemoFloorScene: Sendable {
    static let instance = "arn:aws:connect:ap-northeast-1:123456789012:instance/5b6c0d9e-demo-4000-8000-000000000000"
    static func queue(_ id: String, _ name: String) -> ResourceReference {
        ResourceReference(arn: "\(instance)/queue/\(id)", name: name)
    }
    static let tokyo = queue("tokyo-reservations", "Tokyo Reservations")
    static let osaka = queue("osaka-delivery", "Osaka Delivery")
    static let kyoto = queue("kyoto-kaiseki", "Kyoto Kaiseki")
    static let sapporo = queue("sapporo-izakaya", "Sapporo Izakaya")
    static let fukuoka = queue("fukuoka-ramen", "Fukuoka Ramen")
    static let overflow = queue("overflow", "Overflow")
    /// Queues nobody is forecast for: the console folds them into one line.
    static let quiet = [
        "Nagoya Unagi", "Sendai Gyutan", "Hiroshima Okonomiyaki", "Kobe Teppanyaki", "Yokohama Chuka",
        "Nara Kakinoha", "Kanazawa Oden", "Naha Soba", "Kagoshima Kurobuta", "Niigata Sake Bar", "Matsuyama Tai",
        "Takamatsu Udon", "Shizuoka Tea House", "Kumamoto Basashi",
    ].map { queue($0.lowercased().replacingOccurrences(of: " ", with: "-"), $0) }
    static let queues = [tokyo, osaka, kyoto, sapporo, fukuoka, overflow] + quiet
    /// (last name, first name, username, the queues of the agent's routing profile).
    static let agents: [(String, String, String, [ResourceReference])] = [
        ("佐藤", "花子", "hanako.sato", [tokyo, osaka]), ("鈴木", "太郎", "taro.suzuki", [tokyo]),
        ("高橋", "美咲", "misaki.takahashi", [osaka, kyoto, overflow]), ("田中", "健", "ken.tanaka", [tokyo]),
        ("伊藤", "翔", "sho.ito", queues), ("中村", "陽菜", "hina.nakamura", [osaka]),
        ("小林", "蓮", "ren.kobayashi", [osaka, kyoto]), ("加藤", "結衣", "yui.kato", [kyoto]),
        ("吉田", "大翔", "hiroto.yoshida", [osaka]),
    ]

    let settings: Settings
    let producer: KafkaProducer

    static func agentArn(_ index: Int) -> String { "\(instance)/agent/demo-agent-\(index)" }

    /// Agent `index` in `status`, with `contacts`, as of `at`.
    func agentEvent(
        _ index: Int, status: String, type: AgentStatus.Kind, contacts: [AgentContact] = [], at: UTCTimestamp,
        since: UTCTimestamp
    ) -> AgentEvent {
        let (last, first, username, queues) = Self.agents[index]
        return AgentEvent(
            agentArn: Self.agentArn(index), eventId: UUID().uuidString, eventTimestamp: at, eventType: .stateChange,
            currentSnapshot: AgentSnapshot(
                status: AgentStatus(name: status, type: type, startTimestamp: since),
                configuration: AgentConfiguration(
                    username: username, firstName: first, lastName: last,
                    routingProfile: AgentRoutingProfile(
                        arn: "\(Self.instance)/routing-profile/demo-\(index)", name: "Demo \(index)",
                        inboundQueues: queues)),
                contacts: contacts))
    }

    func contactEvent(
        _ contactID: String, _ type: ContactEvent.EventType, queue: ResourceReference, at: UTCTimestamp,
        agent: Int? = nil
    ) -> ContactEvent {
        ContactEvent(
            id: UUID().uuidString, time: at, eventType: type, contactId: contactID,
            queueInfo: ContactEvent.QueueInfo(queueArn: queue.arn, enqueueTimestamp: at.adding(seconds: -40)),
            agentInfo: agent.map { ContactEvent.AgentInfo(agentArn: Self.agentArn($0), connectedToAgentTimestamp: at) })
    }

    func produce(_ event: AgentEvent) async throws {
        _ = try await producer.send(
            topic: settings.agentEventsTopic, key: Array(event.agentArn.utf8), value: Array(event.jsonData()))
    }

    func produce(_ event: ContactEvent) async throws {
        _ = try await producer.send(
            topic: settings.contactEventsTopic, key: Array(event.contactId.utf8), value: Array(event.jsonData()))
    }

    /// Available (five), on a call, in after-contact work, at lunch, offline; two callers waiting.
    func produceInitialScene() async throws {
        let now = UTCTimestamp(Date())
        let earlier = now.adding(seconds: -95)
        let call = AgentContact(
            contactId: "demo-contact-answered", state: .connected, stateStartTimestamp: now.adding(seconds: -62),
            connectedToAgentTimestamp: now.adding(seconds: -62), queue: Self.tokyo)
        let wrapUp = AgentContact(
            contactId: "demo-contact-wrapup", state: .ended, stateStartTimestamp: now.adding(seconds: -20),
            queue: Self.osaka)
        try await produce(agentEvent(0, status: "Available", type: .routable, at: now, since: earlier))
        try await produce(
            agentEvent(1, status: "Available", type: .routable, contacts: [call], at: now, since: earlier))
        try await produce(
            agentEvent(2, status: "Available", type: .routable, contacts: [wrapUp], at: now, since: earlier))
        try await produce(agentEvent(3, status: "Lunch", type: .custom, at: now, since: now.adding(seconds: -600)))
        try await produce(agentEvent(4, status: "Offline", type: .offline, at: now, since: now.adding(seconds: -30)))
        for index in 5...8 {
            try await produce(agentEvent(index, status: "Available", type: .routable, at: now, since: earlier))
        }
        try await produce(
            contactEvent("demo-contact-answered", .queued, queue: Self.tokyo, at: now.adding(seconds: -70)))
        try await produce(
            contactEvent(
                "demo-contact-answered", .connectedToAgent, queue: Self.tokyo, at: now.adding(seconds: -62), agent: 1))
        try await produce(
            contactEvent("demo-contact-waiting-1", .queued, queue: Self.tokyo, at: now.adding(seconds: -5)))
        try await produce(
            contactEvent("demo-contact-waiting-2", .queued, queue: Self.osaka, at: now.adding(seconds: -2)))
    }

    /// Moves agent 0 between Available and Break every five seconds, until cancelled.
    func animate() async throws {
        var onBreak = false
        while true {
            try await Task.sleep(for: .seconds(5))
            onBreak.toggle()
            let now = UTCTimestamp(Date())
            try await produce(
                agentEvent(
                    0, status: onBreak ? "Break" : "Available", type: onBreak ? .custom : .routable, at: now, since: now
                ))
        }
    }
}
