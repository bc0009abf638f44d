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

extension Settings {
    /// The librdkafka properties of `SWITCHBOARD_KAFKA_PROPERTIES`: `name=value` pairs separated by
    /// `,`. A value holding a comma writes it `\,`, and a backslash `\\`; spaces around names and
    /// values are dropped.
    ///
    /// - Throws: ``SettingsError`` naming the variable and the position of a pair without `=`,
    ///   never the pair itself: a pair split off a value is part of a secret.
    static func kafkaProperties(_ text: String) throws -> [String: String] {
        var pairs: [String] = []
        var current = ""
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "," {
                pairs.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaped { current.append("\\") }
        if !text.isEmpty { pairs.append(current) }
        var properties: [String: String] = [:]
        for (index, pair) in pairs.enumerated() {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty else {
                throw SettingsError(
                    credential: "SWITCHBOARD_KAFKA_PROPERTIES",
                    expected:
                        "name=value pairs separated by \",\" (pair \(index + 1) has no name=; a value holding a comma writes it \\,)"
                )
            }
            properties[parts[0]] = parts[1]
        }
        return properties
    }
}
