/// What a queue's staffing must achieve: "P % within X seconds", and optionally an average speed
/// of answer and a maximum occupancy.
///
/// The service level targeted is **answered within X over offered** (the stricter figure: a caller
/// who hangs up counts against it); Connect's definition is reported beside it, never targeted
/// (with abandonment it rewards callers giving up quickly).
public struct ServiceTarget: Sendable, Equatable {
    /// The share of offered contacts to answer within `thresholdSeconds`, within (0, 1).
    public var serviceLevel: Double
    /// X, seconds, more than 0.
    public var thresholdSeconds: Double
    /// The highest average speed of answer allowed, seconds (nil: no such target).
    public var averageSpeedOfAnswerSeconds: Double?
    /// The highest share of time agents may be busy, within (0, 1] (nil: no cap).
    public var maximumOccupancy: Double?

    /// A validated target.
    /// - Throws: `StaffingError` naming the input out of range.
    public init(
        serviceLevel: Double, thresholdSeconds: Double, averageSpeedOfAnswerSeconds: Double? = nil,
        maximumOccupancy: Double? = nil
    ) throws(StaffingError) {
        guard serviceLevel.isFinite, serviceLevel > 0, serviceLevel < 1 else {
            throw .serviceLevelOutOfRange(serviceLevel)
        }
        guard thresholdSeconds.isFinite, thresholdSeconds > 0 else { throw .thresholdNotPositive(thresholdSeconds) }
        if let asa = averageSpeedOfAnswerSeconds, !(asa.isFinite && asa > 0) {
            throw .averageSpeedOfAnswerNotPositive(asa)
        }
        if let occupancy = maximumOccupancy, !(occupancy.isFinite && occupancy > 0 && occupancy <= 1) {
            throw .maximumOccupancyOutOfRange(occupancy)
        }
        self.serviceLevel = serviceLevel
        self.thresholdSeconds = thresholdSeconds
        self.averageSpeedOfAnswerSeconds = averageSpeedOfAnswerSeconds
        self.maximumOccupancy = maximumOccupancy
    }

    /// Parses `P/X` as planners write it: `80/20` is 80 % within 20 seconds.
    /// - Throws: `StaffingError.serviceLevelSyntax` for other text, or the range errors of `init`.
    public init(parsing text: String, maximumOccupancy: Double? = nil) throws(StaffingError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let percent = Double(parts[0]), let seconds = Double(parts[1]) else {
            throw .serviceLevelSyntax(text)
        }
        try self.init(serviceLevel: percent / 100, thresholdSeconds: seconds, maximumOccupancy: maximumOccupancy)
    }
}

/// Shrinkage: the share of paid time agents spend off the queue (breaks, training, meetings).
public enum Shrinkage {
    /// Agents to schedule so that `productive` are on the queue: N / (1 − s).
    ///
    /// - Important: never N × (1 + s), which understaffs (15 % shrinkage needs 17.6 % more staff,
    ///   50 % needs twice as many).
    /// - Throws: `StaffingError.shrinkageOutOfRange` unless `shrinkage` is within [0, 1).
    public static func scheduled(productive: Double, shrinkage: Double) throws(StaffingError) -> Double {
        guard shrinkage.isFinite, shrinkage >= 0, shrinkage < 1 else { throw .shrinkageOutOfRange(shrinkage) }
        return productive / (1 - shrinkage)
    }

    /// Whole agents to schedule: ⌈N / (1 − s)⌉, with a tolerance so that 14 / 0.7 stays 20.
    public static func scheduledAgents(productive: Double, shrinkage: Double) throws(StaffingError) -> Int {
        let exact = try scheduled(productive: productive, shrinkage: shrinkage)
        return Int((exact - 1e-9).rounded(.up))
    }
}
