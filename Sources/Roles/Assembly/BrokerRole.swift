import Foundation
import Kafka
import Logging
import ServiceLifecycle

/// `switchboard broker`: librdkafka's mock cluster as a process of its own, for local
/// multi-process set-ups (the topology test; several roles on one machine without a real Kafka).
/// Not for production: it keeps ~5 MB per partition and nothing on disk.
public enum BrokerRole {
    /// Creates the cluster and its topics (the settings' three topics, `partitions` each) and
    /// writes the bootstrap address to standard output and to `bootstrapFile` when given.
    ///
    /// - Throws: `KafkaError` when the mock cluster cannot start; file errors.
    public static func build(
        _ context: RoleContext, brokers: Int, partitions: Int, bootstrapFile: String?
    ) throws -> ServiceGroup {
        let cluster = try EmbeddedKafkaCluster(brokers: brokers, logger: Logger(label: "kafka.embedded"))
        for topic in context.settings.topics {
            try cluster.createTopic(topic, partitions: partitions)
        }
        let line = cluster.bootstrapServers
        if let bootstrapFile {
            // Written whole under a temporary name, then renamed: a reader never sees half of it.
            let temporary = bootstrapFile + ".tmp"
            try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, bootstrapFile) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: bootstrapFile])
            }
        }
        FileHandle.standardOutput.write(Data("KAFKA_BOOTSTRAP=\(line)\n".utf8))
        return context.group([.init(service: EmbeddedKafkaService(cluster: cluster))])
    }
}
