import CZlib
import Foundation

/// Compresses bytes into one gzip member: what a Firehose stream with `ContentEncoding: GZIP`
/// does to each request body (the simulator's and the benchmarks' Firehose client).
public enum GzipDeflater {
    /// The gzip form of `bytes`.
    ///
    /// - Parameter level: zlib's compression level, 1 (fastest) to 9 (smallest).
    /// - Throws: ``GzipError`` when zlib fails (out of memory).
    public static func compress(_ bytes: some ContiguousBytes, level: Int32 = 6) throws(GzipError) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        // 15 + 16: the largest window, with a gzip header and trailer.
        let status = deflateInit2_(
            stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
            Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw GzipError(message: "zlib initialisation failed (status \(status))") }
        defer { deflateEnd(stream) }
        let result: Result<[UInt8], GzipError> = bytes.withUnsafeBytes { input in
            var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, UInt(input.count))))
            stream.pointee.next_in = UnsafeMutablePointer(
                mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
            stream.pointee.avail_in = UInt32(input.count)
            let (written, status) = output.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = UInt32(buffer.count)
                let status = deflate(stream, Z_FINISH)
                return (buffer.count - Int(stream.pointee.avail_out), status)
            }
            guard status == Z_STREAM_END else {
                return .failure(GzipError(message: "gzip compression failed (status \(status))"))
            }
            output.removeSubrange(written...)
            return .success(output)
        }
        return try result.get()
    }
}
