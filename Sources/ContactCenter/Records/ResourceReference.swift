import Primitives

/// A reference to a named Amazon Connect resource (queue, routing profile): its ARN and name.
///
/// Used for `Queue {ARN, Name}` in agent events and `RoutingProfile {ARN, Name}` in CTRs and
/// agent events. Either part may be missing on the wire.
public struct ResourceReference: Sendable, Hashable, Codable {
    /// The resource ARN, e.g. `arn:aws:connect:ap-northeast-1:123456789012:instance/…/queue/…`.
    public var arn: String?
    /// The display name, e.g. `Tokyo Reservations`.
    public var name: String?

    /// Creates a reference.
    public init(arn: String?, name: String?) {
        self.arn = arn
        self.name = name
    }

    /// Reads `{ARN, Name}`.
    init(_ reader: JSONObjectReader) throws {
        arn = try reader.string("ARN")
        name = try reader.string("Name")
    }

    /// Writes `{"ARN": …, "Name": …}`.
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("ARN", arn)
        writer.member("Name", name)
        writer.endObject()
    }
}
