import Metrics
import Synchronization

/// The HTTP connections of the process: how many are open in each phase
/// (`switchboard_http_connections{state}`), and why the server closed the ones it closed
/// (`switchboard_http_connections_closed_total{reason}`).
///
/// One instance is shared by every connection of a server; counts are atomics, so connections on
/// different event loops update them without a lock.
public final class HTTPConnectionMetrics: Sendable {
    /// The phase a connection is in.
    public enum State: Int, CaseIterable, Sendable {
        /// Waiting for a request (a new connection, or a keep-alive one between requests).
        case idle
        /// Receiving a request head or body.
        case reading
        /// Its request is being answered (streams included).
        case active
        /// Upgraded to a WebSocket.
        case upgraded

        var label: String {
            switch self {
            case .idle: "idle"
            case .reading: "reading"
            case .active: "active"
            case .upgraded: "upgraded"
            }
        }
    }

    /// Why the server closed a connection.
    public enum CloseReason: String, CaseIterable, Sendable {
        /// A keep-alive connection waited longer than the idle timeout for its next request.
        case idle
        /// A request head did not arrive within the header timeout.
        case headerTimeout = "header_timeout"
        /// A request body made no progress within the body timeout.
        case bodyTimeout = "body_timeout"
        /// The request head could not be parsed (400).
        case malformed
        /// The request head was over the size or line limit (431).
        case oversize
        /// The connection was over the cap (closed at once, or after a health answer).
        case cap
        /// The client did not read what it was sent within the write-stall timeout.
        case writeStall = "write_stall"
        /// An error answer was sent before the request body was read.
        case unreadBody = "unread_body"
    }

    private let open = Atomic<Int>(0)
    private let idleCount = Atomic<Int>(0)
    private let readingCount = Atomic<Int>(0)
    private let activeCount = Atomic<Int>(0)
    private let upgradedCount = Atomic<Int>(0)
    private let gauges: [Gauge]
    private let openGauge: Gauge
    private let closed: [CloseReason: Counter]

    /// Creates the metrics (registered with the process's metrics factory).
    public init() {
        gauges = State.allCases.map { Gauge(label: "switchboard_http_connections", dimensions: [("state", $0.label)]) }
        openGauge = Gauge(label: "switchboard_http_connections", dimensions: [("state", "open")])
        var closed: [CloseReason: Counter] = [:]
        for reason in CloseReason.allCases {
            closed[reason] = Counter(
                label: "switchboard_http_connections_closed_total", dimensions: [("reason", reason.rawValue)])
        }
        self.closed = closed
    }

    /// The connections open now.
    public var openConnections: Int { open.load(ordering: .relaxed) }

    /// Counts a new connection; returns how many are open with it.
    func opened() -> Int {
        let total = open.add(1, ordering: .relaxed).newValue
        openGauge.record(total)
        return total
    }

    /// Counts a connection gone.
    func closedConnection() {
        openGauge.record(open.subtract(1, ordering: .relaxed).newValue)
    }

    /// Moves a connection from one phase to another (`nil`: none, when it opens or closes).
    func move(from old: State?, to new: State?) {
        guard old != new else { return }
        if let old { gauges[old.rawValue].record(add(-1, to: old)) }
        if let new { gauges[new.rawValue].record(add(1, to: new)) }
    }

    /// Adds `delta` to the count of `state`; returns the new count.
    private func add(_ delta: Int, to state: State) -> Int {
        switch state {
        case .idle: idleCount.add(delta, ordering: .relaxed).newValue
        case .reading: readingCount.add(delta, ordering: .relaxed).newValue
        case .active: activeCount.add(delta, ordering: .relaxed).newValue
        case .upgraded: upgradedCount.add(delta, ordering: .relaxed).newValue
        }
    }

    /// Counts a connection the server closed for `reason`.
    func closed(_ reason: CloseReason) {
        closed[reason]?.increment()
    }
}
