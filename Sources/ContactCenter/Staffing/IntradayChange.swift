import Primitives

/// A what-if change of the agents on the floor for a window of the business day: agents added to
/// a queue (`N@HH:MM-HH:MM`), or moved from one queue to another (`N:FROM->TO@HH:MM-HH:MM`: those
/// agents serve TO instead of FROM for the window).
///
/// Times are a clock from the business date's midnight, as the flows write them: `24:00`–`29:59`
/// is the night after; a window whose end is not after its start ends the next day
/// (`22:00-01:00`). A slot is in the window when it starts within it.
public struct IntradayChange: Sendable, Equatable, CustomStringConvertible {
    /// Added to the queue asked about, or moved between two queues (ids or names).
    public enum Kind: Sendable, Equatable {
        case add
        case move(from: String, to: String)
    }

    public var kind: Kind
    /// How many agents, 1...1000.
    public var agents: Int
    /// Minutes after the business date's midnight: the window's start and end.
    public var window: Range<Int>

    /// The most agents one change may name, and all of a request's changes together in a slot.
    public static let maximumAgents = 1_000
    /// The most changes one request may make: each one is scored over every slot of the day.
    public static let maximumChanges = 16

    /// The slot start (minutes after the business date's midnight) whose changes together name
    /// the most agents, and that sum; nil without changes.
    public static func busiestSlot(_ changes: [IntradayChange]) -> (minute: Int, agents: Int)? {
        guard let end = changes.map(\.window.upperBound).max() else { return nil }
        var busiest: (minute: Int, agents: Int)?
        for minute in stride(from: 0, to: end, by: DaySlot.minutes) {
            let agents = changes.reduce(0) { $0 + ($1.window.contains(minute) ? $1.agents : 0) }
            if agents > busiest?.agents ?? -1 { busiest = (minute, agents) }
        }
        return busiest
    }

    public init(kind: Kind, agents: Int, window: Range<Int>) {
        self.kind = kind
        self.agents = agents
        self.window = window
    }

    /// `N@HH:MM-HH:MM`.
    /// - Throws: ``IntradayChangeError`` saying what is wrong.
    public init(adding text: String) throws(IntradayChangeError) {
        let (count, window) = try Self.split(text, syntax: "N@HH:MM-HH:MM")
        self.init(kind: .add, agents: try Self.agents(count, text), window: window)
    }

    /// `N:FROM->TO@HH:MM-HH:MM`.
    /// - Throws: ``IntradayChangeError`` saying what is wrong.
    public init(moving text: String) throws(IntradayChangeError) {
        let syntax = "N:FROM->TO@HH:MM-HH:MM"
        let (head, window) = try Self.split(text, syntax: syntax)
        guard let colon = head.firstIndex(of: ":"), let arrow = head.range(of: "->") else {
            throw IntradayChangeError(text: text, problem: "expected \(syntax)")
        }
        let from = String(head[head.index(after: colon)..<arrow.lowerBound])
        let to = String(head[arrow.upperBound...])
        guard !from.isEmpty, !to.isEmpty else {
            throw IntradayChangeError(text: text, problem: "both queues must be named (\(syntax))")
        }
        guard from != to else { throw IntradayChangeError(text: text, problem: "a move needs two different queues") }
        self.init(
            kind: .move(from: from, to: to), agents: try Self.agents(String(head[..<colon]), text), window: window)
    }

    /// The change as written.
    public var description: String {
        let clock = "\(Self.clock(window.lowerBound))-\(Self.clock(window.upperBound))"
        switch kind {
        case .add: return "\(agents)@\(clock)"
        case .move(let from, let to): return "\(agents):\(from)->\(to)@\(clock)"
        }
    }

    /// Whether `slot` starts within the window.
    public func covers(_ slot: DaySlot) -> Bool {
        window.contains(slot.index * DaySlot.minutes)
    }

    /// The agents this change adds to `queue` (an id; `names` resolves the names the change
    /// used) in `slot`, negative when they move away; `asked` is the queue an `add` applies to.
    public func delta(queue: String, slot: DaySlot, asked: String?, resolve: (String) -> String) -> Double {
        guard covers(slot) else { return 0 }
        switch kind {
        case .add:
            return asked.map(resolve) == queue ? Double(agents) : 0
        case .move(let from, let to):
            if resolve(to) == queue { return Double(agents) }
            if resolve(from) == queue { return -Double(agents) }
            return 0
        }
    }

    private static func split(_ text: String, syntax: String) throws(IntradayChangeError) -> (String, Range<Int>) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw IntradayChangeError(text: text, problem: "expected \(syntax)") }
        let times = parts[1].split(separator: "-", omittingEmptySubsequences: false)
        guard times.count == 2, let start = clockMinutes(times[0]), var end = clockMinutes(times[1]) else {
            throw IntradayChangeError(text: text, problem: "the window must be HH:MM-HH:MM (\(syntax))")
        }
        if end <= start { end += 24 * 60 }
        guard end - start <= 24 * 60 else {
            throw IntradayChangeError(text: text, problem: "the window is longer than a day")
        }
        return (String(parts[0]), start..<end)
    }

    private static func agents(_ text: String, _ whole: String) throws(IntradayChangeError) -> Int {
        guard let count = Int(text), (1...maximumAgents).contains(count) else {
            throw IntradayChangeError(
                text: whole, problem: "the agents must be a whole number within 1...\(maximumAgents)")
        }
        return count
    }

    /// `HH:MM` with HH in 0...47 (a business day's clock), as minutes; nil when not so written.
    public static func clockMinutes(_ text: some StringProtocol) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hours = Int(parts[0]),
            let minutes = Int(parts[1]), (0...47).contains(hours), (0...59).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }

    /// `HH:MM` of `minutes` after the business date's midnight (`25:00` past it).
    static func clock(_ minutes: Int) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }
}

/// A what-if change refused: the text and what is wrong with it.
public struct IntradayChangeError: Error, Equatable, Sendable, CustomStringConvertible {
    public var text: String
    public var problem: String

    public init(text: String, problem: String) {
        self.text = text
        self.problem = problem
    }

    public var description: String { "\(text): \(problem)" }
}
