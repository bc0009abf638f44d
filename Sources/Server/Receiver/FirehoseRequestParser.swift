import Primitives

/// One record of a Firehose request, its `data` decoded from base64.
struct FirehoseRecord: Sendable, Hashable {
    /// What the record held.
    enum Content: Sendable, Hashable {
        /// The payload as the source wrote it (empty records are permitted by Firehose).
        case data([UInt8])
        /// A record that can never be ingested: why, and the first bytes of what it held (the
        /// base64 text as received when that is what was wrong).
        case invalid(reason: String, excerpt: [UInt8])
    }

    /// The record's position in the request's `records`.
    var index: Int
    var content: Content
}

/// A request body that does not follow Firehose's request schema (answered 400).
struct FirehoseRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Reads a Firehose HTTP endpoint request body, `{"requestId": ..., "timestamp": ...,
/// "records": [{"data": "<base64>"}, ...]}`, fed in pieces, and hands out each record as soon as
/// its object closes: memory holds one record, not the body (up to 64 MiB by the contract).
///
/// Members it does not know are skipped, in any order. `requestId` and `timestamp` are optional
/// here (the request id also comes as a header; senders write the timestamp in milliseconds or
/// seconds, as a number or a string); `records` is required.
struct FirehoseRequestParser {
    /// The most bytes of one record's decoded `data` ingested; a larger record is invalid.
    let maximumRecordBytes: Int
    /// The most bytes of an invalid record kept for its dead letter.
    static let excerptBytes = 64 * 1024
    private var lexer = JSONStreamLexer()
    private var envelope: Envelope

    /// - Parameter maximumRecordBytes: See ``maximumRecordBytes``.
    init(maximumRecordBytes: Int) {
        self.maximumRecordBytes = maximumRecordBytes
        envelope = Envelope(maximumRecordBytes: maximumRecordBytes)
    }

    /// The body's `requestId`, once read.
    var requestId: String? { envelope.requestId }
    /// The body's `timestamp` in milliseconds since the epoch (a value in seconds is scaled).
    var timestampMilliseconds: Int64? { envelope.timestampMilliseconds }
    /// Records read so far.
    var recordCount: Int { envelope.recordCount }

    /// Feeds the next piece of the (decompressed) body.
    ///
    /// - Throws: ``FirehoseRequestError`` when the body is not a Firehose request.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(FirehoseRequestError) {
        do {
            try lexer.feed(bytes, to: &envelope)
        } catch let error as FirehoseRequestError {
            throw error
        } catch {
            throw FirehoseRequestError(message: "\(error)")
        }
    }

    /// The records completed since the last call.
    mutating func takeRecords() -> [FirehoseRecord] {
        defer { envelope.completed.removeAll(keepingCapacity: true) }
        return envelope.completed
    }

    /// Ends the body.
    ///
    /// - Throws: ``FirehoseRequestError`` when it ended early or had no `records` array.
    mutating func finish() throws(FirehoseRequestError) {
        do {
            try lexer.finish(handler: &envelope)
        } catch {
            throw FirehoseRequestError(message: "\(error)")
        }
        guard envelope.sawRecords else {
            throw FirehoseRequestError(message: "the body has no \"records\" array")
        }
    }
}

/// The state of the request object as the lexer walks it.
private struct Envelope: JSONStreamHandler {
    enum Member { case none, requestId, timestamp, records, other }

    let maximumRecordBytes: Int
    var completed: [FirehoseRecord] = []
    var requestId: String?
    var timestampMilliseconds: Int64?
    var recordCount = 0
    var sawRecords = false

    private var depth = 0
    private var member = Member.none
    private var inRecords = false
    private var inData = false
    private var scalarText: [UInt8] = []
    // The record being read.
    private var sawData = false
    private var data: [UInt8] = []
    private var decoder = Base64StreamDecoder()
    private var excerpt: [UInt8] = []
    private var rawText: [UInt8] = []
    private var decodedBytes = 0
    private var recordMemberIsData = false

    init(maximumRecordBytes: Int) {
        self.maximumRecordBytes = maximumRecordBytes
    }

    mutating func beginObject() throws {
        switch depth {
        case 0: break
        case 1 where member != .other: throw malformed("\"\(memberName)\" must not be an object")
        case 2 where inRecords: beginRecord()
        default: break
        }
        depth += 1
    }

    mutating func endObject() throws {
        depth -= 1
        if depth == 2 && inRecords { endRecord() }
    }

    mutating func beginArray() throws {
        switch depth {
        case 0: throw malformed("the body must be a JSON object")
        case 1 where member == .records: inRecords = true
        case 1 where member != .other: throw malformed("\"\(memberName)\" must not be an array")
        case 2 where inRecords: throw malformed("records[\(recordCount)] must be an object, not an array")
        default: break
        }
        depth += 1
    }

