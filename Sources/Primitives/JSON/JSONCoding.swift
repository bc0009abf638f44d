import Foundation

/// The one `Codable` JSON configuration off the hot path: HTTP answers, MCP, the floor's
/// messages, log lines and the simulator's calls (the ingest's decoding uses the tape scanner).
///
/// Keys are sorted and slashes left unescaped: the same value always gives the same bytes, for
/// people, logs and tests alike.
public enum JSONCoding {
    /// The encoder every JSON writer off the hot path uses.
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The decoder every JSON reader off the hot path uses.
    public static let decoder = JSONDecoder()

    /// The JSON bytes of `value`.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    public static func encode(_ value: some Encodable) throws -> Data { try encoder.encode(value) }

    /// A `T` decoded from `data`.
    ///
    /// - Throws: `DecodingError` when the bytes are not a `T`.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decoder.decode(type, from: data)
    }
}
