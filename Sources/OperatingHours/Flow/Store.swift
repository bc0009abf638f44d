/// A restaurant whose phones the contact center answers, with its compiled hours.
///
/// A final class so that answers and lookups share one instance instead of copying its fields.
public final class Store: Sendable {
    /// The store's id, e.g. `ginza-sushi`.
    public let id: String
    /// The display name, e.g. `鮨 銀座 はる`.
    public let name: String
    /// The E.164 numbers callers dial to reach it, e.g. `+81335550101`.
    public let dialedNumbers: [String]
    /// Free attributes used by routes and outputs (`kind`, `region`, ...).
    public let attributes: [String: String]
    /// The hours profile's id.
    public let profileId: String
    /// The holiday calendar's id.
    public let calendarId: String
    /// The compiled hours (the profile plus the store's own closures and overrides).
    public let schedule: StoreSchedule

    /// Creates a store.
    public init(
        id: String, name: String, dialedNumbers: [String], attributes: [String: String],
        profileId: String, calendarId: String, schedule: StoreSchedule
    ) {
        self.id = id
        self.name = name
        self.dialedNumbers = dialedNumbers
        self.attributes = attributes
        self.profileId = profileId
        self.calendarId = calendarId
        self.schedule = schedule
    }

    /// The IANA time zone identifier.
    public var timeZoneIdentifier: String { schedule.timeZone.identifier }

    /// Normalizes a dialed number for lookup: drops spaces, hyphens, dots and parentheses.
    public static func normalizeDialedNumber(_ text: String) -> String {
        String(text.unicodeScalars.filter { !" -.()\t".unicodeScalars.contains($0) })
    }

    /// Whether normalized text is E.164: `+`, a non-zero digit, then 1 to 14 more digits.
    public static func isE164(_ number: String) -> Bool {
        let bytes = Array(number.utf8)
        guard bytes.count >= 3, bytes.count <= 16, bytes[0] == UInt8(ascii: "+"),
            bytes[1] >= UInt8(ascii: "1"), bytes[1] <= UInt8(ascii: "9")
        else { return false }
        return bytes.dropFirst().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
