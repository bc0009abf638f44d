import Foundation
import Primitives

/// What an intraday reforecast is asked for.
public struct IntradayRequest: Sendable {
    /// The business date; nil: the one in progress at `instant`.
    public var date: CivilDate?
    /// The instant to stand at, seconds since 1970; nil: now (the live floor counts).
    public var instant: Double?
    /// Instead of `instant`: minutes after the business date's midnight to stand at (a replay).
    public var clockMinute: Int?
    /// One queue (id or name); nil: every queue.
    public var queue: String?
    public var model: StaffingPlan.ModelChoice
    public var target: ServiceTarget
    public var changes: [IntradayChange]
    public var parameters: IntradayParameters

    public init(
        date: CivilDate? = nil, instant: Double? = nil, clockMinute: Int? = nil, queue: String? = nil,
        model: StaffingPlan.ModelChoice = .erlangA, target: ServiceTarget, changes: [IntradayChange] = [],
        parameters: IntradayParameters = .standard
    ) {
        self.date = date
        self.instant = instant
        self.clockMinute = clockMinute
        self.queue = queue
        self.model = model
        self.target = target
        self.changes = changes
        self.parameters = parameters
    }
}

/// The live floor's part of a reforecast made now.
public struct IntradayLive: Sendable, Equatable {
    /// Agents staffed now per queue id (``StaffedNow``).
    public var staffed: [String: Double]
    /// Contacts waiting or with an agent now per queue id: not in any record yet.
    public var inProgress: [String: Double]

    public init(staffed: [String: Double], inProgress: [String: Double]) {
        self.staffed = staffed
        self.inProgress = inProgress
    }

    /// The figures of `view`: staffed by ``StaffedNow`` (shared out by `offeredLoad`), and in
    /// progress the contacts waiting in each queue plus those on an agent's desk (ringing,
    /// connected, on hold or in after-contact work), whose record comes only when they end.
    public init(view: FloorView, offeredLoad: [String: Double]) {
        var ids: [String: String] = [:]
        var inProgress: [String: Double] = [:]
        for queue in view.queues {
            if ids[queue.name] == nil { ids[queue.name] = queue.id }
            ids[queue.id] = queue.id
            inProgress[queue.id, default: 0] += Double(queue.waiting)
        }
        for agent in view.agents {
            for contact in agent.contacts {
                guard let label = contact.queue else { continue }
                switch contact.state {
                case .incoming, .pending, .connecting, .connected, .onHold, .afterContactWork:
                    inProgress[ids[label] ?? label, default: 0] += 1
                case .missed, .rejected, .error, .other:
                    continue
                }
            }
        }
        self.init(staffed: StaffedNow(view: view, offeredLoad: offeredLoad).queues, inProgress: inProgress)
    }
}

/// An intraday request refused before any work: the field at fault and what is wrong.
public struct IntradayRequestError: Error, Equatable, Sendable {
    public enum Field: Sendable, CaseIterable {
        case date, at, serviceLevel, model, addAgents, moveAgents
    }

    public var field: Field
    public var problem: String

    public init(_ field: Field, _ problem: String) {
        self.field = field
        self.problem = problem
    }

    /// The refusal in words, the field called as `name` calls it.
    public func message(naming name: (Field) -> String) -> String { "\(name(field)): \(problem)" }
}

extension IntradayRequest {
    /// A request from text, as a command line or a query string gives it.
    /// - Parameters:
    ///   - date: `YYYY-MM-DD`, or nil.
    ///   - at: `HH:MM` of the business date's clock (to 47:59), an ISO 8601 instant, or nil (now).
    ///   - serviceLevel: `P/X`.
    ///   - model: `erlang-a` (nil) or `erlang-c`.
    ///   - add: `N@HH:MM-HH:MM` each; they need `queue`.
    ///   - move: `N:FROM->TO@HH:MM-HH:MM` each.
    /// - Throws: ``IntradayRequestError`` naming the first field at fault.
    public init(
        date: String?, at: String?, queue: String?, serviceLevel: String, model: String?, add: [String],
        move: [String]
    ) throws(IntradayRequestError) {
        var day: CivilDate?
        if let date {
            guard let parsed = CivilDate(parsing: date) else {
                throw IntradayRequestError(.date, "must be a date YYYY-MM-DD (got \(date))")
            }
            day = parsed
        }
        var instant: Double?
        var clock: Int?
        if let at {
            if let minutes = IntradayChange.clockMinutes(at) {
                clock = minutes
            } else if let parsed = ISO8601DateFormatter().date(from: at) {
                instant = parsed.timeIntervalSince1970
            } else {
                throw IntradayRequestError(
                    .at, "must be HH:MM or an ISO 8601 instant such as 2026-07-19T18:00:00+09:00 (got \(at))")
            }
        }
        let modelName = model ?? StaffingPlan.ModelChoice.erlangA.rawValue
        guard let choice = StaffingPlan.ModelChoice(rawValue: modelName) else {
            throw IntradayRequestError(.model, "must be erlang-a or erlang-c (got \(modelName))")
        }
        let target: ServiceTarget
        do {
            target = try ServiceTarget(parsing: serviceLevel)
        } catch {
            throw IntradayRequestError(.serviceLevel, error.description)
        }
        var changes: [IntradayChange] = []
        for text in add {
            do {
                changes.append(try IntradayChange(adding: text))
            } catch {
                throw IntradayRequestError(.addAgents, error.description)
            }
            if queue == nil { throw IntradayRequestError(.addAgents, "needs a queue: the queue the agents join") }
        }
        for text in move {
            do {
                changes.append(try IntradayChange(moving: text))
            } catch {
                throw IntradayRequestError(.moveAgents, error.description)
            }
        }
        // The changes' limits together, named after the last kind given.
        let together: IntradayRequestError.Field = move.isEmpty ? .addAgents : .moveAgents
        guard changes.count <= IntradayChange.maximumChanges else {
            throw IntradayRequestError(
                together,
                "at most \(IntradayChange.maximumChanges) what-if changes at once, add_agents and move_agents together (got \(changes.count))"
            )
        }
        if let (slot, agents) = IntradayChange.busiestSlot(changes), agents > IntradayChange.maximumAgents {
            throw IntradayRequestError(
                together,
                "the changes together name \(agents) agents in the slot at \(IntradayChange.clock(slot)): at most \(IntradayChange.maximumAgents) in any slot"
            )
        }
        self.init(
            date: day, instant: instant, clockMinute: clock, queue: queue, model: choice, target: target,
            changes: changes)
    }
}
