import Foundation

extension CivilDate {
    /// The date `instant` falls on in `timeZone` ("today" in the business time zone by default).
    public static func of(_ instant: Date = Date(), in timeZone: TimeZone) -> CivilDate {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: instant)
        return CivilDate(dayNumber: Int((Double(seconds) / 86_400).rounded(.down)))
    }
}
