/// The channel of a contact: `VOICE`, `CHAT`, `TASK`, `EMAIL`, or any value Amazon Connect adds.
///
/// An open set rather than an enum, so a new channel never fails decoding.
public struct ContactChannel: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The wire spelling, e.g. `VOICE`.
    public var rawValue: String

    /// Wraps a wire value.
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let voice = ContactChannel(rawValue: "VOICE")
    public static let chat = ContactChannel(rawValue: "CHAT")
    public static let task = ContactChannel(rawValue: "TASK")
    public static let email = ContactChannel(rawValue: "EMAIL")

    public var description: String { rawValue }

    /// Reads a wire value in the data models' upper case: AWS's own contact event samples
    /// write `Voice` where the data model says `VOICE`, and both mean the same channel.
    init(wireValue: String) {
        if wireValue.utf8.contains(where: { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) {
            rawValue = wireValue.uppercased()
        } else {
            rawValue = wireValue
        }
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
