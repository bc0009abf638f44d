import CRdKafka
import Testing

@testable import Kafka

@Suite("Partition lists")
struct RDKafkaPartitionListTests {
    private let a0 = TopicPartition(topic: "a", partition: 0)
    private let a1 = TopicPartition(topic: "a", partition: 1)
    private let b0 = TopicPartition(topic: "b", partition: 0)

    @Test("a list built from offsets holds them ordered by topic and partition")
    func offsetsInOrder() {
        let list = RDKafkaPartitionList([b0: 7, a1: -2, a0: 42])
        #expect(list.count == 3)
        #expect(
            list.entries == [
                .init(topicPartition: a0, offset: 42, error: RD_KAFKA_RESP_ERR_NO_ERROR),
                .init(topicPartition: a1, offset: -2, error: RD_KAFKA_RESP_ERR_NO_ERROR),
                .init(topicPartition: b0, offset: 7, error: RD_KAFKA_RESP_ERR_NO_ERROR),
            ])
        list.setOffset(5, at: 1)
        #expect(list.entries.map(\.offset) == [42, 5, 7])
    }

    @Test("whole topics and bare partitions carry librdkafka's 'no offset'")
    func topicsAndPartitions() {
        let topics = RDKafkaPartitionList(topics: ["x", "y"])
        #expect(
            topics.topicPartitions == [
                TopicPartition(topic: "x", partition: -1), TopicPartition(topic: "y", partition: -1),
            ])
        #expect(topics.entries.allSatisfy { $0.offset == -1001 })
        let partitions = RDKafkaPartitionList([b0, a0])
        #expect(partitions.topicPartitions == [b0, a0], "kept in the order given")
        let empty = RDKafkaPartitionList([TopicPartition]())
        #expect(empty.count == 0)
        #expect(empty.entries.isEmpty)
    }

    @Test("a borrowed list is lent, not destroyed: its owner can still use and destroy it")
    func borrowedListIsNotDestroyed() {
        let owner = RDKafkaPartitionList([a0: 1])
        let seen = RDKafkaPartitionList.withBorrowed(owner.unsafePointer) { borrowed in
            borrowed.setOffset(9, at: 0)
            return borrowed.entries
        }
        #expect(seen.map(\.offset) == [9])
        // Still alive and changed through the borrow (a destroyed list would be freed memory here).
        #expect(owner.entries.map(\.offset) == [9])
    }

    @Test("after every call that builds a partition list, close() finishes: no list outlived its call")
    func closeFinishesAfterListCalls() async throws {
        let cluster = try cluster(topic: "lists", partitions: 2)
        let consumer = try await KafkaConsumer(
            configuration: groupConsumerConfiguration(bootstrap: cluster.bootstrapServers, group: "lists"),
            logger: testLogger("lists")
        )
        let zero = TopicPartition(topic: "lists", partition: 0)
        let one = TopicPartition(topic: "lists", partition: 1)
        try await consumer.assign([zero: .beginning, one: .beginning])
        #expect(try await consumer.assignment() == [zero, one])
        try await consumer.pause([one])
        try await consumer.resume([one])
        _ = try await consumer.poll(maxRecords: 10, maxWait: .milliseconds(100))
        consumer.commit([zero: 0])
        _ = try await consumer.committed([zero, one], timeout: .seconds(10))
        _ = try await consumer.offsets(forTimestamps: [zero: 0], timeout: .seconds(10))
        // rd_kafka_destroy hangs while a partition list is alive; the watchdog would then throw
        // `.timeout` after the configured close timeout instead of returning.
        try await consumer.close()
        await #expect(throws: KafkaError.self) { try await consumer.assignment() }
    }
}
