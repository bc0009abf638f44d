import ContactCenter
import Foundation
import Kafka
import Logging
import PostgresNIO
import Roles
import Services
import Storage
import SwitchboardTesting
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

extension WorkerProcessSuites {
    /// Connect → Firehose → receiver → Kafka → ingest → PostgreSQL, with a Firehose client written
    /// from the documented contract (``FirehoseClient``), a `switchboard receive` process, the
    /// embedded Kafka cluster and a `switchboard ingest` worker.
    @Suite("Receiver end to end", .serialized, .enabled(if: TestDatabase.enabled))
    struct ReceiverEndToEndTests {
        typealias Count = IngestProcessTests

        /// What was sent, and what PostgreSQL must hold.
        struct Sent {
            var contactIds: Set<String> = []
            /// Contacts whose newest copy carries the attribute `version` = "1".
            var updated: Set<String> = []
            var agentEventIds: Set<String> = []
            var contactEventIds: Set<String> = []
        }

        /// Runs `body` with the embedded cluster, a fresh database with an ingest worker, and a
        /// receiver process.
        func withPipeline(
            _ name: String, receiverEnvironment: [String: String] = [:],
            _ body: @Sendable (EmbeddedKafkaCluster, SwitchboardProcess, PostgresClient, String) async throws -> Void
        ) async throws {
            let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: TestDatabase.logger)
            for topic in IngestTopics().all { try cluster.createTopic(topic, partitions: 4) }
            try await TestDatabase.withFreshDatabase(name) { client, configuration in
                try await TestDatabase.migrate(client)
                let url = TestDatabase.url(configuration, as: .writer)
                let worker = try SwitchboardProcess.worker(
                    bootstrap: cluster.bootstrapServers, databaseURL: url, group: name, name: name)
                defer { worker.kill() }
                let receiver = try SwitchboardProcess.receiver(
                    bootstrap: cluster.bootstrapServers, environment: receiverEnvironment)
                defer { receiver.kill() }
                let ready = await receiver.waitUntilReady("/ready/receiver")
                #expect(ready, "the receiver became ready:\n\(receiver.log.suffix(2_000))")
                try await body(cluster, receiver, client, url)
                #expect(
                    await worker.stop(signal: SIGTERM) == 0, "the worker stops cleanly:\n\(worker.log.suffix(2_000))")
            }
        }

        /// Waits until PostgreSQL holds exactly `sent` (and `deadLetters` dead letters), then checks
        /// every id.
        func expectStored(_ sent: Sent, deadLetters: Int, in client: PostgresClient) async throws {
            let caughtUp = await eventually(within: .seconds(90)) {
                let records = try? await Count.count(client, "SELECT count(*) FROM contact_record")
                let agents = try? await Count.count(client, "SELECT count(*) FROM agent_event")
                let contacts = try? await Count.count(client, "SELECT count(*) FROM contact_event")
                let letters = try? await Count.count(client, "SELECT count(*) FROM dead_letter")
                return records == sent.contactIds.count && agents == sent.agentEventIds.count
                    && contacts == sent.contactEventIds.count && letters == deadLetters
            }
            #expect(caughtUp, "PostgreSQL holds what was sent")
            #expect(try await Self.strings(client, "SELECT contact_id FROM contact_record") == sent.contactIds)
            #expect(try await Self.strings(client, "SELECT event_id FROM agent_event") == sent.agentEventIds)
            #expect(try await Self.strings(client, "SELECT event_id FROM contact_event") == sent.contactEventIds)
            #expect(
                try await Self.strings(
                    client, "SELECT contact_id FROM contact_record WHERE attributes->>'version' = '1'")
                    == sent.updated, "the newest copy of each CTR won, whatever the order")
            #expect(try await Count.count(client, "SELECT count(*) FROM dead_letter") == deadLetters)
        }

        static func strings(_ client: PostgresClient, _ sql: String) async throws -> Set<String> {
            let rows = try await client.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger)
            var result: Set<String> = []
            for try await value in rows.decode(String.self) { result.insert(value) }
            return result
        }

        func firehose(_ receiver: SwitchboardProcess, gzip: Bool, key: String = SwitchboardProcess.receiverAccessKey)
            -> FirehoseClient
        {
            FirehoseClient(
                baseURL: receiver.baseURL.appendingPathComponent("v1/firehose"), accessKey: key, gzip: gzip,
                commonAttributes: ["instance": "test"], timeout: 30)
        }

        @Test(
            "gzip on and off, same-id retries, a wrong key, undecodable records, a broker outage: exactly what was sent"
        )
        func firehoseContract() async throws {
            try await withPipeline("receiver_e2e") { cluster, receiver, client, _ in
                var fixtures = TrafficFixtures(seed: 31)
                var sent = Sent()
                var ctrBatches: [[Data]] = [[]]
                // Updates first for every tenth contact: the originals that arrive later must lose.
                for index in stride(from: 0, to: 400, by: 10) {
                    let update = fixtures.contactRecord(index: index, version: 1)
                    ctrBatches[0].append(update.jsonData())
                    sent.updated.insert(update.contactId)
                }
                for start in stride(from: 0, to: 400, by: 50) {
                    ctrBatches.append(
                        (start..<start + 50).map { index in
                            let record = fixtures.contactRecord(index: index)
                            sent.contactIds.insert(record.contactId)
                            return record.jsonData()
                        })
                }
                let agentEvents = (0..<200).map { fixtures.agentEvent(index: $0) }
                sent.agentEventIds = Set(agentEvents.map(\.eventId))
                let contactEvents = (0..<200).map { fixtures.contactEvent(index: $0) }
                sent.contactEventIds = Set(contactEvents.map(\.id))

                // CTRs, alternately compressed and not; each request delivered twice with its id,
                // as Firehose does when an answer is lost.
                for (number, batch) in ctrBatches.enumerated() {
                    let firehose = self.firehose(receiver, gzip: number % 2 == 0)
                    let id = "ctr-\(number)"
                    for _ in 0..<2 {
                        let attempt = try await firehose.deliver(
                            stream: .contactRecords, records: batch, requestId: id, deadline: .seconds(60))
                        #expect(attempt.delivered, "CTR request \(number): \(attempt.status) \(attempt.body)")
                    }
                }
                // Agent events one per record; contact events two concatenated per record.
                let agentAttempt = try await firehose(receiver, gzip: true).deliver(
                    stream: .agentEvents, records: agentEvents.map { $0.jsonData() }, deadline: .seconds(60))
                #expect(agentAttempt.delivered, "\(agentAttempt.body)")
                let pairs = stride(from: 0, to: contactEvents.count, by: 2).map {
                    contactEvents[$0].jsonData() + Data("\n".utf8) + contactEvents[$0 + 1].jsonData()
                }
                let contactAttempt = try await firehose(receiver, gzip: false).deliver(
                    stream: .contactEvents, records: pairs, deadline: .seconds(60))
                #expect(contactAttempt.delivered, "\(contactAttempt.body)")

                // A wrong key stores nothing.
                let refused = await firehose(receiver, gzip: false, key: "wrong").attempt(
                    stream: .contactRecords, requestId: "refused",
                    body: FirehoseClient.body(
                        requestId: "refused", records: [fixtures.contactRecord(index: 9_999).jsonData()]))
                #expect(refused.status == 401)

                // Undecodable records go to dead_letter with the request id; the rest is stored.
                let good = fixtures.contactRecord(index: 500)
                let mixed = FirehoseClient.body(
                    requestId: "mixed", records: [Data("x".utf8), Data("not json".utf8), good.jsonData()]
                ).replacingBase64(ofRecord: 0, with: "%%%not-base64%%%")
                sent.contactIds.insert(good.contactId)
                let mixedAttempt = await firehose(receiver, gzip: false).attempt(
                    stream: .contactRecords, requestId: "mixed", body: mixed)
                #expect(mixedAttempt.delivered, "\(mixedAttempt.body)")

                // The broker goes down: the request fails with 503 and /ready fails; it is stored
                // once Firehose retries after the broker is back.
                try cluster.setAllBrokersDown()
                let outageBatch = (600..<650).map { index in
                    let record = fixtures.contactRecord(index: index)
                    sent.contactIds.insert(record.contactId)
                    return record.jsonData()
                }
                let unready = await eventually(within: .seconds(20)) {
                    await receiver.status(of: "/ready/receiver") == 503
                }
                #expect(unready, "the receiver's readiness follows Kafka")
                let statuses = StatusLog()
                let recovery = Task {
                    try await Task.sleep(for: .seconds(6))
                    try cluster.setAllBrokersUp()
                }
                let outage = try await firehose(receiver, gzip: true).deliver(
                    stream: .contactRecords, records: outageBatch, requestId: "outage", deadline: .seconds(120),
                    maximumBackoff: .seconds(4)
                ) { attempt in statuses.append(attempt.status) }
                try await recovery.value
                #expect(outage.delivered, "\(outage.body)")
                #expect(statuses.values.first == 503, "Kafka down: \(statuses.values)")
                #expect(statuses.values.last == 200)

                try await expectStored(sent, deadLetters: 2, in: client)
                let letters = try await Self.strings(client, "SELECT error FROM dead_letter")
                #expect(letters.allSatisfy { $0.contains("firehose mixed record") }, "\(letters)")
                #expect(letters.contains { $0.contains("not a JSON object") }, "\(letters)")
                #expect(letters.contains { $0.contains("not valid base64") }, "\(letters)")
                let metrics = await receiver.body(of: "metrics") ?? ""
                #expect(metrics.contains("switchboard_receiver_records_total"))
                #expect(metrics.contains(#"switchboard_receiver_rejected_keys_total{route="firehose"} 1"#))
            }
        }

        @Test("the receiver is SIGKILLed mid-request: Firehose's retry with the same id stores each CTR once")
        func killedMidRequest() async throws {
            try await withPipeline(
                "receiver_kill", receiverEnvironment: ["SWITCHBOARD_RECEIVER_WINDOW_BYTES": "65536"]
            ) { cluster, first, client, _ in
                var fixtures = TrafficFixtures(seed: 41)
                var sent = Sent()
                let records = (0..<3_000).map { index in
                    let record = fixtures.contactRecord(index: index)
                    sent.contactIds.insert(record.contactId)
                    return record.jsonData()
                }
                let firehose = self.firehose(first, gzip: false)
                let body = FirehoseClient.body(requestId: "killed", records: records)
                // Half the body goes out, on a connection that stays open mid-request; the receiver
                // streams it to Kafka (in windows of 64 KiB), and the ingest stores some rows before
                // the receiver dies.
                let request = LoopbackConnection.request(
                    path: "/v1/firehose/contact-records", port: first.httpPort,
                    headers: [
                        "X-Amz-Firehose-Request-Id": "killed", "X-Amz-Firehose-Protocol-Version": "1.0",
                        "X-Amz-Firehose-Access-Key": SwitchboardProcess.receiverAccessKey,
                        "Content-Type": "application/json",
                    ],
                    body: body)
                let connection = try LoopbackConnection(port: first.httpPort)
                defer { connection.shutdown() }
                try #require(connection.send(Array(request.dropLast(body.count - body.count / 2))))
                let partlyStored = await eventually(within: .seconds(60)) {
                    ((try? await Count.count(client, "SELECT count(*) FROM contact_record")) ?? 0) > 0
                }
                #expect(partlyStored, "part of the request reached PostgreSQL before the kill")
                await first.stop(signal: SIGKILL)
                let before = try await Count.count(client, "SELECT count(*) FROM contact_record")
                #expect(before < records.count, "the request was cut: \(before) rows")

                let second = try SwitchboardProcess.receiver(
                    bootstrap: cluster.bootstrapServers, port: first.httpPort,
                    environment: ["SWITCHBOARD_RECEIVER_WINDOW_BYTES": "65536"])
                defer { second.kill() }
                let retried = try await firehose.deliver(
                    stream: .contactRecords, records: records, requestId: "killed", deadline: .seconds(90),
                    maximumBackoff: .seconds(2))
                #expect(retried.delivered, "\(retried.body)\n\(second.log.suffix(2_000))")
                try await expectStored(sent, deadLetters: 0, in: client)
            }
        }
    }
}

/// Statuses seen by a client's `onAttempt`, from any thread.
final class StatusLog: Sendable {
    private let statuses = Mutex<[Int]>([])
    func append(_ status: Int) { statuses.withLock { $0.append(status) } }
    var values: [Int] { statuses.withLock { $0 } }
}

extension [UInt8] {
    /// A Firehose body with record `index`'s base64 replaced by `text` (not base64).
    func replacingBase64(ofRecord index: Int, with text: String) -> [UInt8] {
        let body = String(decoding: self, as: UTF8.self)
        let parts = body.components(separatedBy: #"{"data":""#)
        guard parts.count > index + 1, let end = parts[index + 1].firstIndex(of: "\"") else { return self }
        var replaced = parts
        replaced[index + 1] = text + parts[index + 1][end...]
        return Array(replaced.joined(separator: #"{"data":""#).utf8)
    }
}
