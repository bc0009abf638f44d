import Foundation
import Primitives

/// What a traffic simulator knows and no forecast can: the expected offered contacts (λ) per
/// queue, business date and 15-minute slot, and the queue-days a shock struck (a store's rate
/// scaled from a time of day on; ``TrafficShocks``).
///
/// A backtest scores it as a forecast that knows λ: a slot's offered count N still varies around
/// λ by Poisson chance, so even this forecast errs by E|N − λ| per slot, and its WAPE
/// Σ E|N − λ| / Σ λ is the floor below which no forecast of these counts can go on average.
/// Written and read as CSV (`queue,date,slot,expected,shocked`), so a simulator's replicas can
/// compute it once and any backtest read it.
public struct StaffingOracle: Sendable, Equatable {
    /// Expected offered contacts per queue, date and slot.
    public var expected = OfferedHistory()
    /// Queue-days with a shock at one of the queue's stores: `queue` → dates.
    public var shocked: [String: Set<CivilDate>] = [:]
    /// The dates the oracle covers (every queue-day of these dates is known, 0 where absent).
    public var dates: Set<CivilDate> = []

    public init() {}

    /// Whether `queue`'s `date` had a shock.
    public func isShocked(queue: String, on date: CivilDate) -> Bool {
        shocked[queue]?.contains(date) ?? false
    }

    /// The mean absolute deviation of a Poisson count from its mean, E|N − λ| for N ~ Poisson(λ):
    /// 2 e^(−λ) λ^(⌊λ⌋+1) / ⌊λ⌋! (0.74 at λ = 1, 1.75 at λ = 5), computed through logarithms
    /// so large λ do not overflow.
    public static func meanAbsoluteDeviation(_ lambda: Double) -> Double {
        guard lambda > 0, lambda.isFinite else { return 0 }
        let k = lambda.rounded(.down)
        return 2 * exp(-lambda + (k + 1) * log(lambda) - lgamma(k + 1))
    }

    /// The CSV header.
    public static let csvHeader = "queue,date,slot,expected,shocked"

    /// The oracle as CSV: the header, then one line per queue, date and slot with λ > 0, and one
    /// line with slot -1 and expected 0 per queue-day that is shocked but otherwise empty.
    public var csv: String {
        var out = Self.csvHeader + "\n"
        for date in dates.sorted() {
            let day = expected.day(date)
            var queues = Set(day.keys.map(\.queue))
            for (queue, days) in shocked where days.contains(date) { queues.insert(queue) }
            for queue in queues.sorted() {
                let flag = isShocked(queue: queue, on: date) ? 1 : 0
                let slots = day.filter { $0.key.queue == queue }.sorted { $0.key.slot < $1.key.slot }
                if slots.isEmpty { out += "\(Self.quoted(queue)),\(date),-1,0,\(flag)\n" }
                for (key, value) in slots {
                    out += "\(Self.quoted(queue)),\(date),\(key.slot.index),\(value),\(flag)\n"
                }
            }
        }
        return out
    }

    /// A CSV problem, with its line.
    public struct ParseError: Error, CustomStringConvertible {
        public var line: Int
        public var problem: String
        public var description: String { "oracle line \(line): \(problem)" }
    }

    /// Reads ``csv``'s format. Every date that appears counts as covered.
    /// - Throws: ``ParseError`` for a wrong header, a line without five fields, or a bad field.
    public init(csv text: String) throws(ParseError) {
        var lines = text.split(whereSeparator: \.isNewline).makeIterator()
        guard lines.next().map(String.init) == Self.csvHeader else {
            throw ParseError(line: 1, problem: "the header is not \(Self.csvHeader)")
        }
        var number = 1
        while let line = lines.next() {
            number += 1
            let fields = Self.fields(of: String(line))
            guard fields.count == 5 else { throw ParseError(line: number, problem: "expected 5 fields") }
            guard let date = CivilDate(parsing: fields[1]) else {
                throw ParseError(line: number, problem: "bad date \(fields[1])")
            }
            guard let slot = Int(fields[2]), slot >= -1, let value = Double(fields[3]), value >= 0, value.isFinite,
                fields[4] == "0" || fields[4] == "1"
            else {
                throw ParseError(line: number, problem: "bad slot, expected count or shock flag")
            }
            dates.insert(date)
            if fields[4] == "1" { shocked[fields[0], default: []].insert(date) }
            if slot >= 0 { expected.add(value, queue: fields[0], slot: DaySlot(slot), on: date) }
        }
    }

    /// A field as CSV writes it: quoted when it holds a comma, a quote or a line break.
    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The fields of one CSV line (RFC 4180 quoting).
    static func fields(of line: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var characters = line.makeIterator()
        while let character = characters.next() {
            if quoted {
                if character == "\"" {
                    if let next = characters.next() {
                        if next == "\"" {
                            field.append("\"")
                        } else {
                            quoted = false
                            if next == "," {
                                fields.append(field)
                                field = ""
                            } else {
                                field.append(next)
                            }
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}
