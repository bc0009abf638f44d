import Logging
import PostgresNIO
import Primitives
import Server
import ServiceLifecycle
import Services
import Storage

/// The intraday reforecast of a process that reads the staffing tables: the source
/// `GET /v1/staffing/intraday` and the MCP `staffing_outlook` tool answer from, and the service
/// exporting `switchboard_staffing_shortfall_agents{queue}` on `/metrics`.
///
/// Any role with a PostgreSQL client that may read the plans, the history and the rollups adds it:
/// ```swift
/// let planner = StaffingPlanner.console(client: postgres, logger: logger)
/// let intraday = IntradayWiring(client: postgres, planner: planner, settings: settings, floor: floor, logger: logger)
/// // routes: planner.routes(settings: settings, floor: floor, intraday: intraday)
/// // MCPWiring(..., staffing: planner, intraday: intraday, ...)
/// // services: [.init(service: postgres), ..., .init(service: floor.publisher)] + intraday.services
/// ```
/// Run one shortfall service per process that serves the metric; the alert takes the largest
/// figure per queue, so replicas exporting the same figure count once.
public struct IntradayWiring: Sendable {
    /// The reforecast over the database.
    public let source: any IntradaySource
    /// Sets `switchboard_staffing_shortfall_agents` every minute and after each slot boundary.
    public let shortfall: StaffingShortfallGauges
    /// Each caller's share of the reader: one plan or reforecast running and four waiting, taken
    /// by `/v1/staffing`, `/v1/staffing/intraday` and each MCP `staffing_outlook` call alike (a
    /// batch of 16 calls holds one turn at a time), each turn on ``executor``'s threads; the
    /// gauges are the process's own and take none.
    public let budget: CallerBudget
    /// The threads plans and reforecasts run on, off the cooperative pool the hook answers from.
    public let executor: ComputeExecutor

    /// - Parameters:
    ///   - client: The process's PostgreSQL client (run as a service before these).
    ///   - planner: The planner whose forecast the reforecast starts from.
    ///   - settings: The floor's time zone.
    ///   - floor: The live floor whose staffed agents and contacts in progress count; `nil` where
    ///     none runs (the plan's agents count as staffed).
    ///   - schema: Opens once the schema is current (a role that migrates); the gauges wait for it.
    ///   - logger: Where the gauges' failures go (at most one line a minute).
    public init(
        client: PostgresClient, planner: StaffingPlanner, settings: Settings, floor: FloorWiring?,
        schema: StartupGate = .opened(), logger: Logger
    ) {
        let source = IntradayPlanner(client: client, logger: logger, planner: planner)
        let executor = ComputeExecutor()
        self.source = source
        self.executor = executor
        self.budget = CallerBudget(executor: executor)
        self.shortfall = StaffingShortfallGauges(
            source: source,
            floor: floor.map {
                FloorStaffing(
                    floor: SwitchboardTools.floorView($0.publisher), source: planner, timeZone: settings.floorTimeZone)
            },
            schema: schema, executor: executor, describe: { StorageError.summary(of: $0) }, logger: logger)
    }

    /// The services to add to the process's group, after the PostgreSQL client and the floor
    /// publisher.
    public var services: [ServiceGroupConfiguration.ServiceConfiguration] {
        [.init(service: shortfall)]
    }
}