    mutating func endArray() throws {
        depth -= 1
        if depth == 1 && inRecords {
            inRecords = false
            sawRecords = true
        }
    }

    mutating func key(_ name: String) throws {
        if depth == 1 {
            switch name {
            case "requestId": member = .requestId
            case "timestamp": member = .timestamp
            case "records": member = .records
            default: member = .other
            }
        } else if depth == 3 && inRecords {
            recordMemberIsData = name == "data"
        }
    }

    mutating func beginString() throws {
        switch depth {
        case 0: throw malformed("the body must be a JSON object")
        case 1:
            if member == .records { throw malformed("\"records\" must be an array") }
            scalarText.removeAll(keepingCapacity: true)
        case 2 where inRecords: throw malformed("records[\(recordCount)] must be an object, not a string")
        case 3 where inRecords && recordMemberIsData:
            inData = true
            sawData = true
        default: break
        }
    }

    mutating func stringContent(_ bytes: UnsafeRawBufferPointer) throws {
        if inData {
            readData(bytes)
        } else if depth == 1 && (member == .requestId || member == .timestamp) && scalarText.count < 256 {
            scalarText.append(contentsOf: bytes.prefix(256 - scalarText.count))
        }
    }

    mutating func endString() throws {
        if inData {
            inData = false
        } else if depth == 1 {
            try memberValue(String(decoding: scalarText, as: UTF8.self), quoted: true)
        }
    }

    mutating func scalar(_ text: String) throws {
        switch depth {
        case 0: throw malformed("the body must be a JSON object")
        case 1: try memberValue(text, quoted: false)
        case 2 where inRecords: throw malformed("records[\(recordCount)] must be an object, not \(text)")
        case 3 where inRecords && recordMemberIsData:
            // `"data": null` carries nothing; another scalar is not base64 text.
            if text != "null" {
                sawData = true
                excerpt = Array(text.utf8)
                invalidReason = "\"data\" must be a base64 string, not \(text)"
            }
        default: break
        }
    }

    // MARK: Members

    private var memberName: String {
        switch member {
        case .requestId: "requestId"
        case .timestamp: "timestamp"
        case .records: "records"
        case .other, .none: "member"
        }
    }

    private mutating func memberValue(_ text: String, quoted: Bool) throws {
        switch member {
        case .requestId:
            requestId = text
        case .timestamp:
            // Milliseconds by the contract; a value below 10^11 can only be seconds (before 1973
            // in milliseconds), so it is scaled. A fraction is cut; anything else is ignored:
            // the timestamp is informational.
            if let value = Double(text), value.isFinite, value > 0, value < 1e15 {
                timestampMilliseconds = Int64(value < 1e11 ? value * 1_000 : value)
            }
        case .records:
            throw malformed("\"records\" must be an array, not \(quoted ? "a string" : text)")
        case .other, .none:
            break
        }
    }

    // MARK: Records

    private var invalidReason: String?

    private mutating func beginRecord() {
        sawData = false
        data = []
        decoder = Base64StreamDecoder()
        excerpt = []
        rawText.removeAll(keepingCapacity: true)
        decodedBytes = 0
        invalidReason = nil
        recordMemberIsData = false
    }

    private mutating func readData(_ text: UnsafeRawBufferPointer) {
        // The text as received is kept (up to the excerpt size) until it proves to be base64.
        let room = FirehoseRequestParser.excerptBytes - rawText.count
        if room > 0 { rawText.append(contentsOf: text.prefix(room)) }
        guard invalidReason == nil else { return }
        let before = data.count
        guard decoder.decode(text, into: &data) else {
            invalidReason = "\"data\" is not valid base64: \(decoder.failure ?? "invalid")"
            data = []
            return
        }
        decodedBytes += data.count - before
        if decodedBytes > maximumRecordBytes {
            excerpt = Array(data.prefix(FirehoseRequestParser.excerptBytes))
            invalidReason = "\"data\" decodes to more than \(maximumRecordBytes) bytes, the most one record may hold"
            data = []
        }
    }

    private mutating func endRecord() {
        defer { recordCount += 1 }
        if !sawData {
            completed.append(
                FirehoseRecord(
                    index: recordCount, content: .invalid(reason: "the record has no \"data\" member", excerpt: [])))
            return
        }
        if invalidReason == nil && !decoder.finish(into: &data) {
            invalidReason = "\"data\" is not valid base64: \(decoder.failure ?? "invalid")"
        }
        if decoder.failure != nil { excerpt = rawText }
        if let invalidReason {
            completed.append(
                FirehoseRecord(index: recordCount, content: .invalid(reason: invalidReason, excerpt: excerpt)))
        } else {
            completed.append(FirehoseRecord(index: recordCount, content: .data(data)))
        }
        data = []
    }

    private func malformed(_ message: String) -> FirehoseRequestError {
        FirehoseRequestError(message: "not a Firehose request: \(message)")
    }
}
