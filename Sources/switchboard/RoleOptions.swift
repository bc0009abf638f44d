import ArgumentParser
import Roles

/// The options every long-running role shares, and the start-up they have in common: settings
/// from the environment with the command line's overrides, then logging and metrics.
struct RoleOptions: ParsableArguments {
    @Option(help: "Kafka bootstrap servers (overrides SWITCHBOARD_KAFKA_BOOTSTRAP).")
    var bootstrap: String?

    @Option(help: "HTTP port for the role's routes, /health, /ready and /metrics (overrides SWITCHBOARD_HTTP_PORT).")
    var httpPort: Int?

    /// The settings with this command line's overrides; logging is set up from them.
    ///
    /// - Parameter kafkaPurpose: why the role cannot run on the embedded cluster (it then needs
    ///   `SWITCHBOARD_KAFKA_BOOTSTRAP` or `--bootstrap`); `nil` when an empty bootstrap is fine.
    func settings(requiringKafkaFor kafkaPurpose: String? = nil) throws -> Settings {
        var settings = try Settings()
        if let bootstrap { settings.kafkaBootstrap = bootstrap }
        if let httpPort { settings.httpPort = httpPort }
        if let kafkaPurpose, settings.kafkaBootstrap.isEmpty {
            throw ValidationError("set SWITCHBOARD_KAFKA_BOOTSTRAP (or --bootstrap): \(kafkaPurpose)")
        }
        LoggingSetup.bootstrap(settings)
        return settings
    }

    /// The role's context: these settings, logging and a metrics registry, bootstrapped once.
    func context(requiringKafkaFor kafkaPurpose: String? = nil) throws -> RoleContext {
        RoleContext.bootstrap(try settings(requiringKafkaFor: kafkaPurpose))
    }
}
