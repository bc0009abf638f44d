import Primitives

extension StaffingPlan {
    /// The plan as one JSON object (`GET /v1/staffing`): per queue and date its slots, and the
    /// notes. Figures the model cannot give (no AHT, unbounded ASA) are null, never NaN. With
    /// `staffedNow`, each queue carries its `staffed_now` (``StaffedNow/queues``); without, null.
    ///
    /// ```json
    /// {"notes":[…],"queues":[{"queue":"arn…","queue_name":"Reservations","staffed_now":2.5,"days":[{"date":"2026-12-30",
    ///  "day_types":"weekday+holiday","agent_hours":12,"slots":[{"start":"10:00","slot":40,"offered":6.2,
    ///  "aht_s":120,"agents":3,"fractional_agents":2.41,"scheduled_agents":4,"service_level":0.91,
    ///  "connect_service_level":0.94,"occupancy":0.55,"probability_of_abandoning":0.01}]}]}]}
    /// ```
    public func json(queueNames: [String: String], staffedNow: StaffedNow? = nil) -> String {
        var writer = JSONWriter(capacity: 4096 + rows.count * 256)
        writer.beginObject()
        writer.key("notes")
        writer.beginArray()
        for note in notes { writer.string(note) }
        writer.endArray()
        let hours = Dictionary(
            agentHours.map { (QueueDate(queue: $0.queue, date: $0.date), $0.hours) },
            uniquingKeysWith: { first, _ in first })
        writer.key("queues")
        writer.beginArray()
        var queue: String?
        var date: CivilDate?
        func optional(_ name: String, _ value: Double?) {
            writer.key(name)
            if let value, value.isFinite { writer.number(value) } else { writer.null() }
        }
        for row in rows {
            let f = row.forecast
            if f.queue != queue {
                if queue != nil {
                    writer.endArray()  // slots
                    writer.endObject()  // day
                    writer.endArray()  // days
                    writer.endObject()  // queue
                }
                queue = f.queue
                date = nil
                writer.beginObject()
                writer.member("queue", f.queue)
                writer.member("queue_name", queueNames[f.queue] ?? f.queue)
                optional("staffed_now", staffedNow.map { $0.queues[f.queue] ?? 0 })
                writer.key("days")
                writer.beginArray()
            }
            if f.date != date {
                if date != nil {
                    writer.endArray()
                    writer.endObject()
                }
                date = f.date
                writer.beginObject()
                writer.member("date", f.date.description)
                writer.member("day_types", f.dayTypesLabel)
                writer.member("agent_hours", hours[QueueDate(queue: f.queue, date: f.date)] ?? 0)
                writer.key("slots")
                writer.beginArray()
            }
            let p = row.requirement?.performance
            writer.beginObject()
            writer.member("start", f.slot.clock)
            writer.member("slot", f.slot.index)
            optional("offered", f.offered)
            optional("aht_s", f.averageHandleTimeSeconds)
            optional("patience_s", row.patienceSeconds)
            writer.member("agents", row.requirement?.agents)
            optional("fractional_agents", row.requirement?.fractionalAgents)
            writer.member("scheduled_agents", row.scheduledAgents)
            optional("service_level", p?.serviceLevel)
            optional("connect_service_level", p?.connectServiceLevel)
            optional("average_speed_of_answer_s", p?.averageSpeedOfAnswerSeconds)
            optional("occupancy", p?.occupancy)
            optional("probability_of_abandoning", p?.probabilityOfAbandoning)
            writer.endObject()
        }
        if queue != nil {
            writer.endArray()
            writer.endObject()
            writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.text
    }
}
