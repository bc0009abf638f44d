extension TrafficSimulation {
    /// Starts the next contact of `index`'s chain (`CALLBACK`, `QUEUE_TRANSFER` or `TRANSFER`):
    /// same caller and store, `InitialContactId` the chain's first contact, `PreviousContactId`
    /// this one; this one's `NextContactId` points to it.
    ///
    /// - Returns: The new contact's index.
    private mutating func continueChain(_ index: Int, method: String, queue: String, at: Int64) -> Int? {
        guard var contact = contacts[index] else { return nil }
        let next = nextContact
        nextContact += 1
        var continuation = SimulatedContact(
            id: newIdentifier(), store: contact.store, customerNumber: contact.customerNumber, initiated: at,
            isOpen: contact.isOpen, queue: queue)
        continuation.method = method
        continuation.initialId = contact.initialId ?? contact.id
        continuation.previousId = contact.id
        contact.nextId = continuation.id
        contacts[index] = contact
        contacts[next] = continuation
        emitContactEvent(.initiated, continuation, at: at)
        return next
    }

    /// The caller ran out of patience and asked to be called back: the flow ends this contact,
    /// and a `CALLBACK` contact waits in the same queue after a delay.
    mutating func requestCallback(_ index: Int, at: Int64) {
        guard let next = continueChain(index, method: "CALLBACK", queue: contacts[index]?.queue ?? "", at: at),
            var contact = contacts[index]
        else { return }
        contact.disconnected = at
        contact.disconnectReason = "CONTACT_FLOW_DISCONNECT"
        contacts[index] = nil
        counters.callbacks += 1
        emitContactEvent(.disconnected, contact, at: at)
        emitContactEvent(.completed, contact, at: at)
        emitRecord(contact, at: at)
        occurrences.schedule(.enqueue(contact: next), at: at + Int64(configuration.callbackDelay.draw(&random)) * 1_000)
    }

    /// The queue flow moves a caller still waiting to the overflow queue.
    mutating func transferFromQueue(_ index: Int, at: Int64) {
        guard let contact = contacts[index], contact.agent == nil, let position = waiting.firstIndex(of: index),
            let next = continueChain(index, method: "QUEUE_TRANSFER", queue: configuration.overflowQueue, at: at),
            var moved = contacts[index]
        else { return }
        waiting.remove(at: position)
        moved.disconnected = at
        moved.disconnectReason = nil
        contacts[index] = nil
        counters.queueTransfers += 1
        emitContactEvent(.disconnected, moved, at: at)
        emitContactEvent(.completed, moved, at: at)
        emitRecord(moved, at: at)
        enqueue(next, at: at)
    }

    /// The agent transfers the caller to the overflow queue at the end of the talk; the agent's
    /// own contact goes on to after-contact work.
    mutating func transferByAgent(_ index: Int, at: Int64) {
        guard let next = continueChain(index, method: "TRANSFER", queue: configuration.overflowQueue, at: at),
            var contact = contacts[index]
        else { return }
        contact.disconnectReason = "AGENT_DISCONNECT"
        contacts[index] = contact
        counters.transfers += 1
        enqueue(next, at: at)
    }
}
