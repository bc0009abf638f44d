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
}
