import CZlib
import Foundation

/// Reads a file in chunks, inflating it when it is gzip-compressed (by its magic bytes).
///
/// Multi-member gzip files (concatenated `.gz` parts, as Firehose can write) are read to the end.
final class CompressedFileReader {
    private let handle: FileHandle
    private var stream = z_stream()
    private let gzip: Bool
    private var inputDone = false
    private var streamEnded = false
    private var input = [UInt8]()
    /// Bytes read from the file so far (compressed), for progress.
    private(set) var compressedBytesRead: Int64 = 0

    /// Opens `path`.
    ///
    /// - Throws: when the file cannot be opened or zlib cannot be initialised.
    init(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        self.handle = handle
        let magic = try handle.read(upToCount: 2) ?? Data()
        try handle.seek(toOffset: 0)
        gzip = magic.count == 2 && magic[magic.startIndex] == 0x1F && magic[magic.startIndex + 1] == 0x8B
        if gzip {
            // 15 + 32: the largest window, and detect the gzip header.
            let status = inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
            guard status == Z_OK else { throw CompressedFileError(message: "zlib initialisation failed (\(status))") }
        }
    }

    deinit {
        if gzip { inflateEnd(&stream) }
        try? handle.close()
    }

    /// The next chunk of (decompressed) bytes, or `nil` at the end of the file.
    ///
    /// - Throws: ``CompressedFileError`` for corrupt compressed data.
    func read() throws -> [UInt8]? {
        guard gzip else {
            guard let data = try handle.read(upToCount: 1 << 16), !data.isEmpty else { return nil }
            compressedBytesRead += Int64(data.count)
            return Array(data)
        }
        var output = [UInt8](repeating: 0, count: 1 << 17)
        while true {
            if input.isEmpty && !inputDone {
                let data = try handle.read(upToCount: 1 << 16) ?? Data()
                compressedBytesRead += Int64(data.count)
                if data.isEmpty { inputDone = true } else { input = Array(data) }
            }
            if input.isEmpty && inputDone {
                if !streamEnded && compressedBytesRead > 0 {
                    throw CompressedFileError(message: "the gzip stream ends before its end marker (truncated file)")
                }
                return nil
            }
            let (produced, consumed, status) = input.withUnsafeMutableBufferPointer { inputBuffer in
                output.withUnsafeMutableBufferPointer { outputBuffer in
                    stream.next_in = inputBuffer.baseAddress
                    stream.avail_in = UInt32(inputBuffer.count)
                    stream.next_out = outputBuffer.baseAddress
                    stream.avail_out = UInt32(outputBuffer.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (
                        outputBuffer.count - Int(stream.avail_out),
                        inputBuffer.count - Int(stream.avail_in),
                        status
                    )
                }
            }
            input.removeFirst(consumed)
            switch status {
            case Z_OK, Z_BUF_ERROR:
                streamEnded = false
            case Z_STREAM_END:
                // Another gzip member may follow.
                streamEnded = true
                inflateReset(&stream)
            default:
                throw CompressedFileError(message: "corrupt gzip data (zlib status \(status))")
            }
            if produced > 0 { return Array(output[..<produced]) }
        }
    }
}

/// A compressed file could not be read.
struct CompressedFileError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
