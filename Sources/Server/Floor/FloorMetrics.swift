import Metrics

/// The floor's metrics (swift-metrics; the executable bootstraps Prometheus).
struct FloorMetrics: Sendable {
    /// `switchboard_console_clients`: connected stream clients.
    let clients = Gauge(label: "switchboard_console_clients")
    /// `switchboard_console_messages_sent_total{transport}`: messages written to clients.
    let webSocketMessages = Counter(label: "switchboard_console_messages_sent_total", dimensions: [("transport", "ws")])
    let serverSentMessages = Counter(
        label: "switchboard_console_messages_sent_total", dimensions: [("transport", "sse")])
    /// `switchboard_console_resnapshots_total`: client queues dropped on overflow (each gets a snapshot).
    let resnapshots = Counter(label: "switchboard_console_resnapshots_total")
    /// `switchboard_console_resumes_total{result}`: reconnects served from history or by a snapshot.
    let resumedFromHistory = Counter(label: "switchboard_console_resumes_total", dimensions: [("result", "history")])
    let resumedBySnapshot = Counter(label: "switchboard_console_resumes_total", dimensions: [("result", "snapshot")])
    /// `switchboard_floor_deltas_total`: deltas published.
    let deltas = Counter(label: "switchboard_floor_deltas_total")
    /// `switchboard_floor_events_total`: events folded into the floor.
    let events = Counter(label: "switchboard_floor_events_total")
}
