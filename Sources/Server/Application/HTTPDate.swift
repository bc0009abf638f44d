import Foundation
import Synchronization

/// The `Date` header's value (RFC 9110's IMF-fixdate), formatted once per second.
final class HTTPDate: Sendable {
    private let cache = Mutex((second: Int.min, text: ""))

    func now() -> String {
        let second = Int(time(nil))
        return cache.withLock { cache in
            if cache.second != second {
                cache = (second, Self.format(second))
            }
            return cache.text
        }
    }

    static func format(_ second: Int) -> String {
        var time = time_t(second)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
