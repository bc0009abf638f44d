import ContactCenter

/// The port `GET /v1/staffing` reads plans through (implemented in Roles over PostgreSQL).
public protocol StaffingSource: Sendable {
    /// The plan for `query`, not stored.
    /// - Throws: `StaffingRefusal` for a request to refuse (unknown queue, range too long);
    ///   anything else is a 500.
    func staffing(_ query: StaffingQuery) async throws -> (plan: StaffingPlan, queueNames: [String: String])
}

/// What `GET /v1/staffing` asks for, validated.
public struct StaffingQuery: Sendable {
    public var queue: String?
    public var from: String
    public var to: String
    public var model: StaffingPlan.ModelChoice
    public var target: ServiceTarget
    public var shrinkage: Double

    public init(
        queue: String?, from: String, to: String, model: StaffingPlan.ModelChoice, target: ServiceTarget,
        shrinkage: Double
    ) {
        self.queue = queue
        self.from = from
        self.to = to
        self.model = model
        self.target = target
        self.shrinkage = shrinkage
    }
}

/// A staffing request refused, with the reason for the caller (a 400).
public struct StaffingRefusal: Error, Sendable {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }
}
