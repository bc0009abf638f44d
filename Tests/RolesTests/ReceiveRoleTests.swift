import ContactCenter
import Foundation
import Kafka
import Logging
import Prometheus
import Roles
import ServiceLifecycle
import Services
import SwitchboardTesting
import Testing

@Suite("receive: the receiver's role in process, over the embedded Kafka cluster", .serialized, .watched)
struct ReceiveRoleTests {
    static let key = "role-test-key-0123456789"

    /// Runs `switchboard receive`'s group (or `serve`'s) in process against an embedded cluster.
    func withRole(
        serve: Bool = false, keys: String = key,
        _ body: @Sendable (EmbeddedKafkaCluster, URL) async throws -> Void
    ) async throws {
        var logger = Logger(label: "receive-test")
        logger.logLevel = .warning
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: logger)
        for topic in ConnectStream.allCases { try cluster.createTopic(topic.rawValue, partitions: 2) }
        let port = LoopbackSocket.freePort()
        let settings = try Settings(environment: [
            "SWITCHBOARD_KAFKA_BOOTSTRAP": cluster.bootstrapServers,
            "SWITCHBOARD_HTTP_PORT": String(port),
            "SWITCHBOARD_FLOWS_DIR": Repository.flowsDirectory,
            "SWITCHBOARD_SHUTDOWN_DRAIN_SECONDS": "0",
            "SWITCHBOARD_FIREHOSE_ACCESS_KEYS": keys,
            "SWITCHBOARD_ALLOW_OPEN": "hook,console",
        ])
        let context = RoleContext(settings: settings, metrics: PrometheusCollectorRegistry(), logger: logger)
        let group = try serve ? ServeRole.build(context) : ReceiveRole.build(context)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let base = URL(string: "http://127.0.0.1:\(port)")!
            try await body(cluster, base)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    /// Reads `count` records of `topic` from the beginning of both partitions.
    func consume(_ cluster: EmbeddedKafkaCluster, topic: String, count: Int) async throws -> [KafkaRecord] {
        var logger = Logger(label: "receive-test")
        logger.logLevel = .warning
        let consumer = try await KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                common: KafkaConfiguration(bootstrapServers: cluster.bootstrapServers), groupID: "receive-test"),
            logger: logger)
        try await consumer.assign([
            TopicPartition(topic: topic, partition: 0): .beginning,
            TopicPartition(topic: topic, partition: 1): .beginning,
        ])
        var records: [KafkaRecord] = []
        let end = ContinuousClock.now + .seconds(30)
        while records.count < count && ContinuousClock.now < end {
            records += try await consumer.poll(maxRecords: 1_000, maxWait: .milliseconds(200)).records
        }
        try await consumer.close()
        return records
    }

    @Test("each key's events keep their order in Kafka; rejected payloads carry the reason and the origin")
    func orderAndHeaders() async throws {
        try await withRole { cluster, base in
            #expect(
                await eventually(within: .seconds(30)) {
                    await httpStatus(base.appendingPathComponent("ready/receiver")) == 200
                })
            let agents = ["arn:agent/a", "arn:agent/b", "arn:agent/c"]
            let events = (0..<60).map { index in
                Data(#"{"AgentARN":"\#(agents[index % 3])","EventId":"e\#(index)","EventType":"HEART_BEAT"}"#.utf8)
            }
            let client = FirehoseClient(
                baseURL: base.appendingPathComponent("v1/firehose"), accessKey: Self.key, gzip: true, timeout: 30)
            let attempt = try await client.deliver(
                stream: .agentEvents, records: events + [Data("garbage".utf8)], requestId: "order",
                deadline: .seconds(30))
            #expect(attempt.delivered, "\(attempt.body)")
            let records = try await consume(cluster, topic: "agent-events", count: 61)
            #expect(records.count == 61)
            for agent in agents {
                let ids = records.filter { $0.key == Array(agent.utf8) }.sorted { $0.offset < $1.offset }.map {
                    String(decoding: $0.value ?? [], as: UTF8.self).firstMatch(of: /"EventId":"e(\d+)"/).map {
                        Int($0.1)!
                    }
                }
                #expect(ids == ids.sorted { ($0 ?? 0) < ($1 ?? 0) } && ids.count == 20, "\(agent): \(ids)")
            }
            let rejected = records.filter { $0.headers.contains { $0.key == "switchboard-rejection" } }
            #expect(rejected.count == 1)
            #expect(rejected.first?.value == Array("garbage".utf8))
            #expect(rejected.first?.key == Array("order".utf8))
            let origin = rejected.first?.headers.first { $0.key == "switchboard-origin" }?.value
            #expect(origin == Array("firehose order record 60".utf8))
        }
    }

    @Test("receive refuses to start without access keys; serve without keys refuses every delivery")
    func keysRequired() async throws {
        let settings = try Settings(environment: ["SWITCHBOARD_KAFKA_BOOTSTRAP": "127.0.0.1:9"])
        let context = RoleContext(
            settings: settings, metrics: PrometheusCollectorRegistry(), logger: Logger(label: "t"))
        #expect(throws: SettingsError.self) { try ReceiveRole.build(context) }
        try await withRole(serve: true, keys: "") { _, base in
            #expect(
                await eventually(within: .seconds(30)) {
                    await httpStatus(base.appendingPathComponent("health")) == 200
                })
            let answer = await httpPost(
                base.appendingPathComponent("v1/firehose/contact-records"),
                json: #"{"requestId":"r","records":[]}"#, headers: ["X-Amz-Firehose-Access-Key": "anything"])
            #expect(answer?.status == 401)
            #expect(answer?.body.contains("SWITCHBOARD_FIREHOSE_ACCESS_KEYS") == true)
        }
    }
}
