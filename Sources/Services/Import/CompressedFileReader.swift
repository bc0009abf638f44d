import Foundation
import Primitives

/// Reads a file in chunks, inflating it when it is gzip-compressed (by its magic bytes).
///
/// Multi-member gzip files (concatenated `.gz` parts, as Firehose can write) are read to the end.
final class CompressedFileReader {
    private let handle: FileHandle
    private let inflater: GzipInflater?
    private var inputDone = false
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
        inflater = GzipInflater.isGzip(magic) ? try GzipInflater(outputChunkBytes: 1 << 17) : nil
    }

    deinit {
        try? handle.close()
    }

    /// The next chunk of (decompressed) bytes, or `nil` at the end of the file.
    ///
    /// - Throws: ``GzipError`` for corrupt or truncated compressed data.
    func read() throws -> [UInt8]? {
        guard let inflater else {
            guard let data = try handle.read(upToCount: 1 << 16), !data.isEmpty else { return nil }
            compressedBytesRead += Int64(data.count)
            return Array(data)
        }
        while !inputDone {
            let data = try handle.read(upToCount: 1 << 16) ?? Data()
            guard !data.isEmpty else {
                inputDone = true
                try inflater.finish()
                return nil
            }
            compressedBytesRead += Int64(data.count)
            var chunk: [UInt8] = []
            try data.withUnsafeBytes { input in
                try inflater.inflate(input) { chunk.append(contentsOf: $0) }
            }
            if !chunk.isEmpty { return chunk }
        }
        return nil
    }
}
