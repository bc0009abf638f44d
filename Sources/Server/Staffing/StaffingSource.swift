import ContactCenter

/// The port `GET /v1/staffing` reads plans through (implemented in Roles over PostgreSQL).
public protocol StaffingSource: Sendable {
    /// The plan for `request`, not stored.
    /// - Throws: `StaffingRequestError` for a request to refuse (an unknown queue); anything else
    ///   is a 500.
    func staffing(_ request: StaffingPlanRequest) async throws -> (plan: StaffingPlan, queueNames: [String: String])
}
