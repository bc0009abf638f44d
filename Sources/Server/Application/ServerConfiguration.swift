/// Where the HTTP server listens and what it serves.
public struct ServerConfiguration: Sendable {
    /// The address to bind (loopback by default; `0.0.0.0` in containers).
    public var host: String
    /// The TCP port (0 picks a free one, for tests).
    public var port: Int
    /// The server name reported in logs.
    public var serverName: String
    /// Timeouts, head limits and the connection cap.
    public var limits: HTTPLimits

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, serverName: String = "switchboard",
        limits: HTTPLimits = HTTPLimits()
    ) {
        self.host = host
        self.port = port
        self.serverName = serverName
        self.limits = limits
    }
}
