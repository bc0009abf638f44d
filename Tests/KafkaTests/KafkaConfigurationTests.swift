import Testing

@testable import Kafka

@Suite("Consumer configuration")
struct KafkaConfigurationTests {
    private func properties(_ given: [String: String]) -> [String: String] {
        let configuration = KafkaConsumerConfiguration(
            common: KafkaConfiguration(bootstrapServers: "127.0.0.1:1", properties: given), groupID: "g")
        return Dictionary(configuration.librdkafkaProperties, uniquingKeysWith: { $1 })
    }

    @Test("a fetch limit brings a receive limit twice as large, unless one is given")
    func receiveLimitFollowsFetchLimit() {
        #expect(properties(["fetch.max.bytes": "104857600"])["receive.message.max.bytes"] == "209715200")
        #expect(
            properties(["fetch.max.bytes": "104857600", "receive.message.max.bytes": "123456789"])[
                "receive.message.max.bytes"] == "123456789")
        #expect(properties(["fetch.max.bytes": "2000000000"])["receive.message.max.bytes"] == "2147483647")
        #expect(properties([:])["receive.message.max.bytes"] == nil)
    }
}
