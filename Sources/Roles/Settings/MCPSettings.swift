import Foundation
import Server

/// The MCP endpoint's settings (`SWITCHBOARD_MCP_*`), part of ``Settings``.
public struct MCPSettings: Sendable {
    /// `SWITCHBOARD_MCP_TOKENS`: comma-separated static bearer tokens (each at least
    /// ``Settings/minimumCredentialBytes``, no placeholder: ``Settings`` checks them with the
    /// other credentials).
    public var tokens: [String]
    /// `SWITCHBOARD_MCP_OAUTH_ISSUER`: the OAuth 2.0 issuer whose JWT access tokens are accepted.
    public var oauthIssuer: String?
    /// `SWITCHBOARD_MCP_OAUTH_AUDIENCE`: comma-separated accepted audiences (`aud`, or `client_id`
    /// for tokens without `aud`, as Amazon Cognito issues them); defaults to the resource URL.
    public var oauthAudiences: [String]
    /// `SWITCHBOARD_MCP_OAUTH_JWKS_URL`: the issuer's JWKS; defaults to `<issuer>/.well-known/jwks.json`.
    public var oauthJWKSURL: URL?
    /// `SWITCHBOARD_MCP_OAUTH_SCOPES`: comma- or space-separated scopes an access token must all
    /// hold (`scope` or `scp`); empty for none.
    public var oauthScopes: [String]
    /// `SWITCHBOARD_MCP_RESOURCE_URL`: the endpoint's public URL, e.g. `https://switchboard.example.com/mcp`.
    public var resourceURL: String?
    /// `SWITCHBOARD_MCP_ALLOWED_ORIGINS`: comma-separated browser origins allowed besides loopback.
    public var allowedOrigins: [String]
    /// `SWITCHBOARD_MCP_HANDLE_SECONDS`: the handle time `queue_status` assumes (default 300).
    public var assumedHandleSeconds: Int

    /// Reads the settings.
    ///
    /// - Throws: ``SettingsError`` naming the variable and what it needs.
    public init(environment: [String: String]) throws {
        func string(_ key: String) -> String? {
            environment[key].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        func list(_ key: String) -> [String] {
            (string(key) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        tokens = list("SWITCHBOARD_MCP_TOKENS")
        oauthIssuer = string("SWITCHBOARD_MCP_OAUTH_ISSUER")
        resourceURL = string("SWITCHBOARD_MCP_RESOURCE_URL")
        oauthAudiences = list("SWITCHBOARD_MCP_OAUTH_AUDIENCE")
        oauthScopes = (string("SWITCHBOARD_MCP_OAUTH_SCOPES") ?? "")
            .split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        if let text = string("SWITCHBOARD_MCP_OAUTH_JWKS_URL") {
            guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http" else {
                throw SettingsError(key: "SWITCHBOARD_MCP_OAUTH_JWKS_URL", value: text, expected: "an https URL")
            }
            oauthJWKSURL = url
        } else {
            oauthJWKSURL = oauthIssuer.flatMap { URL(string: $0.hasSuffix("/") ? $0 : $0 + "/") }
                .map { $0.appendingPathComponent(".well-known/jwks.json") }
        }
        // The signing keys decide who may call: never over plain HTTP, but to this machine (tests).
        if oauthIssuer != nil, let url = oauthJWKSURL, !MCPConfiguration.OAuth.isAllowedJWKSURL(url) {
            throw SettingsError(
                key: oauthIssuer != nil && string("SWITCHBOARD_MCP_OAUTH_JWKS_URL") == nil
                    ? "SWITCHBOARD_MCP_OAUTH_ISSUER" : "SWITCHBOARD_MCP_OAUTH_JWKS_URL",
                value: url.absoluteString, expected: "an https URL for the issuer's JWKS (http only to a loopback host)"
            )
        }
        if let issuer = oauthIssuer, oauthAudiences.isEmpty, resourceURL == nil {
            throw SettingsError(
                key: "SWITCHBOARD_MCP_OAUTH_AUDIENCE", value: "",
                expected: "the audience (or client ids) of \(issuer)'s tokens, or SWITCHBOARD_MCP_RESOURCE_URL")
        }
        allowedOrigins = list("SWITCHBOARD_MCP_ALLOWED_ORIGINS")
        guard let handle = Int(string("SWITCHBOARD_MCP_HANDLE_SECONDS") ?? "300"), (1...7_200).contains(handle) else {
            throw SettingsError(
                key: "SWITCHBOARD_MCP_HANDLE_SECONDS", value: string("SWITCHBOARD_MCP_HANDLE_SECONDS") ?? "",
                expected: "an integer in 1...7200")
        }
        assumedHandleSeconds = handle
    }
}
