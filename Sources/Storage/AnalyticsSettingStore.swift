import Logging
import PostgresNIO

/// Writes rows of `analytics_setting`, the settings the analyst views read (the attribute
/// allow-list, the service-level threshold, the business time zone).
public struct AnalyticsSettingStore: Sendable {
    /// The key of the contact attribute keys analysts may see (comma-separated).
    public static let attributeKeys = "analyst_attribute_keys"

    private let client: PostgresClient
    private let logger: Logger

    /// Creates the store.
    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Sets the value of an existing key (the migrations create every key with its description).
    public func set(_ key: String, to value: String) async throws {
        try await client.query(
            "UPDATE analytics_setting SET value = \(value) WHERE key = \(key) AND value IS DISTINCT FROM \(value)",
            logger: logger)
    }

    /// The value of a key, or `nil` when absent.
    public func value(of key: String) async throws -> String? {
        let rows = try await client.query("SELECT value FROM analytics_setting WHERE key = \(key)", logger: logger)
        for try await value in rows.decode(String.self) { return value }
        return nil
    }
}
