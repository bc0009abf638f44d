import Kafka
import Logging
import Server
import ServiceLifecycle

/// `switchboard serve`: the stateless HTTP role, the IVR hook, the live console and the receiver
/// (run any number of replicas).
///
/// Services, in start order: the metadata producer, the flows reloader, the floor publisher,
/// with `SWITCHBOARD_STAFFING_DATABASE_URL` the staffing reader's PostgreSQL client and its
/// schema check (``StaffingReaderWiring``), the receiver's producer (with
/// `SWITCHBOARD_FIREHOSE_ACCESS_KEYS`; without, the receiver refuses every request), the HTTP
/// server, the readiness gauges, the drain. `/ready/hook` needs the flows only (never Kafka),
/// `/ready/console` Kafka and the floor (never PostgreSQL), `/ready/receiver` Kafka with the three
/// topics; on SIGTERM every `/ready` answers 503 for `SWITCHBOARD_SHUTDOWN_DRAIN_SECONDS` while
/// calls are still answered, then the server closes.
///
/// It refuses to start with the hook or the console streams open (no credentials), unless
/// `SWITCHBOARD_ALLOW_OPEN` names them: a typo in a Secret's key must not ship an open hook. With
/// a surface open it answers only requests to loopback, a private address or a name of
/// `SWITCHBOARD_ALLOWED_HOSTS`, POSTs of JSON, and floor streams of its own `Origin`
/// (``LocalAccessGuard``), so a web page a supervisor visits can neither call it nor read the floor.
public enum ServeRole {
    /// - Throws: ``SettingsError`` naming the credential a surface lacks, a `KafkaError` when the
    ///   Kafka client cannot be created from the settings, or a `StorageError` for a malformed
    ///   `SWITCHBOARD_STAFFING_DATABASE_URL`.
    public static func build(_ context: RoleContext) throws -> ServiceGroup {
        let settings = context.settings
        let logger = Logger(label: "switchboard.serve")
        let open = settings.surfacesWithoutCredentials.filter { $0 == .hook || $0 == .console }
        for surface in open {
            guard settings.allowOpen.contains(surface) else {
                throw SettingsError(
                    key: surface == .hook ? "SWITCHBOARD_HOOK_TOKENS" : "SWITCHBOARD_CONSOLE_TOKENS", value: "",
                    expected:
                        "credentials for the \(surface.rawValue) (\(surface.credentialVariables)): `switchboard serve` never runs it open; SWITCHBOARD_ALLOW_OPEN=\(surface.rawValue) allows it on a private network"
                )
            }
            logger.warning(
                "the \(surface.rawValue) is open (SWITCHBOARD_ALLOW_OPEN): only on a private network",
                metadata: ["credentials": "\(surface.credentialVariables)"])
        }
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(
                common: settings.kafka(bootstrap: settings.kafkaBootstrap, clientID: "switchboard-serve")),
            logger: Logger(label: "kafka.metadata"))
        let hook = HookWiring(settings: settings, logger: logger)
        let floor = FloorWiring(
            settings: settings, bootstrap: settings.kafkaBootstrap, metadata: { try await producer.metadata() })
        let receiver = try ReceiverWiring(
            settings: settings, bootstrap: settings.kafkaBootstrap, open: false, logger: logger)
        let staffing = try StaffingReaderWiring(settings: settings, floor: floor, logger: logger)
        let mcp = MCPWiring(
            settings: settings, hook: hook, floor: floor, staffing: staffing.planner,
            intraday: staffing.intraday, open: false, logger: logger)
        let http = context.http(
            readiness: [
                KafkaReadinessCheck(
                    producer: producer, topics: [settings.agentEventsTopic, settings.contactEventsTopic]),
                hook.readinessCheck,
                floor.readinessCheck,
            ] + (receiver.readinessCheck.map { [$0] } ?? []),
            scopes: RoleContext.serveScopes.merging(ReceiverWiring.scope) { $1 },
            routes: hook.routeProviders + [floor.routes, receiver.routes, mcp.routes]
                + staffing.routes(settings: settings, floor: floor),
            drain: ShutdownDrain(),
            localAccess: open.isEmpty ? nil : LocalAccessGuard(names: settings.allowedHosts, privateNetwork: true))
        return context.group(
            [
                .init(service: producer),
                .init(service: hook.reloadService),
                .init(service: floor.publisher),
            ] + staffing.services + receiver.services + http)
    }
}
