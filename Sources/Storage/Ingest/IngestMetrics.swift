import Metrics

/// The ingest's metrics (swift-metrics; the executable exports them to Prometheus).
struct IngestMetrics: Sendable {
    let contactRecords = Counter(label: "switchboard_ingest_rows_total", dimensions: [("table", "contact_record")])
    let outdatedContactRecords = Counter(
        label: "switchboard_ingest_outdated_contact_records_total"
    )
    let agentEvents = Counter(label: "switchboard_ingest_rows_total", dimensions: [("table", "agent_event")])
    let contactEvents = Counter(label: "switchboard_ingest_rows_total", dimensions: [("table", "contact_event")])
    let sourceRecords = Counter(label: "switchboard_ingest_source_records_total")
    let batchDuration = Timer(label: "switchboard_ingest_batch_duration_seconds")
    let fencedWrites = Counter(label: "switchboard_ingest_fenced_writes_total")
    let writeRetries = Counter(label: "switchboard_ingest_write_retries_total")
    /// Write attempts abandoned at their deadline (also counted in the retries).
    let writeTimeouts = Counter(label: "switchboard_ingest_write_timeouts_total")
    /// Retried batches found committed by an abandoned attempt (and not written again).
    let alreadyWrittenBatches = Counter(label: "switchboard_ingest_already_written_batches_total")
    /// How long the oldest batch taken from Kafka has waited to be written (0: none waits). It
    /// grows while writing does not progress, whether or not anything reports an error.
    let oldestUnwrittenBatchAge = Gauge(label: "switchboard_ingest_oldest_unwritten_batch_age_seconds")

    /// Where the worker's time goes, in seconds, by stage (`rate()` is the share of time):
    /// - `poll`: the pump waits for the source (Kafka) to return a batch;
    /// - `queue`: the pump waits for room under the in-flight bound, because the lanes have not
    ///   written what is queued for them (the database is behind);
    /// - `decode`: decoding the records of a part (summed over the parts decoded at once);
    /// - `write`: a lane's transactions, retries included (summed over the lanes).
    let stageSeconds = Dictionary(
        uniqueKeysWithValues: IngestStage.allCases.map { stage in
            (
                stage,
                FloatingPointCounter(
                    label: "switchboard_ingest_stage_seconds_total", dimensions: [("stage", stage.rawValue)])
            )
        })

    /// Adds `duration` to `stage`'s seconds.
    func spent(_ duration: Duration, in stage: IngestStage) {
        stageSeconds[stage]?.increment(by: duration.inSeconds)
    }

    func record(batch: IngestBatch, summary: IngestWriteSummary, duration: Duration) {
        contactRecords.increment(by: summary.contactRecordsWritten)
        outdatedContactRecords.increment(by: summary.contactRecordsOutdated)
        agentEvents.increment(by: summary.agentEventsWritten)
        contactEvents.increment(by: summary.contactEventsWritten)
        sourceRecords.increment(by: batch.sourceRecordCount)
        for letter in batch.deadLetters where !summary.alreadyWritten {
            Counter(label: "switchboard_ingest_dead_letters_total", dimensions: [("reason", letter.reason.kind)])
                .increment()
        }
        // Refused by the writer, inside the transaction (IngestBatch.refuseRows(before:)).
        if summary.rowsBeforeRetention > 0 {
            Counter(label: "switchboard_ingest_dead_letters_total", dimensions: [("reason", "before_retention")])
                .increment(by: summary.rowsBeforeRetention)
        }
        batchDuration.record(duration: duration)
    }
}

/// A stage of the ingest pipeline, as `switchboard_ingest_stage_seconds_total` labels it.
enum IngestStage: String, Sendable, CaseIterable {
    case poll, decode, queue, write
}
