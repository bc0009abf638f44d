import Primitives
import Testing

@testable import ContactCenter

/// A staffing request is checked in one place; each caller only names the fields its own way.
@Suite("Staffing plan request: one validation, field names per caller")
struct StaffingPlanRequestTests {
    static func text(
        from: String = "2026-12-28", to: String? = "2027-01-04", queue: String? = nil, model: String? = nil,
        serviceLevel: String = "80/20", maximumOccupancy: String? = nil, shrinkage: String? = nil
    ) throws(StaffingRequestError) -> StaffingPlanRequest {
        try StaffingPlanRequest(
            from: from, to: to, queue: queue, model: model, serviceLevel: serviceLevel,
            maximumOccupancy: maximumOccupancy, shrinkage: shrinkage)
    }

    /// The refusal of a request built by `body`, or nil when it is accepted.
    static func refusal(_ body: () throws -> StaffingPlanRequest) -> StaffingRequestError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? StaffingRequestError
        }
    }

    @Test("text becomes dates, a model, a target and a shrinkage; defaults fill what is left out")
    func accepted() throws {
        let request = try Self.text(maximumOccupancy: "0.85", shrinkage: "0.3")
        #expect(request.dates.lowerBound == CivilDate(year: 2026, month: 12, day: 28))
        #expect(request.dates.upperBound == CivilDate(year: 2027, month: 1, day: 4))
        #expect(request.queue == nil)
        #expect(request.model == .erlangA)
        #expect(request.target == (try ServiceTarget(serviceLevel: 0.8, thresholdSeconds: 20, maximumOccupancy: 0.85)))
        #expect(request.shrinkage == 0.3)
        let oneDay = try Self.text(to: nil, model: "erlang-c")
        #expect(oneDay.dates.lowerBound == oneDay.dates.upperBound)
        #expect(oneDay.model == .erlangC)
        // 400 days is the most: 2026-01-01 ... 2027-02-04.
        #expect((try? Self.text(from: "2026-01-01", to: "2027-02-04")) != nil)
    }

    @Test("each refusal names its field and what is wrong")
    func refused() {
        let cases: [(StaffingRequestError?, StaffingRequestError)] = [
            (Self.refusal { try Self.text(from: "2026-02-30") }, .init(.from, .notADate("2026-02-30"))),
            (Self.refusal { try Self.text(to: "tomorrow") }, .init(.to, .notADate("tomorrow"))),
            (
                Self.refusal { try Self.text(from: "2027-01-04", to: "2026-12-28") },
                .init(
                    .from,
                    .startsAfterEnd(
                        CivilDate(year: 2027, month: 1, day: 4)!, CivilDate(year: 2026, month: 12, day: 28)!))
            ),
            (
                Self.refusal { try Self.text(from: "2026-01-01", to: "2027-02-05") },
                .init(
                    .to,
                    .rangeTooLong(
                        CivilDate(year: 2026, month: 1, day: 1)!, CivilDate(year: 2027, month: 2, day: 5)!, days: 401,
                        maximum: 400))
            ),
            (Self.refusal { try Self.text(model: "erlang-x") }, .init(.model, .unknownModel("erlang-x"))),
            (
                Self.refusal { try Self.text(serviceLevel: "80") },
                .init(.serviceLevel, .invalid(.serviceLevelSyntax("80")))
            ),
            (
                Self.refusal { try Self.text(serviceLevel: "100/20") },
                .init(.serviceLevel, .invalid(.serviceLevelOutOfRange(1)))
            ),
            (Self.refusal { try Self.text(maximumOccupancy: "abc") }, .init(.maximumOccupancy, .notANumber("abc"))),
            (
                Self.refusal { try Self.text(maximumOccupancy: "1.5") },
                .init(.maximumOccupancy, .invalid(.maximumOccupancyOutOfRange(1.5)))
            ),
            (Self.refusal { try Self.text(shrinkage: "1") }, .init(.shrinkage, .invalid(.shrinkageOutOfRange(1)))),
            (Self.refusal { try Self.text(shrinkage: "nan") }, .init(.shrinkage, .notANumber("nan"))),
        ]
        for (actual, expected) in cases {
            #expect(actual == expected)
        }
    }

    @Test("the message names fields as the caller does")
    func messages() {
        let error = StaffingRequestError(
            .from, .startsAfterEnd(CivilDate(year: 2027, month: 1, day: 4)!, CivilDate(year: 2026, month: 12, day: 28)!)
        )
        #expect(error.message(naming: { "--" + $0.rawValue }) == "--from 2027-01-04 is after --to 2026-12-28")
        #expect(error.message(naming: \.rawValue) == "from 2027-01-04 is after to 2026-12-28")
        let shrinkage = StaffingRequestError(.shrinkage, .invalid(.shrinkageOutOfRange(1.5)))
        #expect(
            shrinkage.message(naming: { "--" + $0.rawValue })
                == "shrinkage 1.5 is outside [0, 0.9]: 0.3 means 30 % of paid time off the queue (--shrinkage)")
        let queue = StaffingRequestError(.queue, .unknownQueue("sushi", known: ["Delivery", "Reservations"]))
        #expect(
            queue.message(naming: \.rawValue) == "unknown queue sushi: queues with history are Delivery, Reservations")
    }

    @Test("a backtest covers whole weeks before its date, 1 to 104 of them")
    func backtest() throws {
        let before = CivilDate(year: 2026, month: 12, day: 1)!
        let request = try StaffingBacktestRequest(weeks: 2, before: before, queue: nil)
        #expect(request.days.count == 14)
        #expect(request.days.first == CivilDate(year: 2026, month: 11, day: 17))
        #expect(request.days.last == CivilDate(year: 2026, month: 11, day: 30))
        #expect(throws: StaffingRequestError(.weeks, .weeksOutOfRange(0, maximum: 104))) {
            try StaffingBacktestRequest(weeks: 0, before: before, queue: nil)
        }
        #expect(throws: StaffingRequestError(.weeks, .weeksOutOfRange(105, maximum: 104))) {
            try StaffingBacktestRequest(weeks: 105, before: before, queue: nil)
        }
    }
}
