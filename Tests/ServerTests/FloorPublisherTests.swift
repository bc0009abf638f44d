import ContactCenter
import Foundation
import Testing

@testable import Server

@Suite("Floor publisher: one serial path from events to numbered deltas")
struct FloorPublisherTests {
    typealias E = FloorTestEvents

    /// A publisher that publishes after every `ingest`, at a fixed wall clock.
    func makePublisher(history: Int = 1_000, queue: Int = 256) -> FloorPublisher {
        FloorPublisher(
            configuration: FloorPublisherConfiguration(
                historyCapacity: history, subscriberQueueCapacity: queue, coalescingInterval: .zero),
            now: { E.at(60).date })
    }

    /// Everything queued now, without waiting (with coalescing off, `ingest` has published).
    func drain(_ subscription: FloorSubscription) -> [DecodedFloorMessage] {
        guard case .messages(let batch) = subscription.poll() else { return [] }
        return batch.map { try! DecodedFloorMessage(json: $0.json) }
    }

    @Test("a new subscriber gets a snapshot, then deltas with consecutive sequence numbers")
    func snapshotThenDeltas() async throws {
        let publisher = makePublisher()
        await publisher.ingest([E.agent(1, at: 1)])
        let subscription = await publisher.subscribe()
        await publisher.ingest([E.agent(2, at: 2)])
        await publisher.ingest([E.agent(1, status: "Lunch", type: .custom, at: 3)])
        let messages = drain(subscription)
        #expect(messages.map(\.type) == ["snapshot", "delta", "delta"])
        #expect(messages.map(\.seq) == [1, 2, 3])
        #expect(messages[0].view?.agents.map(\.name) == ["Agent 001"])
        #expect(messages[2].delta?.agents.map(\.status) == ["Lunch"])
        #expect(messages[2].delta?.summary.customStatus == 1)

        var client = FloorClientModel()
        for message in messages { try client.apply(message) }
        #expect(client.view == (await publisher.currentView().view))
    }

    @Test("events that leave the view unchanged publish nothing: duplicates, heartbeats, ticks")
    func noOpDropped() async throws {
        let publisher = makePublisher()
        await publisher.ingest([E.agent(1, at: 1)])
        let subscription = await publisher.subscribe()
        await publisher.ingest([E.agent(1, at: 1)])  // the same event id: a duplicate
        await publisher.ingest([E.agent(1, at: 30, eventType: .heartBeat, statusSince: 1)])  // same snapshot
        await publisher.ingest([.tick])
        let messages = drain(subscription)
        #expect(messages.map(\.type) == ["snapshot"])
        #expect(await publisher.currentView().seq == 1)
    }

    @Test("a client resuming with since gets exactly the deltas it missed, byte for byte")
    func resumeFromHistory() async throws {
        let publisher = makePublisher()
        let first = await publisher.subscribe()
        for index in 1...5 { await publisher.ingest([E.agent(index, at: Double(index))]) }
        let live = drain(first).filter { $0.type == "delta" }
        #expect(live.map(\.seq) == [1, 2, 3, 4, 5])

        let resumed = await publisher.subscribe(since: FloorCursor(epoch: publisher.epoch, seq: 2))
        let missed = drain(resumed)
        #expect(missed.map(\.type) == ["delta", "delta", "delta"])
        #expect(missed.map(\.seq) == [3, 4, 5])
        #expect(missed.map(\.delta) == Array(live[2...]).map(\.delta))

        let upToDate = await publisher.subscribe(since: FloorCursor(seq: 5))
        #expect(drain(upToDate).isEmpty)
    }

    @Test(
        "a cursor the history cannot serve gets a fresh snapshot",
        arguments: [
            FloorCursor(seq: 1),  // older than the history (capacity 3, seq 6)
            FloorCursor(seq: 9),  // from the future: another process's numbering
            FloorCursor(epoch: "elsewhere", seq: 5),  // another epoch
        ])
    func tooOldGetsSnapshot(cursor: FloorCursor) async throws {
        let publisher = makePublisher(history: 3)
        for index in 1...6 { await publisher.ingest([E.agent(index, at: Double(index))]) }
        let messages = drain(await publisher.subscribe(since: cursor))
        #expect(messages.map(\.type) == ["snapshot"])
        #expect(messages.first?.seq == 6)
        #expect(messages.first?.view?.agents.count == 6)
    }

    @Test("the oldest delta still in the history is enough to resume")
    func resumeAtHistoryEdge() async throws {
        let publisher = makePublisher(history: 3)
        for index in 1...6 { await publisher.ingest([E.agent(index, at: Double(index))]) }
        let messages = drain(await publisher.subscribe(since: FloorCursor(seq: 3)))
        #expect(messages.map(\.seq) == [4, 5, 6])
        #expect(messages.allSatisfy { $0.type == "delta" })
    }

    @Test("a subscriber that stops reading is resnapshotted; the others get every delta")
    func slowSubscriber() async throws {
        let publisher = makePublisher(queue: 4)
        let slow = await publisher.subscribe()
        let fast = await publisher.subscribe()
        var fastClient = FloorClientModel()
        for message in drain(fast) { try fastClient.apply(message) }
        for index in 1...10 {
            await publisher.ingest([E.agent(index, at: Double(index))])
            for message in drain(fast) { try fastClient.apply(message) }
        }
        #expect(fastClient.snapshots == 1)
        #expect(fastClient.deltas == Array(1...10))

        #expect(await slow.next() == .resnapshot)
        await publisher.resnapshot(slow)
        await publisher.ingest([E.agent(11, at: 11)])
        var slowClient = FloorClientModel()
        for message in drain(slow) { try slowClient.apply(message) }
        #expect(slowClient.snapshots == 1)
        #expect(slowClient.seq == 11)
        #expect(slowClient.view == (await publisher.currentView().view))
    }

    @Test("unsubscribing ends the subscription; the publisher forgets it")
    func unsubscribe() async throws {
        let publisher = makePublisher()
        let subscription = await publisher.subscribe()
        #expect(await publisher.subscriberCount == 1)
        await publisher.unsubscribe(subscription)
        #expect(await subscription.next() == nil)
        #expect(await publisher.subscriberCount == 0)
    }

    @Test("cursors parse SEQ and EPOCH:SEQ and reject anything else")
    func cursors() {
        #expect(FloorCursor("42") == FloorCursor(seq: 42))
        #expect(FloorCursor("k3x:42") == FloorCursor(epoch: "k3x", seq: 42))
        #expect(FloorCursor("") == nil)
        #expect(FloorCursor(":42") == nil)
        #expect(FloorCursor("-1") == nil)
        #expect(FloorCursor("x") == nil)
    }
}
