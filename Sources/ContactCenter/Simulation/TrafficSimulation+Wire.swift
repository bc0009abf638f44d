import Foundation
import Primitives

extension TrafficSimulation {
    /// The queue named `name` as a resource reference with a stable ARN.
    /// The ARN the simulation gives queue `name`: what its CTRs and agent events carry.
    public static func queueArn(_ name: String, instanceArn: String) -> String {
        queueReference(name, instanceArn: instanceArn).arn ?? name
    }

    static func queueReference(_ name: String, instanceArn: String) -> ResourceReference {
        ResourceReference(arn: instanceArn + "/queue/" + StableIdentifier.uuid("queue-" + name), name: name)
    }

    /// `profile` as agent events carry it: a stable ARN from its name, and its queues.
    static func agentRoutingProfile(
        _ profile: TrafficSimulationConfiguration.RoutingProfile, configuration: TrafficSimulationConfiguration
    ) -> AgentRoutingProfile {
        // The profile in force without configured profiles keeps the ARN it always had.
        let key = configuration.routingProfiles.isEmpty ? "routing-profile" : "routing-profile-" + profile.name
        var seen = Set<String>()
        return AgentRoutingProfile(
            arn: configuration.instanceArn + "/routing-profile/" + StableIdentifier.uuid(key),
            name: profile.name,
            inboundQueues: profile.queues.filter { seen.insert($0).inserted }.map {
                TrafficSimulation.queueReference($0, instanceArn: configuration.instanceArn)
            }
        )
    }

    /// `milliseconds` rounded down to the second, as CTR timestamps are.
    static func seconds(_ milliseconds: Int64) -> UTCTimestamp {
        UTCTimestamp(millisecondsSince1970: milliseconds - ((milliseconds % 1_000) + 1_000) % 1_000)
    }

    private static func wholeSeconds(from start: Int64, to end: Int64) -> Int {
        Int((seconds(end).millisecondsSince1970 - seconds(start).millisecondsSince1970) / 1_000)
    }

    mutating func emitContactEvent(_ type: ContactEvent.EventType, _ contact: SimulatedContact, at: Int64) {
        guard configuration.emitsMessages else { return }
        let queue = TrafficSimulation.queueReference(contact.queue, instanceArn: configuration.instanceArn)
        let event = ContactEvent(
            id: newIdentifier(),
            time: TrafficSimulation.seconds(at),
            eventType: type,
            contactId: contact.id,
            account: "123456789012",
            region: "ap-northeast-1",
            resources: [configuration.instanceArn],
            initialContactId: contact.initialId ?? contact.id,
            instanceArn: configuration.instanceArn,
            initiationTimestamp: UTCTimestamp(millisecondsSince1970: contact.initiated),
            disconnectTimestamp: contact.disconnected.map(UTCTimestamp.init(millisecondsSince1970:)),
            queueInfo: contact.enqueued.map {
                ContactEvent.QueueInfo(queueArn: queue.arn, enqueueTimestamp: .init(millisecondsSince1970: $0))
            },
            agentInfo: contact.agent.flatMap { agent in
                contact.connected.map {
                    ContactEvent.AgentInfo(
                        agentArn: agents[agent].arn, connectedToAgentTimestamp: .init(millisecondsSince1970: $0))
                }
            }
        )
        emit(.contactEvent, key: contact.id, value: event.jsonData(), at: at)
    }

    func contactTraceRecord(_ contact: SimulatedContact, lastUpdate: Int64) -> ContactTraceRecord {
        let store = configuration.stores[contact.store]
        let disconnected = contact.disconnected ?? lastUpdate
        var queue: ContactTraceRecord.Queue? = nil
        if let enqueued = contact.enqueued {
            let reference = TrafficSimulation.queueReference(contact.queue, instanceArn: configuration.instanceArn)
            let dequeued = contact.connected ?? disconnected
            queue = ContactTraceRecord.Queue(
                arn: reference.arn,
                name: reference.name,
                enqueueTimestamp: TrafficSimulation.seconds(enqueued),
                dequeueTimestamp: TrafficSimulation.seconds(dequeued),
                duration: TrafficSimulation.wholeSeconds(from: enqueued, to: dequeued)
            )
        }
        var agent: ContactTraceRecord.Agent? = nil
        if let index = contact.agent, let connected = contact.connected {
            let profile = routingProfiles[agents[index].profile]
            let workEnd = contact.workEnd ?? disconnected
            agent = ContactTraceRecord.Agent(
                arn: agents[index].arn,
                username: agents[index].username,
                connectedToAgentTimestamp: TrafficSimulation.seconds(connected),
                agentInteractionDuration: contact.talkSeconds,
                afterContactWorkStartTimestamp: TrafficSimulation.seconds(disconnected),
                afterContactWorkEndTimestamp: TrafficSimulation.seconds(workEnd),
                afterContactWorkDuration: TrafficSimulation.wholeSeconds(from: disconnected, to: workEnd),
                customerHoldDuration: contact.holdSeconds,
                numberOfHolds: contact.holdSeconds > 0 ? 1 : 0,
                longestHoldDuration: contact.holdSeconds,
                routingProfile: ResourceReference(arn: profile.arn, name: profile.name)
            )
        }
        // Amazon Connect leaves the system endpoint empty on callbacks and queue transfers.
        let hasSystemEndpoint = contact.method != "CALLBACK" && contact.method != "QUEUE_TRANSFER"
        return ContactTraceRecord(
            contactId: contact.id,
            initialContactId: contact.initialId,
            previousContactId: contact.previousId,
            nextContactId: contact.nextId,
            initiationMethod: contact.method,
            initiationTimestamp: TrafficSimulation.seconds(contact.initiated),
            connectedToSystemTimestamp: TrafficSimulation.seconds(contact.initiated),
            disconnectTimestamp: TrafficSimulation.seconds(disconnected),
            disconnectReason: contact.disconnectReason,
            lastUpdateTimestamp: TrafficSimulation.seconds(lastUpdate),
            customerEndpoint: .init(address: contact.customerNumber),
            systemEndpoint: hasSystemEndpoint ? .init(address: store.dialedNumber) : nil,
            attributes: ["storeId": store.id, "result": contact.isOpen ? "open" : "closed"],
            queue: queue,
            agent: agent,
            agentConnectionAttempts: agent == nil ? 0 : 1,
            transferCompletedTimestamp: contact.transferCompleted.map(TrafficSimulation.seconds),
            transferredToEndpoint: contact.transferredTo.map { .init(address: $0) }
        )
    }
}

/// Identifiers that depend only on a name, so agents and queues keep their ARNs across runs and seeds.
enum StableIdentifier {
    /// A UUID-formatted identifier derived from `name` (FNV-1a, then SplitMix64).
    static func uuid(_ name: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        var generator = SplitMix64(seed: hash)
        return generator.uuid()
    }
}
