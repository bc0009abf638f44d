import Foundation
import Server

/// A surface of the HTTP server that can run without credentials: what `SWITCHBOARD_ALLOW_OPEN`
/// names, and what `serve` and `dev` check before they start.
public enum OpenSurface: String, Sendable, Hashable, CaseIterable {
    /// The IVR hook: `SWITCHBOARD_HOOK_TOKENS` or `SWITCHBOARD_HOOK_HMAC_SECRET`.
    case hook
    /// The console's floor streams: `SWITCHBOARD_CONSOLE_TOKENS`.
    case console
    /// The receiver: `SWITCHBOARD_FIREHOSE_ACCESS_KEYS` (open in `dev` only).
    case receiver
    /// `/mcp`: `SWITCHBOARD_MCP_TOKENS` or `SWITCHBOARD_MCP_OAUTH_ISSUER` (open in `dev` only).
    case mcp

    /// The variables that give the surface its credentials, as a message names them.
    public var credentialVariables: String {
        switch self {
        case .hook: "SWITCHBOARD_HOOK_TOKENS or SWITCHBOARD_HOOK_HMAC_SECRET"
        case .console: "SWITCHBOARD_CONSOLE_TOKENS"
        case .receiver: "SWITCHBOARD_FIREHOSE_ACCESS_KEYS"
        case .mcp: "SWITCHBOARD_MCP_TOKENS or SWITCHBOARD_MCP_OAUTH_ISSUER"
        }
    }
}

extension Settings {
    /// The surfaces that have no credentials in these settings, in a stable order.
    public var surfacesWithoutCredentials: [OpenSurface] {
        OpenSurface.allCases.filter { surface in
            switch surface {
            case .hook: hookTokens.isEmpty && hookHMACSecrets.isEmpty
            case .console: consoleTokens.isEmpty
            case .receiver: firehoseAccessKeys.isEmpty
            case .mcp: mcp.tokens.isEmpty && mcp.oauthIssuer == nil
            }
        }
    }

    /// Whether ``httpHost`` binds loopback only (`127.0.0.0/8`, `::1`, `localhost`).
    public var bindsLoopbackOnly: Bool {
        LocalAccessGuard.isLoopback(host: httpHost.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
    }
}
