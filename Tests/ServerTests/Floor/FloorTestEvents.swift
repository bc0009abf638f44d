import ContactCenter
import Foundation

/// Builders of floor events for the floor tests.
enum FloorTestEvents {
    static let instance = "arn:aws:connect:ap-northeast-1:123456789012:instance/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"
    static let queue = ResourceReference(arn: "\(instance)/queue/q-tokyo", name: "Tokyo Reservations")

    /// 2026-11-20T09:00:00Z (18:00 in Tokyo), plus `seconds`.
    static func at(_ seconds: Double) -> UTCTimestamp {
        UTCTimestamp(iso8601: "2026-11-20T09:00:00Z")!.adding(milliseconds: Int64(seconds * 1000))
    }

    static func agentArn(_ index: Int) -> String { "\(instance)/agent/agent-\(index)" }

    /// A `STATE_CHANGE` of agent `index` to `status` at `seconds`, with a unique event id.
    static func agent(
        _ index: Int,
        status: String = "Available",
        type: AgentStatus.Kind = .routable,
        at seconds: Double,
        eventType: AgentEvent.EventType = .stateChange,
        statusSince: Double? = nil,
        contacts: [AgentContact] = [],
        eventID: String? = nil
    ) -> FloorEvent {
        .agent(
            AgentEvent(
                agentArn: agentArn(index),
                eventId: eventID ?? "ev-\(index)-\(seconds)-\(status)-\(eventType)",
                eventTimestamp: at(seconds),
                eventType: eventType,
                currentSnapshot: AgentSnapshot(
                    status: AgentStatus(name: status, type: type, startTimestamp: at(statusSince ?? seconds)),
                    configuration: AgentConfiguration(
                        username: "agent\(index)", firstName: "Agent", lastName: String(format: "%03d", index),
                        routingProfile: AgentRoutingProfile(arn: nil, name: "Restaurants", inboundQueues: [queue])),
                    contacts: contacts)))
    }

    /// A contact event of `contactID` queued in the test queue.
    static func contact(_ contactID: String, _ type: ContactEvent.EventType, at seconds: Double) -> FloorEvent {
        .contact(
            ContactEvent(
                id: "ce-\(contactID)-\(type)", time: at(seconds), eventType: type, contactId: contactID,
                queueInfo: ContactEvent.QueueInfo(queueArn: queue.arn, enqueueTimestamp: at(seconds))))
    }
}

/// One decoded stream message.
struct DecodedFloorMessage: Decodable, Sendable {
    var type: String
    var seq: UInt64
    var epoch: String
    var view: FloorView?
    var delta: FloorDelta?

    init(json: String) throws {
        self = try JSONDecoder().decode(DecodedFloorMessage.self, from: Data(json.utf8))
    }
}

/// Folds decoded messages as a client does; fails on a gap.
struct FloorClientModel {
    var view: FloorView?
    var seq: UInt64?
    var snapshots = 0
    var deltas: [UInt64] = []

    mutating func apply(_ message: DecodedFloorMessage) throws {
        switch message.type {
        case "snapshot":
            view = message.view
            seq = message.seq
            snapshots += 1
        case "delta":
            guard let current = view, let seq, message.seq == seq + 1, let delta = message.delta else {
                throw FloorClientError.gap(expected: (seq ?? 0) + 1, got: message.seq)
            }
            view = current.applying(delta)
            self.seq = message.seq
            deltas.append(message.seq)
        default:
            break
        }
    }
}

enum FloorClientError: Error {
    case gap(expected: UInt64, got: UInt64)
}
