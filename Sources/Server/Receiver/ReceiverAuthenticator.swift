import Foundation
import Hummingbird

/// Checks the receiver's credentials against ``ReceiverConfiguration/accessKeys`` (every key
/// compared in constant time, through ``AccessTokens``).
///
/// - Firehose: `X-Amz-Firehose-Access-Key`, copied verbatim from the stream's configuration
///   (with Secrets Manager, the `api_key` of the secret).
/// - EventBridge API destinations: the connection's API key in `X-Api-Key` or as
///   `Authorization: Bearer <key>`, or Basic authorization with the key as the password.
struct ReceiverAuthenticator: Sendable {
    private let keys: AccessTokens
    private let refusesWithoutKeys: Bool

    static let accessKeyField = HTTPFields.Element.Name(ReceiverConfiguration.accessKeyHeader)!
    static let apiKeyField = HTTPFields.Element.Name(ReceiverConfiguration.apiKeyHeader)!

    init(configuration: ReceiverConfiguration) {
        keys = AccessTokens(configuration.accessKeys)
        refusesWithoutKeys = configuration.refusesWithoutKeys
    }

    /// Why a Firehose request is refused, or `nil` to accept it.
    func refusal(firehose headers: HTTPFields) -> String? {
        if keys.isOpen { return refusesWithoutKeys ? Self.noKeys : nil }
        guard let key = headers[Self.accessKeyField] else {
            return "\(ReceiverConfiguration.accessKeyHeader) is missing: set the HTTP endpoint's access key"
        }
        return keys.accepts(key) ? nil : "the access key is not accepted"
    }

    /// Why an EventBridge request is refused, or `nil` to accept it.
    func refusal(eventBridge headers: HTTPFields) -> String? {
        if keys.isOpen { return refusesWithoutKeys ? Self.noKeys : nil }
        var presented: [Substring] = []
        if let key = headers[Self.apiKeyField] { presented.append(key[...]) }
        if let authorization = headers[.authorization] {
            if let bearer = AccessTokens.bearer(authorization) {
                presented.append(bearer)
            } else if let password = Self.basicPassword(authorization) {
                presented.append(password[...])
            }
        }
        guard !presented.isEmpty else {
            return "credentials are required: send the API key as \(ReceiverConfiguration.apiKeyHeader) or "
                + "Authorization: Bearer <key>, or use Basic authorization with the key as the password"
        }
        // Every presented credential is compared, so the time does not tell which one was tried.
        var accepted = false
        for candidate in presented where keys.accepts(candidate) { accepted = true }
        return accepted ? nil : "the API key is not accepted"
    }

    /// The refusal of a production role started without keys.
    static let noKeys =
        "the receiver has no access key configured (SWITCHBOARD_FIREHOSE_ACCESS_KEYS): every request is refused"

    /// The password of `Basic <base64(user:password)>`.
    static func basicPassword(_ authorization: String) -> String? {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return String(text[text.index(after: colon)...])
    }
}
