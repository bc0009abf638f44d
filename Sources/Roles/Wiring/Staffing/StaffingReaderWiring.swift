import Logging
import PostgresNIO
import Primitives
import Server
import ServiceLifecycle
import Services
import Storage

/// `serve`'s staffing: with `SWITCHBOARD_STAFFING_DATABASE_URL`, a PostgreSQL client logged in as
/// a member of `switchboard_staffing_reader`, the schema checked once at start (writing nothing),
/// and the read-only planner (``StaffingPlanner/reader(client:logger:)``) behind `/v1/staffing`,
/// `/v1/staffing/intraday` (the reforecast reads today's contacts and the stored plan, never
/// writes), the MCP tools and `switchboard_staffing_shortfall_agents` (``IntradayWiring``). Without it, none of these, and one line in the log says so.
///
/// No readiness check depends on this database: the hook and the floor never need it, and a
/// PostgreSQL outage answers `/v1/staffing` with 500 (logged) until it is back, while `/ready`
/// and `/ready/console` stay as Kafka and the floor make them.
public struct StaffingReaderWiring {
    /// The read-only planner; `nil` when staffing is off.
    public let planner: StaffingPlanner?
    /// The intraday reforecast over the same planner, and the shortfall gauges it feeds; `nil`
    /// when staffing is off.
    public let intraday: IntradayWiring?
    /// The services, in start order: the PostgreSQL client, then the schema check (which ends the
    /// role, naming the missing migration, when the schema is behind the binary).
    public let services: [ServiceGroupConfiguration.ServiceConfiguration]

    /// - Throws: ``StorageError`` `.configuration` for a malformed URL (its password shown as `***`).
    /// - Parameter floor: The live floor whose staffed agents and contacts in progress the
    ///   reforecast of now counts.
    public init(settings: Settings, floor: FloorWiring?, logger: Logger) throws {
        guard let database = try settings.staffingDatabaseConfiguration() else {
            logger.info(
                "staffing is off: SWITCHBOARD_STAFFING_DATABASE_URL is not set (no /v1/staffing; queue_status shares agents equally)"
            )
            planner = nil
            intraday = nil
            services = []
            return
        }
        logger.info(
            "staffing reads \(database.redactedURL) (sslmode=\(database.tlsMode)) as a member of switchboard_staffing_reader"
        )
        let client = PostgresClient(configuration: database.clientConfiguration, backgroundLogger: logger)
        let reader = StaffingPlanner.reader(client: client, logger: logger)
        let schema = StartupGate()
        let reforecast = IntradayWiring(
            client: client, planner: reader, settings: settings, floor: floor, schema: schema, logger: logger)
        planner = reader
        intraday = reforecast
        services =
            [
                .init(service: client),
                .init(
                    service: MigrationService(
                        client: client, gate: schema, analysts: nil, mode: .verify, logger: logger)),
            ] + reforecast.services
    }

    /// `/v1/staffing` and `/v1/staffing/intraday` with the console's tokens and the agents staffed
    /// on `floor`; none when staffing is off (the paths answer 404).
    public func routes(settings: Settings, floor: FloorWiring) -> [any RouteProvider] {
        planner.map { [$0.routes(settings: settings, floor: floor, intraday: intraday)] } ?? []
    }
}
