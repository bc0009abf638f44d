import ContactCenter
import Metrics

/// The traffic simulator's Prometheus metrics (`switchboard simulate` serves them on its own
/// port; under `switchboard dev` they join the server's `/metrics`).
///
/// - `switchboard_simulator_messages_total{kind}`: messages produced, by `contact_record`,
///   `agent_event`, `contact_event`;
/// - `switchboard_simulator_calls_total{outcome}`: `arrived`, `closed_in_flow`, `queued`,
///   `answered`, `abandoned`;
/// - `switchboard_simulator_ctr_copies_total{copy}`: re-emitted CTRs, `update` or `duplicate`;
/// - `switchboard_simulator_hook_calls_total{result}`: the hook's answers to the simulated IVR,
///   `open`, `closed` or `failed` (a failure is treated as open, as an IVR's error branch would);
/// - `switchboard_simulator_time_seconds`: the simulated clock (Unix seconds).
struct SimulatorMetrics: Sendable {
    private let contactRecords = Counter(
        label: "switchboard_simulator_messages_total", dimensions: [("kind", "contact_record")])
    private let agentEvents = Counter(
        label: "switchboard_simulator_messages_total", dimensions: [("kind", "agent_event")])
    private let contactEvents = Counter(
        label: "switchboard_simulator_messages_total", dimensions: [("kind", "contact_event")])
    private let arrived = Counter(label: "switchboard_simulator_calls_total", dimensions: [("outcome", "arrived")])
    private let closedInFlow = Counter(
        label: "switchboard_simulator_calls_total", dimensions: [("outcome", "closed_in_flow")])
    private let queued = Counter(label: "switchboard_simulator_calls_total", dimensions: [("outcome", "queued")])
    private let answered = Counter(label: "switchboard_simulator_calls_total", dimensions: [("outcome", "answered")])
    private let abandoned = Counter(label: "switchboard_simulator_calls_total", dimensions: [("outcome", "abandoned")])
    private let updates = Counter(label: "switchboard_simulator_ctr_copies_total", dimensions: [("copy", "update")])
    private let duplicates = Counter(
        label: "switchboard_simulator_ctr_copies_total", dimensions: [("copy", "duplicate")])
    private let hookOpen = Counter(label: "switchboard_simulator_hook_calls_total", dimensions: [("result", "open")])
    private let hookClosed = Counter(
        label: "switchboard_simulator_hook_calls_total", dimensions: [("result", "closed")])
    private let hookFailed = Counter(
        label: "switchboard_simulator_hook_calls_total", dimensions: [("result", "failed")])
    private let simulatedTime = Gauge(label: "switchboard_simulator_time_seconds")

    /// Counts one produced message.
    func produced(_ kind: SimulatedMessage.Kind) {
        switch kind {
        case .contactRecord: contactRecords.increment()
        case .agentEvent: agentEvents.increment()
        case .contactEvent: contactEvents.increment()
        }
    }

    /// Adds what the counters grew by since `previous`, and the simulated clock.
    func advanced(from previous: SimulationCounters, to current: SimulationCounters, at instant: UTCTimestamp) {
        arrived.increment(by: current.arrivals - previous.arrivals)
        closedInFlow.increment(by: current.closedInFlow - previous.closedInFlow)
        queued.increment(by: current.queued - previous.queued)
        answered.increment(by: current.answered - previous.answered)
        abandoned.increment(by: current.abandoned - previous.abandoned)
        updates.increment(by: current.updates - previous.updates)
        duplicates.increment(by: current.duplicates - previous.duplicates)
        simulatedTime.record(instant.date.timeIntervalSince1970)
    }

    /// Counts one answer of the hook.
    func hookAnswered(open: Bool?) {
        switch open {
        case true?: hookOpen.increment()
        case false?: hookClosed.increment()
        case nil: hookFailed.increment()
        }
    }
}
