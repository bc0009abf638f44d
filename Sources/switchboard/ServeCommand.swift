import ArgumentParser
import Roles

/// `switchboard serve`: the stateless HTTP role: IVR hook and live console (scale out freely).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the IVR hook and the live console (stateless; run any number of replicas)."
    )

    @OptionGroup var role: RoleOptions

    func run() async throws {
        try await ServeRole.build(role.context(requiringKafkaFor: "the console reads Kafka")).run()
    }
}
