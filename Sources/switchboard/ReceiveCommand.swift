import ArgumentParser
import Roles

/// `switchboard receive`: the Firehose and EventBridge receiver alone (stateless; scale out freely).
struct ReceiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receive",
        abstract:
            "Receive Amazon Connect's streams from Amazon Data Firehose and EventBridge into Kafka (stateless; run "
            + "any number of replicas)."
    )

    @OptionGroup var role: RoleOptions

    func run() async throws {
        try await ReceiveRole.build(role.context(requiringKafkaFor: "the receiver produces to Kafka")).run()
    }
}
