import ArgumentParser
import ContactCenter
import Foundation
import Primitives
@_spi(Bench) import Storage

/// `switchboard-bench bench-decode` (`make bench-decode`): the ingest worker's own share of the
/// write path, on one thread and without I/O: `bench-ingest`'s CTRs decoded in batches as a lane
/// takes them (``IngestDecoder``) and their upsert's binds encoded (``IngestWriter/upsertQuery``),
/// next to the reference of the same run: copying the same bytes once (what the write path costs
/// at the least: the records arrive in one buffer and leave in another).
///
/// `bench-ingest` measures the worker's CPU per 1,000 rows too, but beside PostgreSQL on two
/// cores, where it moves by ±10 % between runs: this isolates it for changes to the decoder and
/// the binds, with a `perf record` of a steady loop.
struct BenchDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-decode",
        abstract: "The worker's CPU per CTR: decoding and encoding the upsert's binds (prints RESULT ...)."
    )

    @Option(help: "CTRs generated (5% of them re-emitted updates), as in bench-ingest.")
    var records = 40_000

    @Option(help: "Records per batch (a lane's transaction in the stream).")
    var batch = 2_000

    @Option(help: "Rounds over all records; the fastest round counts.")
    var rounds = 5

    func run() throws {
        var source: [SourceRecord] = []
        source.reserveCapacity(records)
        var bytes = 0
        BenchIngestCommand.forEachCTR(records) { index, record in
            let value = Array(record.jsonData())
            bytes += value.count
            source.append(
                SourceRecord(
                    topic: "contact-records", partition: Int32(index % 4), offset: Int64(index / 4),
                    key: Array(record.contactId.utf8), value: value))
        }
        let batches = stride(from: 0, to: source.count, by: batch).map {
            Array(source[$0..<min($0 + batch, source.count)])
        }
        let decoder = IngestDecoder()
        var decodeBest = Double.infinity
        var encodeBest = Double.infinity
        var copyBest = Double.infinity
        var binds = 0
        for _ in 0..<rounds {
            var decodeSeconds = 0.0
            var encodeSeconds = 0.0
            for records in batches {
                let start = ContinuousClock.now
                let decoded = decoder.decode(records)
                let decodedAt = ContinuousClock.now
                let query = IngestWriter.upsertQuery(decoded.contactRecords, copies: decoded.contactRecordCopies)
                binds = query.binds.count
                encodeSeconds += (ContinuousClock.now - decodedAt).inSeconds
                decodeSeconds += (decodedAt - start).inSeconds
            }
            decodeBest = min(decodeBest, decodeSeconds)
            encodeBest = min(encodeBest, encodeSeconds)
            // The reference: each batch's values copied into one buffer of their own.
            let start = ContinuousClock.now
            var checksum = 0
            for records in batches {
                var buffer: [UInt8] = []
                buffer.reserveCapacity(records.reduce(0) { $0 + ($1.value?.count ?? 0) })
                for record in records { buffer += record.value ?? [] }
                checksum &+= Int(buffer[buffer.count / 2])
            }
            copyBest = min(copyBest, (ContinuousClock.now - start).inSeconds)
            if checksum == 42 { print("") }  // keeps the copies from being optimized away
        }
        let perRecord = { (seconds: Double) in seconds / Double(records) * 1_000_000 }
        print("generated \(records) CTRs, \(bytes / records) bytes on average, batches of \(batch)")
        print(
            String(
                format:
                    "per CTR, the fastest of %d rounds: decode %.2f µs, upsert binds %.2f µs (%d columns), together %.2f µs; copying the bytes once %.2f µs",
                rounds, perRecord(decodeBest), perRecord(encodeBest), binds,
                perRecord(decodeBest + encodeBest), perRecord(copyBest)))
        print(
            String(
                format: "RESULT decode_us=%.2f binds_us=%.2f worker_us=%.2f copy_us=%.2f ratio_copy=%.1f",
                perRecord(decodeBest), perRecord(encodeBest), perRecord(decodeBest + encodeBest), perRecord(copyBest),
                (decodeBest + encodeBest) / copyBest))
    }
}
