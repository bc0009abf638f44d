import Kafka
import Testing

@Suite("Consumer groups and faults on the embedded cluster", .serialized)
struct KafkaGroupTests {
    @Test("two consumers in one group split the partitions; when one closes the other gets them all")
    func groupSplitsAndTakesOver() async throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 3, logger: testLogger("cluster"))
        try cluster.createTopic("split", partitions: 6)
        let configuration = groupConsumerConfiguration(bootstrap: cluster.bootstrapServers, group: "split")
        let firstHandler = RecordingAssignmentHandler()
        let secondHandler = RecordingAssignmentHandler()
        let first = try await KafkaConsumer(
            configuration: configuration, assignmentHandler: firstHandler, logger: testLogger("c1"))
        let second = try await KafkaConsumer(
            configuration: configuration, assignmentHandler: secondHandler, logger: testLogger("c2"))
        try await first.subscribe(topics: ["split"])
        try await second.subscribe(topics: ["split"])

        // Poll both until the group settled with all 6 partitions split between them.
        let clock = ContinuousClock()
        let end = clock.now + .seconds(60)
        var settled = false
        while clock.now < end {
            async let a = first.poll(maxRecords: 100, maxWait: .milliseconds(200))
            async let b = second.poll(maxRecords: 100, maxWait: .milliseconds(200))
            _ = try await (a, b)
            let one = firstHandler.assigned.withLockedValue { $0 }
            let two = secondHandler.assigned.withLockedValue { $0 }
            if one.count + two.count == 6 && !one.isEmpty && !two.isEmpty && one.isDisjoint(with: two) {
                settled = true
                break
            }
        }
        #expect(settled, "the group split 6 partitions between two members")
        #expect(try await first.assignment().count + second.assignment().count == 6)

        try await first.close()
        var tookOver = false
        while clock.now < end + .seconds(30) {
            _ = try await second.poll(maxRecords: 100, maxWait: .milliseconds(200))
            if secondHandler.assigned.withLockedValue({ $0.count }) == 6 {
                tookOver = true
                break
            }
        }
        #expect(tookOver, "the remaining member owns all 6 partitions")
        #expect(try await second.assignment().count == 6)
        try await second.close()
    }

    @Test("partitions lost and assigned back within one poll: the records fetched after that are kept")
    func lostAndAssignedBackWithinOnePoll() async throws {
        let cluster = try cluster(topic: "rejoin", partitions: 2)
        let offsets = InMemoryOffsetStore()
        let consumer = try await KafkaConsumer(
            configuration: groupConsumerConfiguration(bootstrap: cluster.bootstrapServers, group: "rejoin"),
            assignmentHandler: offsets,
            logger: testLogger("consumer")
        )
        try await consumer.subscribe(topics: ["rejoin"])
        try await withProducer(producerConfiguration(cluster.bootstrapServers)) { producer in
            for index in 0..<100 {
                try await producer.enqueue(
                    topic: "rejoin", partition: Int32(index % 2), key: nil, value: bytes("\(index)"))
            }
        }
        #expect(try await consume(consumer, count: 100, offsets: offsets).count == 100)
        try await withProducer(producerConfiguration(cluster.bootstrapServers)) { producer in
            for index in 100..<200 {
                try await producer.enqueue(
                    topic: "rejoin", partition: Int32(index % 2), key: nil, value: bytes("\(index)"))
            }
        }

        // The next Heartbeat answers UNKNOWN_MEMBER_ID (25): the member loses its partitions,
        // re-joins and is assigned them again (from the stored offsets), all inside this one poll.
        // Records fetched before the loss must go, those fetched after the re-assignment must stay:
        // the consumer's position is past them, nothing would read them again.
        cluster.pushRequestErrors(apiKey: 12, errors: [25])
        let batch = try await consumer.poll(maxRecords: 10_000, maxWait: .seconds(15))
        offsets.processed(batch.records)
        #expect(offsets.lostCount.withLockedValue { $0 } >= 1, "the member lost its partitions during the poll")
        let rest = try await consume(consumer, count: 100 - batch.records.count, within: .seconds(30), offsets: offsets)
        let values = (batch.records + rest).compactMap { $0.value.map { String(decoding: $0, as: UTF8.self) } }
        #expect(values.count == 100, "each record once")
        #expect(Set(values) == Set((100..<200).map(String.init)))
        try await consumer.close()
    }

    @Test("all brokers down for 5 s and back: nothing lost, the consumer resumes")
    func brokersDownAndBack() async throws {
        let cluster = try cluster(brokers: 3, topic: "outage", partitions: 3)
        // The session times out during the outage and the member re-joins: it must resume after
        // what it processed, as the ingest does with offsets kept in PostgreSQL.
        let offsets = InMemoryOffsetStore()
        let consumer = try await KafkaConsumer(
            configuration: groupConsumerConfiguration(bootstrap: cluster.bootstrapServers, group: "outage"),
            assignmentHandler: offsets,
            logger: testLogger("consumer")
        )
        try await consumer.subscribe(topics: ["outage"])
        var received: [KafkaRecord] = []
        try await withProducer(producerConfiguration(cluster.bootstrapServers)) { producer in
            for index in 0..<500 {
                try await producer.enqueue(topic: "outage", key: bytes("k\(index % 10)"), value: bytes("\(index)"))
            }
            try await producer.flush()
            received = try await consume(consumer, count: 500, offsets: offsets)
            #expect(received.count == 500)

            // Records handed to the producer during the outage are delivered once brokers return.
            try cluster.setAllBrokersDown()
            let clock = ContinuousClock()
            let downUntil = clock.now + .seconds(5)
            var index = 500
            while clock.now < downUntil {
                let batch = try await consumer.poll(maxRecords: 100, maxWait: .milliseconds(100))
                received += batch.records
                offsets.processed(batch.records)
                if index < 1_000 {
                    try await producer.enqueue(topic: "outage", key: bytes("k\(index % 10)"), value: bytes("\(index)"))
                    index += 1
                }
            }
            try cluster.setAllBrokersUp()
            while index < 1_000 {
                try await producer.enqueue(topic: "outage", key: bytes("k\(index % 10)"), value: bytes("\(index)"))
                index += 1
            }
            try await producer.flush(timeout: .seconds(60))
            #expect(producer.undeliveredCount == 0)
        }
        received += try await consume(consumer, count: 1_000 - received.count, within: .seconds(90), offsets: offsets)
        let values = Set(received.compactMap { $0.value.map { String(decoding: $0, as: UTF8.self) } })
        #expect(received.count == 1_000, "no record lost or duplicated")
        #expect(values == Set((0..<1_000).map(String.init)))
        try await consumer.close()
    }
}
