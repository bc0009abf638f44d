import ArgumentParser
import ContactCenter
import Foundation
import Kafka
import Logging
import SwitchboardTesting

#if canImport(Glibc)
    import Glibc
#endif

/// `switchboard bench-console` (hidden): the load side of `make bench-console`.
///
/// Opens `--clients` WebSocket connections to `/v1/floor/stream`, then produces `--rate` agent
/// events per second to Kafka for `--duration` seconds. Each event gives one of `--agents`
/// agents a new status whose start time is the produce time, so every client can tell, per agent
/// row it receives, which event it reflects and how long after its production it arrived.
/// Delivered counts (client, event) pairs seen; expected is events × clients.
///
/// All connections are served by one thread over non-blocking sockets and `poll(2)`, so the
/// client side costs one core at most and the figures measure the server.
struct BenchConsoleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-console",
        abstract: "Load the console streams: WebSocket clients × agent events produced to Kafka."
    )

    @Option(help: "The server, host:port.") var server = "127.0.0.1:8080"
    @Option(help: "Kafka bootstrap servers (printed by console-demo).") var bootstrap: String
    @Option(help: "Concurrent WebSocket clients.") var clients = 500
    @Option(help: "Agent events produced per second.") var rate = 2_000
    @Option(help: "Seconds of production.") var duration = 60
    @Option(help: "Distinct agents the events go to (round robin).") var agents = 500
    @Option(help: "Console token, when the server requires one.") var token: String?
    @Option(help: "Agent event topic.") var topic = "agent-events"

    func run() async throws {
        var logger = Logger(label: "bench-console")
        logger.logLevel = .warning
        let parts = server.split(separator: ":")
        guard parts.count == 2, let port = UInt16(parts[1]) else { throw ValidationError("--server host:port") }
        let path = "/v1/floor/stream" + (token.map { "?token=\($0)" } ?? "")
        let load = try BenchWebSocketLoad(
            host: String(parts[0]), port: port, path: path, clients: clients, agents: agents)
        print("connecting \(clients) clients…")
        try load.connectAll(timeout: .seconds(60))
        print("connected; producing \(rate) events/s for \(duration) s to \(topic) over \(agents) agents")
        let receiver = Thread { load.receive() }
        receiver.start()

        let producer = try BackgroundProducer(
            configuration: KafkaProducerConfiguration(
                common: KafkaConfiguration(bootstrapServers: bootstrap, clientID: "bench-console"),
                lingerMilliseconds: 1),
            logger: logger)
        let produced = try await produce(producer.producer)
        try await producer.flush(timeout: .seconds(30))
        await producer.close()
        // Let the last deltas arrive.
        try await Task.sleep(for: .seconds(3))
        load.stop()
        while !load.isStopped { try await Task.sleep(for: .milliseconds(50)) }

        let report = load.report()
        let expected = produced * clients
        print(
            """
            clients=\(clients) events=\(produced) events_per_s=\(rate) duration_s=\(duration)
            latency produce→client: p50=\(report.p50) ms p99=\(report.p99) ms max=\(report.max) ms
            delivered=\(report.delivered) expected=\(expected) snapshots=\(report.snapshots) \
            messages=\(report.messages) bytes=\(report.bytes) closed=\(report.closed)
            seconds with a delivery over 100 ms: \(report.slowSeconds.map { "\($0.second)s:\($0.worst)ms" })
            """)
        print(
            "RESULT console_p50_ms=\(report.p50) console_p99_ms=\(report.p99) delivered=\(report.delivered) "
                + "expected=\(expected) clients=\(clients) events_per_s=\(rate)")
    }

    /// Produces `rate` events per second in 10 ms slices; returns how many.
    private func produce(_ producer: KafkaProducer) async throws -> Int {
        let clock = ContinuousClock()
        let start = clock.now
        let slices = duration * 100
        var produced = 0
        for slice in 0..<slices {
            let due = rate * (slice + 1) / 100
            while produced < due {
                let index = produced % agents
                let now = UTCTimestamp(Date())
                let busy = (produced / agents) % 2 == 0
                let event = AgentEvent(
                    agentArn: BenchWebSocketLoad.agentArn(index), eventId: "bench-\(produced)", eventTimestamp: now,
                    eventType: .stateChange,
                    currentSnapshot: AgentSnapshot(
                        status: AgentStatus(
                            name: busy ? "Busy" : "Available", type: busy ? .custom : .routable, startTimestamp: now),
                        configuration: AgentConfiguration(
                            username: "b\(index)", firstName: "Bench", lastName: "\(index)")))
                try await producer.enqueue(
                    topic: topic, key: Array(event.agentArn.utf8), value: Array(event.jsonData()))
                produced += 1
            }
            try await clock.sleep(until: start + .milliseconds(10 * (slice + 1)))
        }
        return produced
    }
}
