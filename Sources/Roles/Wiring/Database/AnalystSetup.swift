import Logging
import OperatingHours
import PostgresNIO
import Primitives
import Services
import Storage

/// What a migration writes for the analysts besides the schema: the attribute allow-list, the
/// holiday calendar and the business days of `flows/` (``AnalystCalendar``).
public struct AnalystSetup: Sendable {
    /// The contact attribute keys analysts see (`SWITCHBOARD_ANALYST_ATTRIBUTE_KEYS`).
    public var attributeKeys: [String]
    /// The current `flows/`; `nil` leaves the stored business days as they are.
    public var flows: @Sendable () -> FlowSet?

    /// Creates a setup.
    public init(attributeKeys: [String], flows: @escaping @Sendable () -> FlowSet?) {
        self.attributeKeys = attributeKeys
        self.flows = flows
    }

    /// The setup of a role without its own flows reloader: `flows/` is read once, here (blocking
    /// file I/O: call it while building the role, not from a service).
    ///
    /// A missing or invalid `flows/` is logged: the holidays are still written, the stores and
    /// business days stay as the last process that could read `flows/` wrote them.
    public init(settings: Settings, logger: Logger) {
        let flows: FlowSet?
        do {
            flows = try FlowStore.load(directory: settings.flowsDirectory).flows
        } catch {
            logger.warning(
                "flows/ not loaded from \(settings.flowsDirectory); store business days are not rewritten: \(error)")
            flows = nil
        }
        self.init(attributeKeys: settings.analystAttributeKeys, flows: { flows })
    }

    /// What a flows reloader runs after a new valid `flows/` was loaded: rewrite the business
    /// days, once `schema` is open (a failure is logged; the next reload or start retries).
    public static func businessDayRewriter(
        client: PostgresClient, schema: StartupGate, logger: Logger
    ) -> @Sendable (LoadedFlows) async -> Void {
        { loaded in
            await schema.wait()
            do {
                try await AnalystCalendar.syncBusinessDays(client: client, flows: loaded.flows, logger: logger)
            } catch {
                logger.warning("store business days not rewritten after the flows reload: \(error)")
            }
        }
    }

    /// Writes the allow-list, the calendar and the business days.
    /// - Returns: Whether the calendar or the business days were rewritten.
    @discardableResult
    public func apply(client: PostgresClient, logger: Logger) async throws -> Bool {
        try await AnalyticsSettingStore(client: client, logger: logger)
            .set(AnalyticsSettingStore.attributeKeys, to: attributeKeys.joined(separator: ","))
        return try await AnalystCalendar.sync(client: client, flows: flows(), logger: logger)
    }
}
