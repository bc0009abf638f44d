extension FloorState {
    /// Folds a contact event without ever moving the contact backwards.
    mutating func apply(_ event: ContactEvent, now: UTCTimestamp) -> FloorEventOutcome {
        let eventState = FloorContact.State(event.eventType)
        guard eventState != nil || event.eventType == .contactDataUpdated else { return .ignored }

        // The event's own timestamps, falling back to the envelope time for the step it reports.
        let enqueued = event.queueInfo?.enqueueTimestamp ?? (event.eventType == .queued ? event.time : nil)
        let connected =
            event.agentInfo?.connectedToAgentTimestamp ?? (event.eventType == .connectedToAgent ? event.time : nil)
        let disconnected = event.disconnectTimestamp ?? (event.eventType == .disconnected ? event.time : nil)

        var contact =
            contacts[event.contactId]
            ?? FloorContact(
                contactId: event.contactId, state: eventState ?? .initiated,
                stateSince: event.initiationTimestamp ?? event.time, lastEventTime: event.time, lastSeen: now)

        // Where facts disagree, the later event by (state order, time) wins; missing facts are
        // filled from any event.
        let isLatest =
            ((eventState ?? contact.state), event.time.millisecondsSince1970)
            >= (contact.state, contact.lastEventTime.millisecondsSince1970)
        func merge<Value>(_ current: inout Value?, _ incoming: Value?) {
            guard let incoming else { return }
            if current == nil || isLatest { current = incoming }
        }
        merge(&contact.channel, event.channel)
        merge(&contact.initiationMethod, event.initiationMethod)
        merge(&contact.initiationTimestamp, event.initiationTimestamp)
        merge(&contact.queueArn, event.queueInfo?.queueArn)
        merge(&contact.enqueueTimestamp, enqueued)
        merge(&contact.agentArn, event.agentInfo?.agentArn)
        merge(&contact.connectedToAgentTimestamp, connected)
        merge(&contact.disconnectTimestamp, disconnected)

        if let eventState, eventState > contact.state {
            contact.state = eventState
            switch eventState {
            case .queued: contact.stateSince = enqueued ?? event.time
            case .connectedToAgent: contact.stateSince = connected ?? event.time
            case .disconnected: contact.stateSince = disconnected ?? event.time
            default: contact.stateSince = event.time
            }
        }
        if event.time > contact.lastEventTime { contact.lastEventTime = event.time }
        contact.lastSeen = now
        contacts[event.contactId] = contact
        registerQueue(arn: contact.queueArn, name: nil)
        updateContribution(of: event.contactId)
        if let previous = event.previousContactId, !previous.isEmpty, previous != event.contactId {
            markMovedOn(previous, now: now)
        }
        return .applied
    }

    /// Records that a later contact continues `contactId` (callback, transfer, queue transfer),
    /// keeping a placeholder when the previous contact's own events have not arrived yet.
    private mutating func markMovedOn(_ contactId: String, now: UTCTimestamp) {
        var previous =
            contacts[contactId]
            ?? FloorContact(
                contactId: contactId, state: .initiated, stateSince: now,
                lastEventTime: UTCTimestamp(millisecondsSince1970: 0), lastSeen: now)
        guard !previous.movedOn else { return }
        previous.movedOn = true
        contacts[contactId] = previous
        updateContribution(of: contactId)
    }

    /// Recomputes what a contact adds to today's queue counters and applies the difference.
    mutating func updateContribution(of contactId: String) {
        guard let contact = contacts[contactId] else { return }
        let updated = contribution(of: contact)
        guard updated != contact.contribution else { return }
        if let old = contact.contribution { queues[old.queueArn]?.add(old, sign: -1) }
        if let updated {
            registerQueue(arn: updated.queueArn, name: nil)
            queues[updated.queueArn]!.add(updated, sign: 1)
        }
        contacts[contactId]!.contribution = updated
    }

    /// A queued contact counts as offered on the day of its enqueue time; as answered once an
    /// agent connected, within threshold when the wait was at most the threshold; as abandoned
    /// (Connect's "Contacts abandoned", as `contact_outcome.abandoned`) once disconnected
    /// without an agent and without a next contact. A contact closed out for lack of events is
    /// not abandoned: nothing says the customer hung up.
    private func contribution(of contact: FloorContact) -> QueueContribution? {
        guard let queueArn = contact.queueArn, let enqueued = contact.enqueueTimestamp,
            let day = businessDay, day.contains(enqueued)
        else { return nil }
        let answered = contact.connectedToAgentTimestamp
        let threshold = configuration.serviceLevelThreshold.milliseconds
        return QueueContribution(
            queueArn: queueArn,
            answered: answered != nil,
            answeredWithinThreshold: answered.map { $0.milliseconds(since: enqueued) <= threshold } ?? false,
            abandoned: answered == nil && contact.state >= .disconnected && !contact.movedOn
        )
    }
}
