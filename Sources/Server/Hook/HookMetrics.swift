import Metrics

/// The hook's metrics: a latency histogram and requests counted by result and HTTP status.
///
/// Counters of the usual outcomes are created once, so recording a request takes no lock in the
/// metrics factory.
public struct HookMetrics: Sendable {
    /// The latency histogram's name.
    public static let durationLabel = "switchboard_hook_duration_seconds"
    /// The request counter's name.
    public static let requestsLabel = "switchboard_hook_requests_total"
    /// The counter of requests accepted with a v1 signature (`SWITCHBOARD_HOOK_HMAC_ACCEPT_V1`):
    /// when it stays at 0, every caller signs v2 and v1 can be turned off.
    public static let v1SignaturesLabel = "switchboard_hook_hmac_v1_requests_total"
    /// Histogram buckets fit for an answer measured in microseconds (Prometheus's defaults start
    /// at 5 ms). The executable passes them to `PrometheusMetricsFactory.durationHistogramBuckets`.
    public static let durationBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(100), .seconds(1),
    ]

    private let duration = Timer(label: HookMetrics.durationLabel)
    private let counters: [Outcome: Counter]

    init() {
        var counters: [Outcome: Counter] = [:]
        let outcomes =
            [("open", 200), ("closed", 200), ("error", 200)] + [400, 401, 404, 413, 503].map { ("error", $0) }
        for (result, status) in outcomes {
            counters[Outcome(result: result, status: status)] = Counter(
                label: HookMetrics.requestsLabel, dimensions: [("result", result), ("status", String(status))])
        }
        self.counters = counters
    }

    /// Records one request.
    ///
    /// - Parameters:
    ///   - result: `open`, `closed` or `error`.
    ///   - status: The HTTP status code answered.
    ///   - elapsed: The time from the request's start to its answer.
    func record(result: String, status: Int, elapsed: Duration) {
        let (seconds, attoseconds) = elapsed.components
        duration.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        if let counter = counters[Outcome(result: result, status: status)] {
            counter.increment()
        } else {
            Counter(label: HookMetrics.requestsLabel, dimensions: [("result", result), ("status", String(status))])
                .increment()
        }
    }

    private struct Outcome: Hashable {
        var result: String
        var status: Int
    }
}
