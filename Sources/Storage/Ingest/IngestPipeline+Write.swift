import Logging
import PostgresNIO
import Synchronization

extension IngestPipeline {
    /// Writes one lane's batch, retrying with bounded backoff until it is written or fenced.
    ///
    /// Every attempt presents the same claims (epochs and the offsets the batch follows), taken
    /// before the first: a retry of a batch that an abandoned attempt committed after all is
    /// recognized by the offsets' compare-and-set and not written again.
    ///
    /// An attempt that times out is followed by one with twice its time, up to
    /// ``Configuration/longestWriteTimeout``: a batch whose write needs longer than
    /// ``Configuration/writeTimeout`` (a loaded server) is written in the end instead of being
    /// abandoned at the same deadline again and again.
    func writeWithRetry(_ batch: IngestBatch) async throws {
        let claims = configuration.storesOffsets ? self.claims.withLock { $0 } : nil
        var backoff = Duration.milliseconds(100)
        var failures = 0
        var timeout = configuration.writeTimeout
        let clock = ContinuousClock()
        let firstAttempt = clock.now
        defer { metrics.spent(clock.now - firstAttempt, in: .write) }
        while true {
            let start = clock.now
            do {
                let summary = try await writeWithDeadline(batch, claims: claims, timeout: timeout)
                if let claims { advance(claims, past: batch) }
                metrics.record(batch: batch, summary: summary, duration: clock.now - start)
                healthState.withLock { state in
                    state.health.databaseWritable = true
                    state.health.lastError = nil
                    state.health.batchesWritten += 1
                    state.health.recordsWritten += batch.sourceRecordCount
                    state.totals.contactRecordsWritten += summary.contactRecordsWritten
                    state.totals.contactRecordsOutdated += summary.contactRecordsOutdated
                    state.totals.agentEventsWritten += summary.agentEventsWritten
                    state.totals.contactEventsWritten += summary.contactEventsWritten
                    state.totals.deadLettersWritten += summary.deadLettersWritten
                }
                if summary.alreadyWritten {
                    metrics.alreadyWrittenBatches.increment()
                    logger.notice("batch was committed by an abandoned attempt; not written again")
                }
                if failures > 0 {
                    logger.notice(
                        "batch written after \(failures) failed attempt(s)",
                        metadata: ["since_first_attempt": "\(clock.now - firstAttempt)"])
                }
                return
            } catch let error as StorageError where error.code == .fenced {
                metrics.fencedWrites.increment()
                logger.warning("write fenced; re-joining the group", metadata: ["reason": "\(error.message)"])
                throw error
            } catch {
                if Task.isCancelled { throw error }
                failures += 1
                let message = StorageError.summary(of: error)
                healthState.withLock { state in
                    state.health.databaseWritable = false
                    state.health.lastError = message
                }
                metrics.writeRetries.increment()
                if (error as? StorageError)?.code == .timeout {
                    metrics.writeTimeouts.increment()
                    timeout = min(timeout * 2, configuration.longestWriteTimeout)
                }
                // Every failure while the backoff grows, then every tenth: an outage stays
                // visible in the log without a line per lane and second.
                if backoff < configuration.maximumBackoff || failures % 10 == 0 {
                    logger.error(
                        "batch write failed; retrying in \(backoff)",
                        metadata: ["error": "\(message)", "failures": "\(failures)"])
                }
                try await Task.sleep(for: backoff)
                backoff = min(backoff * 2, configuration.maximumBackoff)
            }
        }
    }

    /// Writes a batch, abandoning it after `timeout`.
    ///
    /// The writer's every wait honours cancellation (a statement's by closing its connection, see
    /// ``WriteConnections``), so the task group ends right after the deadline: the abandoned
    /// transaction's connection is closed and PostgreSQL rolls it back, unless its `COMMIT` was
    /// already sent, in which case the retry finds its offsets stored.
    func writeWithDeadline(_ batch: IngestBatch, claims: [PartitionKey: PartitionClaim]?, timeout: Duration)
        async throws -> IngestWriteSummary
    {
        return try await withThrowingTaskGroup(of: IngestWriteSummary?.self) { group in
            group.addTask { try await self.writer.write(batch, claims: claims) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let summary = first else {
                throw StorageError(code: .timeout, message: "batch write did not finish within \(timeout)")
            }
            return summary
        }
    }

    /// Moves the claims of the batch's partitions past it (the next batch follows it), unless a
    /// partition was claimed again or released meanwhile.
    private func advance(_ used: [PartitionKey: PartitionClaim], past batch: IngestBatch) {
        claims.withLock { current in
            for (partition, next) in batch.nextOffsets where current[partition] == used[partition] {
                current[partition]?.nextOffset = next
            }
        }
    }

}
