import Logging
import Server

/// The MCP endpoint of a process, built from the settings: `/mcp` and its metadata, answering
/// from the hook's flows, the floor publisher and, where given, the intraday reforecast.
///
/// `dev` passes `open: true`: without credentials it is open, with a warning; `serve` without
/// credentials answers `/mcp` with 503 and logs why.
public struct MCPWiring: Sendable {
    /// The server's version in `initialize`.
    public static let version = "1.0.0"

    /// `/mcp` and `/.well-known/oauth-protected-resource`.
    public let routes: any RouteProvider

    /// - Parameters:
    ///   - settings: The `SWITCHBOARD_MCP_*` settings.
    ///   - hook: The hook whose flows the tools read.
    ///   - floor: The floor whose view `queue_status` reads.
    ///   - staffing: The forecast `queue_status` shares multi-queue agents by; `nil` without a
    ///     database.
    ///   - intraday: The reforecast `staffing_outlook` answers from, within its caller budget,
    ///     and the threads every post runs on; `nil` where there is none: the tool is not
    ///     offered, and posts run on the cooperative pool.
    ///   - open: Whether no credentials leaves the endpoint open (dev).
    public init(
        settings: Settings, hook: HookWiring, floor: FloorWiring?, staffing: (any StaffingSource)? = nil,
        intraday: IntradayWiring? = nil, open: Bool, logger: Logger
    ) {
        let mcp = settings.mcp
        let oauth = mcp.oauthIssuer.flatMap { issuer in
            mcp.oauthJWKSURL.map { url in
                MCPConfiguration.OAuth(
                    issuer: issuer,
                    audiences: mcp.oauthAudiences.isEmpty ? mcp.resourceURL.map { [$0] } ?? [] : mcp.oauthAudiences,
                    jwksURL: url, requiredScopes: mcp.oauthScopes)
            }
        }
        let configuration = MCPConfiguration(
            bearerTokens: mcp.tokens, oauth: oauth, allowsUnauthenticated: open, resource: mcp.resourceURL,
            allowedOrigins: mcp.allowedOrigins, assumedHandleSeconds: mcp.assumedHandleSeconds)
        if !configuration.requiresAuthentication {
            if open {
                logger.warning(
                    "the MCP endpoint /mcp is open: set SWITCHBOARD_MCP_TOKENS or SWITCHBOARD_MCP_OAUTH_ISSUER outside development"
                )
            } else {
                logger.warning(
                    "the MCP endpoint /mcp refuses every call: set SWITCHBOARD_MCP_TOKENS or SWITCHBOARD_MCP_OAUTH_ISSUER"
                )
            }
        }
        let server = SwitchboardTools.server(
            flows: hook.store, floor: floor.map { SwitchboardTools.floorView($0.publisher) }, version: Self.version,
            staffing: staffing, timeZone: settings.floorTimeZone, assumedHandleSeconds: mcp.assumedHandleSeconds,
            intraday: intraday?.source, staffingBudget: intraday?.budget)
        routes = MCPRoutes(
            server: server, configuration: configuration, logger: Logger(label: "switchboard.mcp"),
            executor: intraday?.executor)
    }
}
