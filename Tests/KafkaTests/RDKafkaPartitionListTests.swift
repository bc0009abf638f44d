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
}
