import CZlib

/// Inflates a gzip stream fed in pieces, handing the output out in bounded pieces: the one
/// zlib inflater of the code base (the CTR import's files, the receiver's request bodies).
///
/// Concatenated gzip members (what `cat a.gz b.gz` makes, and what Firehose can write to S3)
/// inflate as one stream. The output of one call is handed to `output` in pieces of at most
/// ``outputChunkBytes``, so a small, highly compressed input never becomes one large buffer: the
/// caller counts the pieces and throws to stop a decompression bomb.
///
/// Not `Sendable`: one task feeds it (it owns a `z_stream`).
public final class GzipInflater {
    /// The largest piece of output handed out at once.
    public let outputChunkBytes: Int
    /// Compressed bytes fed so far.
    public private(set) var inputByteCount = 0
    /// Inflated bytes handed out so far.
    public private(set) var outputByteCount = 0
    // zlib keeps a pointer back to the stream and checks it on every call: the stream lives at
    // a fixed address for the inflater's lifetime.
    private let stream: UnsafeMutablePointer<z_stream>
    private var output: [UInt8]
    /// Whether the last member ended exactly at the end of the input fed so far.
    private var atMemberEnd = false

    /// Creates an inflater.
    ///
    /// - Parameter outputChunkBytes: The largest piece of output handed out at once.
    /// - Throws: ``GzipError`` when zlib cannot be initialised.
    public init(outputChunkBytes: Int = 1 << 16) throws(GzipError) {
        self.outputChunkBytes = max(outputChunkBytes, 1024)
        output = [UInt8](repeating: 0, count: self.outputChunkBytes)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15 + 16: the largest window, gzip format only (a zlib or raw stream is an error).
        let status = inflateInit2_(stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw GzipError(message: "zlib initialisation failed (status \(status))")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Whether `bytes` start with the gzip magic number.
    public static func isGzip(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        return iterator.next() == 0x1F && iterator.next() == 0x8B
    }

    /// Inflates `input`, handing every piece of output to `output` before it returns.
    ///
    /// - Throws: ``GzipError`` for corrupt data, or what `output` throws (which stops inflating).
    public func inflate(
        _ input: UnsafeRawBufferPointer, output: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard let base = input.baseAddress, !input.isEmpty else { return }
        inputByteCount += input.count
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        stream.pointee.avail_in = UInt32(input.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
        }
        while stream.pointee.avail_in > 0 {
            if atMemberEnd {
                // Another member follows the one that ended.
                inflateReset(stream)
                atMemberEnd = false
            }
            let (produced, status) = self.output.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = UInt32(buffer.count)
                let status = CZlib.inflate(stream, Z_NO_FLUSH)
                return (buffer.count - Int(stream.pointee.avail_out), status)
            }
            switch status {
            case Z_OK, Z_BUF_ERROR: break
            case Z_STREAM_END: atMemberEnd = true
            default:
                let detail = stream.pointee.msg.map { String(cString: $0) } ?? "status \(status)"
                throw GzipError(message: "corrupt gzip data (\(detail))")
            }
            if produced > 0 {
                outputByteCount += produced
                try self.output.withUnsafeBytes { try output(UnsafeRawBufferPointer(rebasing: $0[..<produced])) }
            } else if status == Z_BUF_ERROR {
                break  // zlib needs more input than this call holds
            }
        }
        // The input is used up, but zlib may still hold inflated bytes for a full output buffer.
        while !atMemberEnd {
            let (produced, status) = self.output.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = UInt32(buffer.count)
                let status = CZlib.inflate(stream, Z_NO_FLUSH)
                return (buffer.count - Int(stream.pointee.avail_out), status)
            }
            if status == Z_STREAM_END { atMemberEnd = true }
            guard produced > 0 else { break }
            outputByteCount += produced
            try self.output.withUnsafeBytes { try output(UnsafeRawBufferPointer(rebasing: $0[..<produced])) }
        }
    }

    /// Checks that the stream ended with a complete member.
    ///
    /// - Throws: ``GzipError`` when the input stopped inside a member (truncated data), or no
    ///   byte was fed at all.
    public func finish() throws(GzipError) {
        guard inputByteCount > 0 else { throw GzipError(message: "the gzip stream is empty") }
        guard atMemberEnd else {
            throw GzipError(message: "the gzip stream ends before its end marker (truncated data)")
        }
    }
}

/// Gzip data could not be inflated.
public struct GzipError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var message: String

    public init(message: String) { self.message = message }

    public var description: String { message }
}
