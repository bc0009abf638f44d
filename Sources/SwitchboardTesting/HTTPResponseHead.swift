import Foundation

/// The head of an HTTP/1.1 response as the hand-made clients read it off a socket: the status,
/// the header fields and where the body starts.
public struct HTTPResponseHead: Sendable {
    /// The status code (0 when the status line has none).
    public var status: Int
    /// The header fields by lowercased name (the last of a repeated one), values trimmed.
    public var headers: [String: String]
    /// The bytes of the head with its blank line: where the body starts.
    public var length: Int

    /// The `Content-Length` (0 without one).
    public var contentLength: Int { Int(headers["content-length"] ?? "") ?? 0 }
    /// Whether the body is chunked.
    public var isChunked: Bool { headers["transfer-encoding"]?.lowercased() == "chunked" }

    /// The head at the start of `bytes`, or `nil` while its blank line has not arrived.
    public init?(_ bytes: ArraySlice<UInt8>) {
        guard let end = Self.firstIndex(of: [13, 10, 13, 10], in: bytes) else { return nil }
        let lines = String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self).components(separatedBy: "\r\n")
        status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
        headers = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        length = end + 4 - bytes.startIndex
    }

    /// Where `needle` first starts in `haystack`.
    private static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        outer: for index in haystack.startIndex...(haystack.endIndex - needle.count) where haystack[index] == needle[0]
        {
            for offset in 1..<needle.count where haystack[index + offset] != needle[offset] { continue outer }
            return index
        }
        return nil
    }
}
