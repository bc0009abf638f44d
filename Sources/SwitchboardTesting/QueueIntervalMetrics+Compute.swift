import ContactCenter

extension QueueIntervalMetrics {
    /// Computes metrics per queue and interval from CTRs, by the definitions on
    /// ``QueueIntervalMetrics``.
    ///
    /// - Parameters:
    ///   - records: CTRs in arrival order, possibly with several copies of a contact.
    ///   - intervalSeconds: The interval length; default 900 (15 minutes).
    ///   - serviceLevelThreshold: The answer-time threshold; default 20 s.
    /// - Returns: One entry per queue and interval with at least one queued contact, sorted by
    ///   interval start, then queue.
    public static func compute(
        from records: [ContactTraceRecord],
        intervalSeconds: Int = 900,
        serviceLevelThreshold: Duration = .seconds(20)
    ) -> [QueueIntervalMetrics] {
        precondition(intervalSeconds > 0, "intervalSeconds must be positive")
        var latest: [String: ContactTraceRecord] = [:]
        var arrivalOrder: [String] = []
        for record in records {
            if let kept = latest[record.contactId] {
                if kept.lastUpdateTimestamp > record.lastUpdateTimestamp { continue }
            } else {
                arrivalOrder.append(record.contactId)
            }
            latest[record.contactId] = record
        }
        let thresholdSeconds = serviceLevelThreshold.components.seconds
        let interval = Int64(intervalSeconds)
        struct Key: Hashable {
            var queue: String
            var start: Int64
        }
        var metrics: [Key: QueueIntervalMetrics] = [:]
        for contactId in arrivalOrder {
            let record = latest[contactId]!
            guard let queue = record.queue, let enqueued = queue.enqueueTimestamp,
                let queueKey = queue.arn ?? queue.name
            else { continue }
            let seconds = enqueued.secondsSince1970
            // Floor division (the interval containing a negative instant starts before it).
            let start = (seconds >= 0 ? seconds / interval : (seconds - interval + 1) / interval) * interval
            let key = Key(queue: queueKey, start: start)
            var entry =
                metrics[key]
                ?? QueueIntervalMetrics(
                    queue: queueKey, queueName: nil,
                    intervalStart: UTCTimestamp(millisecondsSince1970: start * 1000), intervalSeconds: intervalSeconds)
            entry.queueName = queue.name ?? entry.queueName
            entry.queued += 1
            let waited = record.queueDurationSeconds
            if let waited { entry.maxQueuedTimeSeconds = max(entry.maxQueuedTimeSeconds ?? 0, waited) }
            if record.isAnswered {
                entry.answered += 1
                entry.totalSpeedOfAnswerSeconds += waited ?? 0
                entry.totalHandleTimeSeconds += record.handleTimeSeconds ?? 0
                if let waited, Int64(waited) <= thresholdSeconds { entry.answeredWithinThreshold += 1 }
            } else {
                entry.abandoned += 1
            }
            metrics[key] = entry
        }
        return metrics.values.sorted { ($0.intervalStart, $0.queue) < ($1.intervalStart, $1.queue) }
    }
}
