import Foundation

extension Settings {
    /// The fewest bytes a token, shared secret or access key of Switchboard's own may have.
    public static let minimumCredentialBytes = 16

    /// Refuses credentials that cannot be meant for production: a placeholder left from an
    /// example (`CHANGE-ME…`, `…PLACEHOLDER…`) in any credential, and Switchboard's own tokens,
    /// HMAC secrets and access keys shorter than ``minimumCredentialBytes``.
    ///
    /// Every role reads its settings through ``init(environment:)``, so a role started with such a
    /// value exits before it opens a port or a connection. The error names the variable and never
    /// repeats the value.
    ///
    /// - Throws: ``SettingsError`` naming the variable.
    func validateCredentials(environment: [String: String]) throws {
        func secret(_ key: String) -> [String] { environment[key].flatMap { $0.isEmpty ? nil : [$0] } ?? [] }
        let own: [(key: String, values: [String])] = [
            ("SWITCHBOARD_HOOK_TOKENS", hookTokens),
            ("SWITCHBOARD_HOOK_HMAC_SECRET", secret("SWITCHBOARD_HOOK_HMAC_SECRET")),
            ("SWITCHBOARD_HOOK_HMAC_PREVIOUS_SECRET", secret("SWITCHBOARD_HOOK_HMAC_PREVIOUS_SECRET")),
            ("SWITCHBOARD_CONSOLE_TOKENS", consoleTokens),
            ("SWITCHBOARD_FIREHOSE_ACCESS_KEYS", firehoseAccessKeys),
            ("SWITCHBOARD_MCP_TOKENS", mcp.tokens),
        ]
        for (key, values) in own {
            for value in values {
                if Self.isPlaceholder(value) {
                    throw SettingsError(credential: key, expected: "a real secret, not the example's placeholder")
                }
                if value.utf8.count < Self.minimumCredentialBytes {
                    throw SettingsError(
                        credential: key,
                        expected:
                            "at least \(Self.minimumCredentialBytes) bytes per value (e.g. `openssl rand -hex 24`)")
                }
            }
        }
        let databaseURLs: [(key: String, url: String?)] = [
            ("SWITCHBOARD_DATABASE_URL", databaseURL), ("SWITCHBOARD_STAFFING_DATABASE_URL", staffingDatabaseURL),
        ]
        for (key, url) in databaseURLs {
            if let url, let password = URLComponents(string: url)?.password, Self.isPlaceholder(password) {
                throw SettingsError(credential: key, expected: "the database's real password, not a placeholder")
            }
        }
        for (name, value) in kafkaProperties.sorted(by: { $0.key < $1.key })
        where Self.isSecretProperty(name) && Self.isPlaceholder(value) {
            throw SettingsError(
                credential: "SWITCHBOARD_KAFKA_PROPERTIES",
                expected: "a real value of \(name), not a placeholder")
        }
    }

    /// Whether `value` is a placeholder from an example file rather than a credential.
    static func isPlaceholder(_ value: String) -> Bool {
        let folded = value.uppercased().filter { $0 != "-" && $0 != "_" }
        return ["CHANGEME", "PLACEHOLDER", "REPLACEME"].contains { folded.contains($0) }
    }

    /// Whether a librdkafka property holds a secret (`sasl.password`, `ssl.key.password`,
    /// `sasl.oauthbearer.client.secret`, `ssl.key.pem`, a token, …): its value is never logged
    /// nor shown in an error.
    static func isSecretProperty(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return ["password", "secret", "token", "key"].contains { lowered.contains($0) }
    }
}
