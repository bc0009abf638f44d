import Foundation
import SwitchboardTesting
import Testing

@testable import ContactCenter

@Suite("QueueIntervalMetrics")
struct QueueIntervalMetricsTests {
    typealias F = Fixtures

    /// A CTR enqueued `enqueued` seconds after 09:00Z that waited `waited` seconds, answered
    /// with the given talk, hold and ACW, or abandoned when `talk` is nil.
    private func record(
        _ id: String, queue: String = F.queueTokyo, enqueued: Double, waited: Int, talk: Int? = nil, hold: Int = 0,
        acw: Int = 0, version: Double = 3600
    ) -> ContactTraceRecord {
        let enqueuedAt = F.at(enqueued)
        let left = enqueuedAt.adding(seconds: Int64(waited))
        return ContactTraceRecord(
            contactId: id, initiationTimestamp: enqueuedAt.adding(seconds: -10), lastUpdateTimestamp: F.at(version),
            queue: .init(
                arn: queue, name: F.queueName(queue), enqueueTimestamp: enqueuedAt, dequeueTimestamp: left,
                duration: waited),
            agent: talk.map {
                .init(
                    arn: F.agentHanako, username: "hanako", connectedToAgentTimestamp: left,
                    agentInteractionDuration: $0,
                    afterContactWorkDuration: acw, customerHoldDuration: hold)
            })
    }

    @Test("computes the hand-checked figures of a small day")
    func handComputed() throws {
        let records = [
            // Tokyo, 09:00–09:15
            record("t1", enqueued: 10, waited: 5, talk: 100, hold: 10, acw: 30),  // answered in 5 s, AHT 140
            record("t2", enqueued: 60, waited: 20, talk: 200, acw: 20),  // exactly at the threshold, AHT 220
            record("t3", enqueued: 120, waited: 45, talk: 60),  // late, AHT 60
            record("t4", enqueued: 300, waited: 90),  // abandoned after 90 s
            // Tokyo, 09:15–09:30: enqueued at 09:14:59 belongs to the first interval, 09:15:00 to the second
            record("t5", enqueued: 899, waited: 1, talk: 10),
            record("t6", enqueued: 900, waited: 2, talk: 20),
            // Osaka, 09:00–09:15
            record("o1", queue: F.queueOsaka, enqueued: 5, waited: 30),
            // No queue: not counted.
            ContactTraceRecord(contactId: "ivr-only", initiationTimestamp: F.at(0), lastUpdateTimestamp: F.at(60)),
        ]
        let metrics = QueueIntervalMetrics.compute(from: records)
        #expect(metrics.map(\.queue) == [F.queueTokyo, F.queueOsaka, F.queueTokyo])  // by interval, then ARN
        #expect(metrics.map(\.intervalStart) == [F.at(0), F.at(0), F.at(900)])

        let tokyo = metrics[0]
        #expect(tokyo.queueName == "Tokyo Reservations")
        #expect(tokyo.intervalSeconds == 900)
        #expect(tokyo.queued == 5)
        #expect(tokyo.answered == 4)
        #expect(tokyo.abandoned == 1)
        #expect(tokyo.answeredWithinThreshold == 3)  // t1, t2 (inclusive), t5
        #expect(tokyo.serviceLevel == 3.0 / 5.0)
        #expect(tokyo.abandonmentRate == 1.0 / 5.0)
        #expect(tokyo.totalSpeedOfAnswerSeconds == 5 + 20 + 45 + 1)
        #expect(tokyo.averageSpeedOfAnswerSeconds == 71.0 / 4.0)
        #expect(tokyo.totalHandleTimeSeconds == 140 + 220 + 60 + 10)
        #expect(tokyo.averageHandleTimeSeconds == 430.0 / 4.0)
        #expect(tokyo.maxQueuedTimeSeconds == 90)

        #expect(metrics[2].queued == 1)
        #expect(metrics[2].serviceLevel == 1)

        let osaka = metrics[1]
        #expect(osaka.queued == 1 && osaka.abandoned == 1 && osaka.answered == 0)
        #expect(osaka.averageSpeedOfAnswerSeconds == nil)
        #expect(osaka.averageHandleTimeSeconds == nil)
        #expect(osaka.serviceLevel == 0)
        #expect(osaka.abandonmentRate == 1)
        #expect(osaka.maxQueuedTimeSeconds == 30)
    }

    @Test("only the newest copy of a contact counts; ties go to the later one")
    func versions() {
        let abandonedFirst = record("c1", enqueued: 10, waited: 30, version: 100)
        let answeredLater = record("c1", enqueued: 10, waited: 30, talk: 50, version: 200)
        let staleCopy = record("c1", enqueued: 10, waited: 30, version: 150)
        #expect(QueueIntervalMetrics.compute(from: [abandonedFirst, answeredLater, staleCopy]).first?.answered == 1)
        let tieAnswered = record("c2", enqueued: 10, waited: 5, talk: 50, version: 100)
        let tieAbandoned = record("c2", enqueued: 10, waited: 5, version: 100)
        #expect(QueueIntervalMetrics.compute(from: [tieAnswered, tieAbandoned]).first?.abandoned == 1)
    }

    @Test("falls back to timestamps when Queue.Duration is missing, and honours the interval and threshold")
    func fallbacksAndParameters() {
        var noDuration = record("c1", enqueued: 10, waited: 25, talk: 40)
        noDuration.queue?.duration = nil
        #expect(noDuration.queueDurationSeconds == 25)
        let metrics = QueueIntervalMetrics.compute(
            from: [noDuration], intervalSeconds: 3600, serviceLevelThreshold: .seconds(30))
        #expect(metrics.first?.intervalStart == F.at(0))
        #expect(metrics.first?.answeredWithinThreshold == 1)
        #expect(metrics.first?.totalSpeedOfAnswerSeconds == 25)
    }

    @Test("agrees with the reducer's service level for the same contacts")
    func agreesWithFloor() {
        let records = [
            record("t1", enqueued: 10, waited: 5, talk: 100), record("t2", enqueued: 60, waited: 21, talk: 10),
            record("t3", enqueued: 120, waited: 40),
        ]
        var state = FloorState()
        for (index, ctr) in records.enumerated() {
            let queued = ctr.queue!.enqueueTimestamp!
            let left = ctr.queue!.dequeueTimestamp!
            state.reduce(
                .contact(
                    ContactEvent(
                        id: "q\(index)", time: queued, eventType: .queued, contactId: ctr.contactId,
                        queueInfo: .init(queueArn: ctr.queue!.arn, enqueueTimestamp: queued))),
                now: left.date)
            let type: ContactEvent.EventType = ctr.isAnswered ? .connectedToAgent : .disconnected
            state.reduce(
                .contact(
                    ContactEvent(
                        id: "x\(index)", time: left, eventType: type, contactId: ctr.contactId,
                        agentInfo: ctr.isAnswered
                            ? .init(agentArn: F.agentHanako, connectedToAgentTimestamp: left) : nil)),
                now: left.date)
        }
        let metrics = QueueIntervalMetrics.compute(from: records)
        #expect(metrics.count == 1)
        #expect(state.queues[F.queueTokyo]?.serviceLevel == metrics.first?.serviceLevel)
        #expect(state.queues[F.queueTokyo]?.abandoned == metrics.first?.abandoned)
    }
}
