import CRdKafka

/// A librdkafka partition list (`rd_kafka_topic_partition_list_t`) with a scoped lifetime: an owned
/// list is destroyed when the value ends, so no code frees a list by hand.
///
/// The type is noncopyable and not `Sendable`: a list lives inside the closure that made it, on the
/// consumer's own thread, and ends there, before that thread can run `rd_kafka_consumer_close` or
/// `rd_kafka_destroy` (which hangs while any partition list of the handle is alive). Closures hand
/// back plain Swift values (``topicPartitions``, ``entries``), never the list.
///
/// Lists that librdkafka owns (the rebalance and commit callbacks' arguments) are only borrowed,
/// through ``withBorrowed(_:_:)``; they are not destroyed here.
struct RDKafkaPartitionList: ~Copyable {
    /// One element of a list, copied out.
    struct Entry: Equatable, Sendable {
        var topicPartition: TopicPartition
        var offset: Int64
        var error: rd_kafka_resp_err_t
    }

    /// The C list. Valid while this value lives; pass it straight to a librdkafka call.
    let unsafePointer: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>
    private let isOwned: Bool

    /// A new list of partitions with their offsets, in the order given.
    init(_ entries: [(TopicPartition, Int64)]) {
        // rd_kafka_topic_partition_list_new only fails to allocate memory, which aborts anyway.
        self.unsafePointer = rd_kafka_topic_partition_list_new(Int32(clamping: max(entries.count, 1)))!
        self.isOwned = true
        for (partition, offset) in entries {
            let element = rd_kafka_topic_partition_list_add(unsafePointer, partition.topic, partition.partition)!
            element.pointee.offset = offset
        }
    }

    /// A new list of partitions with their offsets, ordered by topic and partition.
    init(_ offsets: [TopicPartition: Int64]) {
        self.init(offsets.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// A new list of partitions without offsets (`RD_KAFKA_OFFSET_INVALID`), in the order given.
    init(_ partitions: [TopicPartition]) {
        self.init(partitions.map { ($0, KafkaStartOffset.committed.rawOffset) })
    }

    /// A new list of whole topics (partition `RD_KAFKA_PARTITION_UA`), as `rd_kafka_subscribe` takes.
    init(topics: [String]) {
        self.init(topics.map { (TopicPartition(topic: $0, partition: -1), KafkaStartOffset.committed.rawOffset) })
    }

    /// Takes ownership of a list librdkafka returned to the caller (for example from
    /// `rd_kafka_assignment`).
    init(adopting pointer: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) {
        self.unsafePointer = pointer
        self.isOwned = true
    }

    private init(borrowing pointer: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) {
        self.unsafePointer = pointer
        self.isOwned = false
    }

    deinit {
        if isOwned {
            rd_kafka_topic_partition_list_destroy(unsafePointer)
        }
    }

    /// Lends a list that librdkafka owns (a callback's argument) to `body`, without taking it over.
    static func withBorrowed<Result>(
        _ pointer: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>,
        _ body: (borrowing RDKafkaPartitionList) throws -> Result
    ) rethrows -> Result {
        let list = RDKafkaPartitionList(borrowing: pointer)
        return try body(list)
    }

    /// The number of elements.
    var count: Int { Int(unsafePointer.pointee.cnt) }

    /// The elements' topics and partitions, in list order.
    var topicPartitions: [TopicPartition] { entries.map(\.topicPartition) }

    /// The elements (topic, partition, offset and per-element error), in list order.
    var entries: [Entry] {
        guard count > 0, let elements = unsafePointer.pointee.elems else { return [] }
        return (0..<count).map { index in
            let element = elements[index]
            return Entry(
                topicPartition: TopicPartition(
                    topic: element.topic.flatMap { String(validatingCString: $0) } ?? "",
                    partition: element.partition
                ),
                offset: element.offset,
                error: element.err
            )
        }
    }

    /// Sets the offset of the element at `index`.
    func setOffset(_ offset: Int64, at index: Int) {
        precondition(index >= 0 && index < count, "partition list index \(index) out of 0..<\(count)")
        unsafePointer.pointee.elems[index].offset = offset
    }
}

@available(*, unavailable, message: "a partition list stays on the thread (and in the closure) that made it")
extension RDKafkaPartitionList: Sendable {}
