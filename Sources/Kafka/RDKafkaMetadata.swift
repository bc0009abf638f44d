import CRdKafka

/// Reads cluster metadata through any client handle (a blocking call: run it off the cooperative pool).
enum RDKafkaMetadata {
    static func fetch(_ handle: OpaquePointer, timeoutMilliseconds: Int32) throws -> KafkaClusterMetadata {
        var metadata: UnsafePointer<rd_kafka_metadata>? = nil
        let result = rd_kafka_metadata(handle, 1, nil, &metadata, max(timeoutMilliseconds, 1))
        guard result == RD_KAFKA_RESP_ERR_NO_ERROR, let metadata else {
            throw KafkaError.rdKafka(result, code: .broker, context: "metadata request")
        }
        defer { rd_kafka_metadata_destroy(metadata) }
        var topics: [String: Int] = [:]
        for index in 0..<Int(metadata.pointee.topic_cnt) {
            let topic = metadata.pointee.topics[index]
            if let name = String(validatingCString: topic.topic), topic.err == RD_KAFKA_RESP_ERR_NO_ERROR {
                topics[name] = Int(topic.partition_cnt)
            }
        }
        return KafkaClusterMetadata(brokerCount: Int(metadata.pointee.broker_cnt), topics: topics)
    }
}
