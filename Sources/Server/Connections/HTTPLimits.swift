/// How long an HTTP connection may take over each phase, how large a request head may be, and
/// how many connections the process holds: what keeps a broken client or an attacker from
/// holding a file descriptor forever.
///
/// The defaults follow nginx's and the CIS benchmark's: a head must arrive within 10 s
/// (`client_header_timeout`), a body must make progress every 30 s (`client_body_timeout`), and
/// an idle keep-alive connection closes after 75 s (`keepalive_timeout`), above a load
/// balancer's usual 60 s so that the balancer, not the server, closes its idle connections.
public struct HTTPLimits: Sendable {
    /// How long a request head may take to arrive, from the connection's start or from the first
    /// byte of a keep-alive connection's next request (`SWITCHBOARD_HTTP_HEADER_TIMEOUT_SECONDS`).
    public var headerTimeout: Duration
    /// The longest wait between two reads of a request body (`SWITCHBOARD_HTTP_BODY_TIMEOUT_SECONDS`).
    public var bodyTimeout: Duration
    /// How long a keep-alive connection may wait for its next request (`SWITCHBOARD_HTTP_IDLE_TIMEOUT_SECONDS`).
    public var idleTimeout: Duration
    /// How long a connection may stay unwritable (its client not reading what it was sent: a
    /// stream client gone quiet, a stalled download) before it is closed. The per-client queues
    /// bound the memory meanwhile; this frees the connection.
    public var writeStallTimeout: Duration
    /// How often a WebSocket peer is pinged. A peer that has not answered a ping by the next one
    /// is closed (WebSocket code 1001), so a stream client that vanished without a close (a
    /// laptop lid shut, a NAT entry dropped) is noticed within two periods.
    public var webSocketPingInterval: Duration
    /// The most connections served in full at once (`SWITCHBOARD_HTTP_MAX_CONNECTIONS`).
    ///
    /// Up to ``reservedConnections`` more are accepted for `/health`, `/ready` and `/metrics`
    /// only, each closed after one answer, so probes and scrapes get through at the cap; beyond
    /// those, a connection is closed as soon as it is accepted.
    public var maxConnections: Int
    /// The connections beyond ``maxConnections`` kept for health checks and metrics.
    public var reservedConnections: Int
    /// The largest request head in bytes (request line and header lines); larger ones get 431.
    public var maxHeadBytes: Int
    /// The most header lines of a request; more get 431.
    public var maxHeaderLines: Int
    /// The listen queue: connections the kernel completes before the server accepts them (Linux
    /// caps it at `net.core.somaxconn`, 4,096 by default). Hummingbird's 256 overflows when a
    /// flood opens thousands of connections together: the kernel then drops the handshakes
    /// beyond it, and a caller's new connection meanwhile waits for a SYN retransmission (1 s).
    public var acceptBacklog: Int

    /// Creates limits; see the properties.
    public init(
        headerTimeout: Duration = .seconds(10),
        bodyTimeout: Duration = .seconds(30),
        idleTimeout: Duration = .seconds(75),
        writeStallTimeout: Duration = .seconds(30),
        webSocketPingInterval: Duration = .seconds(30),
        maxConnections: Int = HTTPLimits.defaultMaxConnections(),
        reservedConnections: Int = 64,
        maxHeadBytes: Int = 32 * 1024,
        maxHeaderLines: Int = 100,
        acceptBacklog: Int = 4_096
    ) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.writeStallTimeout = writeStallTimeout
        self.webSocketPingInterval = webSocketPingInterval
        self.maxConnections = maxConnections
        self.reservedConnections = reservedConnections
        self.maxHeadBytes = maxHeadBytes
        self.maxHeaderLines = maxHeaderLines
        self.acceptBacklog = acceptBacklog
    }

    /// The default connection cap: the process's file-descriptor limit less 1,024 descriptors of
    /// headroom (Kafka and PostgreSQL sockets, files, the reserve), at least 64 and at most
    /// 10,000 (about 10 KB of memory each when idle; a hook behind a load balancer needs far fewer).
    public static func defaultMaxConnections(fileDescriptorLimit: Int = FileDescriptorLimit.current) -> Int {
        min(10_000, max(64, fileDescriptorLimit - 1_024))
    }
}
