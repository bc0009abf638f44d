import Kafka

extension Settings {
    /// The librdkafka configuration every Kafka client of every role starts from: the bootstrap
    /// servers and `SWITCHBOARD_KAFKA_PROPERTIES` (security, timeouts, ...), over a role's own
    /// defaults (`defaults` lose to the operator's properties).
    ///
    /// - Parameters:
    ///   - bootstrap: The bootstrap servers (the embedded cluster's under `dev`).
    ///   - clientID: The client's name in broker logs and metrics.
    ///   - defaults: The role's tuning, overridable by the operator.
    public func kafka(bootstrap: String, clientID: String, defaults: [String: String] = [:]) -> KafkaConfiguration {
        KafkaConfiguration(
            bootstrapServers: bootstrap, clientID: clientID,
            properties: defaults.merging(kafkaProperties) { $1 })
    }
}
