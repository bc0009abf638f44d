import ArgumentParser
import Kafka
import Logging

/// `switchboard-bench topic-dump`: every record of some topics, read back through our own binding
/// from the beginning of each partition to its high watermark, one line per record:
/// `topic partition offset key`. The topology test counts messages with it (what the ingest must
/// have stored exactly once). It fails when a partition's log no longer starts at offset 0: the
/// mock cluster silently deletes a partition's oldest records beyond ~5 MB, and a count over
/// such a log (as `kcat -C -e` gives) comes out short of the rows the ingest rightly stored.
struct TopicDumpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "topic-dump",
        abstract: "Print topic, partition, offset and key of every record of the given topics."
    )

    @Option(help: "Kafka bootstrap servers.")
    var bootstrap: String

    @Option(name: .customLong("topic"), help: "A topic to read (repeatable).")
    var topics: [String]

    @Option(help: "Give up (exit non-zero) when the ends are not reached within this many seconds.")
    var timeout: Int = 60

    func run() async throws {
        let logger = Logger(label: "switchboard.topic-dump")
        let common = KafkaConfiguration(bootstrapServers: bootstrap, clientID: "switchboard-topic-dump")
        let metadata = try await KafkaProducer(
            configuration: KafkaProducerConfiguration(common: common), logger: logger
        ).metadata(timeout: .seconds(10))
        var partitions: [TopicPartition] = []
        for topic in topics {
            guard let count = metadata.topics[topic] else { throw ValidationError("no topic \(topic) in the cluster") }
            partitions += (0..<count).map { TopicPartition(topic: topic, partition: Int32($0)) }
        }
        // A group id only because librdkafka's assign needs one; nothing is committed.
        let consumer = try await KafkaConsumer(
            configuration: KafkaConsumerConfiguration(common: common, groupID: "switchboard-topic-dump"),
            logger: logger
        )
        try await consumer.assign(Dictionary(uniqueKeysWithValues: partitions.map { ($0, .beginning) }))
        var nextOffset: [TopicPartition: Int64] = [:]
        var firstOffset: [TopicPartition: Int64] = [:]
        let deadline = ContinuousClock.now + .seconds(timeout)
        var output = ""
        while true {
            let batch = try await consumer.poll(maxRecords: 10_000, maxWait: .milliseconds(200))
            for record in batch.records {
                let key = record.key.map { String(decoding: $0, as: UTF8.self) } ?? "-"
                output += "\(record.topicPartition.topic) \(record.topicPartition.partition) \(record.offset) \(key)\n"
                if nextOffset[record.topicPartition] == nil { firstOffset[record.topicPartition] = record.offset }
                nextOffset[record.topicPartition] = record.offset + 1
            }
            if !output.isEmpty {
                print(output, terminator: "")
                output = ""
            }
            // Done when every partition's high watermark is known and reached (an empty partition
            // reports low == high).
            var done = true
            for partition in partitions {
                guard let marks = try await consumer.watermarks(partition) else {
                    done = false
                    break
                }
                if marks.high > (nextOffset[partition] ?? marks.low) {
                    done = false
                    break
                }
            }
            if done && batch.records.isEmpty { break }
            if ContinuousClock.now > deadline {
                try? await consumer.close()
                throw ValidationError("the ends of \(topics.joined(separator: ", ")) were not reached in \(timeout) s")
            }
        }
        try await consumer.close()
        // A partition's log starts at offset 0 unless the broker deleted its oldest records (the
        // mock cluster keeps ~5 MB per partition): then the dump is not every record
        // ever produced, and a count built on it would be wrong. Refuse instead.
        let evicted = firstOffset.filter { $0.value > 0 }.keys.sorted()
        if !evicted.isEmpty {
            throw ValidationError(
                "the broker no longer holds the oldest records of \(evicted.map(\.description).joined(separator: ", ")) "
                    + "(first offset > 0): use more partitions or less traffic")
        }
    }
}
