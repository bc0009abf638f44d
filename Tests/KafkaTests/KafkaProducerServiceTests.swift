import Kafka
import ServiceLifecycle
import Testing

@Suite("The producer as a service", .serialized)
struct KafkaProducerServiceTests {
    @Test("records handed over before run() arrive once it runs; graceful shutdown flushes the rest")
    func producesBeforeRunAndFlushesOnShutdown() async throws {
        let cluster = try cluster(topic: "service", partitions: 2)
        let producer = try KafkaProducer(
            configuration: producerConfiguration(cluster.bootstrapServers), logger: testLogger("producer"))
        // Metadata needs no polling: it works before run().
        #expect(try await producer.metadata(timeout: .seconds(10)).topics["service"] == 2)
        try await producer.enqueue(topic: "service", partition: 0, key: nil, value: bytes("before-run"))

        let services = ServiceGroup(services: [producer], logger: testLogger("services"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            // Awaits its delivery report, which only run() can serve.
            group.addTask {
                let report = try await producer.send(topic: "service", partition: 1, key: nil, value: bytes("awaited"))
                #expect(report.topicPartition == TopicPartition(topic: "service", partition: 1))
            }
            group.addTask { try await services.run() }
            try await group.next()  // the send: delivered once run() polls
            #expect(try await producer.metadata(timeout: .seconds(10)).brokerCount == 1)
            // Not flushed by hand: the graceful shutdown must deliver these before destroying.
            for index in 0..<500 {
                try await producer.enqueue(topic: "service", partition: 0, key: nil, value: bytes("\(index)"))
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
        #expect(producer.undeliveredCount == 0)

        let consumer = try await KafkaConsumer(
            configuration: groupConsumerConfiguration(bootstrap: cluster.bootstrapServers, group: "service"),
            logger: testLogger("consumer")
        )
        try await consumer.assign([
            TopicPartition(topic: "service", partition: 0): .beginning,
            TopicPartition(topic: "service", partition: 1): .beginning,
        ])
        let records = try await consume(consumer, count: 502)
        try await consumer.close()
        let values = records.compactMap { $0.value.map { String(decoding: $0, as: UTF8.self) } }
        #expect(values.count == 502)
        #expect(Set(values) == Set(["before-run", "awaited"] + (0..<500).map(String.init)))
    }

    @Test("after shutdown every call fails with .closed, and a producer runs only once")
    func refusesAfterShutdown() async throws {
        let cluster = try cluster(topic: "closed", partitions: 1)
        let producer = try await withProducer(producerConfiguration(cluster.bootstrapServers)) { producer in
            try await producer.send(topic: "closed", key: nil, value: bytes("one"))
            return producer
        }
        await expectClosed { try await producer.enqueue(topic: "closed", key: nil, value: bytes("late")) }
        await expectClosed { try await producer.send(topic: "closed", key: nil, value: bytes("late")) }
        await expectClosed { _ = try await producer.metadata() }
        await expectClosed { try await producer.flush() }
        await expectClosed { try await producer.run() }
    }

    @Test("cancellation destroys at once: records that could not be delivered fail, none hang")
    func cancellationFailsOutstandingRecords() async throws {
        let cluster = try cluster(topic: "cancelled", partitions: 1)
        try cluster.setAllBrokersDown()
        let producer = try KafkaProducer(
            configuration: producerConfiguration(cluster.bootstrapServers), logger: testLogger("producer"))
        try await producer.enqueue(topic: "cancelled", key: nil, value: bytes("queued"))
        let outcome = try await withThrowingTaskGroup(of: Result<KafkaDeliveryReport, any Error>?.self) { group in
            group.addTask {
                try await producer.run()
                return nil
            }
            group.addTask {
                do {
                    return .success(try await producer.send(topic: "cancelled", key: nil, value: bytes("awaited")))
                } catch {
                    return .failure(error)
                }
            }
            // No broker is up, so nothing can be delivered before the cancellation.
            group.cancelAll()
            var outcome: Result<KafkaDeliveryReport, any Error>? = nil
            for try await result in group {
                if let result { outcome = result }
            }
            return outcome
        }
        guard case .failure(let error as KafkaError) = outcome else {
            Issue.record("the awaited record should have failed with a KafkaError, got \(String(describing: outcome))")
            return
        }
        #expect(error.code == .produce || error.code == .closed, "\(error)")
        // The enqueued record was purged at shutdown and reported as undelivered.
        #expect(producer.undeliveredCount == 1)
    }

    private func expectClosed(_ operation: () async throws -> Void) async {
        do {
            try await operation()
            Issue.record("expected KafkaError.closed")
        } catch let error as KafkaError {
            #expect(error.code == .closed, "\(error)")
        } catch {
            Issue.record("expected KafkaError.closed, got \(error)")
        }
    }

    @Test("a batch send returns once every record is acknowledged, in order per key; unreachable brokers fail it whole")
    func batchSend() async throws {
        let cluster = try cluster(topic: "batch", partitions: 4)
        let messages = (0..<600).map { index in
            KafkaProducerMessage(
                topic: "batch", key: bytes("key-\(index % 7)"), value: bytes("\(index)"),
                headers: [KafkaHeader(key: "n", value: bytes("\(index)"))])
        }
        try await withProducer(producerConfiguration(cluster.bootstrapServers)) { producer in
            let delivery = await producer.send(messages)
            #expect(delivery.failed == 0)
            #expect(delivery.firstError == nil)
            // Acknowledged means stored: nothing is left in librdkafka's queue to flush.
            #expect(producer.undeliveredCount == 0)
            let empty = await producer.send([])
            #expect(empty.failed == 0)
        }
        let consumer = try await KafkaConsumer(
            configuration: groupConsumerConfiguration(bootstrap: cluster.bootstrapServers, group: "batch"),
            logger: testLogger("consumer"))
        try await consumer.subscribe(topics: ["batch"])
        let records = try await consume(consumer, count: 600)
        try await consumer.close()
        #expect(records.count == 600)
        var lastPerKey: [[UInt8]: Int] = [:]
        for record in records.sorted(by: { ($0.partition, $0.offset) < ($1.partition, $1.offset) }) {
            let index = Int(String(decoding: record.value ?? [], as: UTF8.self)) ?? -1
            #expect(record.key == bytes("key-\(index % 7)"))
            #expect(record.headers == [KafkaHeader(key: "n", value: bytes("\(index)"))])
            #expect(index > lastPerKey[record.key ?? [], default: -1], "a key's records in the order given")
            lastPerKey[record.key ?? []] = index
        }

        // Every broker down: each record times out; the batch reports all of them failed.
        try cluster.setAllBrokersDown()
        var configuration = producerConfiguration(cluster.bootstrapServers)
        configuration.messageTimeoutMilliseconds = 1_500
        try await withProducer(configuration) { producer in
            let delivery = await producer.send(Array(messages.prefix(50)))
            #expect(delivery.failed == 50)
            #expect(delivery.firstError?.code == .produce)
        }
    }

}
