/// What a queue's staffing must achieve: "P % within X seconds", and optionally an average speed
/// of answer and a maximum occupancy.
///
/// The service level targeted is **answered within X over offered** (the stricter figure: a caller
/// who hangs up counts against it); Connect's definition is reported beside it, never targeted
/// (with abandonment it rewards callers giving up quickly).
public struct ServiceTarget: Sendable, Equatable {
    /// The share of offered contacts to answer within `thresholdSeconds`, within (0, 1).
    public var serviceLevel: Double
    /// X, seconds, within (0, ``maximumSeconds``].
    public var thresholdSeconds: Double
    /// The highest average speed of answer allowed, seconds, within (0, ``maximumSeconds``] (nil:
    /// no such target).
    public var averageSpeedOfAnswerSeconds: Double?
    /// The highest share of time agents may be busy, within [``lowestOccupancyCap``, 1] (nil: no
    /// cap).
    public var maximumOccupancy: Double?

    /// The longest threshold or average speed of answer a target may name: an hour.
    public static let maximumSeconds = 3_600.0
    /// The lowest occupancy cap: below half, a plan pays agents to wait more than they work, and
    /// the agents needed grow without bound as the cap nears 0.
    public static let lowestOccupancyCap = 0.5

    /// A validated target.
    /// - Throws: `StaffingError` naming the input out of range.
    public init(
        serviceLevel: Double, thresholdSeconds: Double, averageSpeedOfAnswerSeconds: Double? = nil,
        maximumOccupancy: Double? = nil
    ) throws(StaffingError) {
        guard serviceLevel.isFinite, serviceLevel > 0, serviceLevel < 1 else {
            throw .serviceLevelOutOfRange(serviceLevel)
        }
        guard thresholdSeconds.isFinite, thresholdSeconds > 0, thresholdSeconds <= Self.maximumSeconds else {
            throw .thresholdNotPositive(thresholdSeconds)
        }
        if let asa = averageSpeedOfAnswerSeconds, !(asa.isFinite && asa > 0 && asa <= Self.maximumSeconds) {
            throw .averageSpeedOfAnswerNotPositive(asa)
        }
        if let occupancy = maximumOccupancy,
            !(occupancy.isFinite && occupancy >= Self.lowestOccupancyCap && occupancy <= 1)
        {
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
    /// The highest shrinkage: 90 % of paid time off the queue already schedules ten agents for
    /// each one on it; beyond, N / (1 − s) grows without bound.
    public static let maximum = 0.9

    /// Agents to schedule so that `productive` are on the queue: N / (1 − s).
    ///
    /// - Important: never N × (1 + s), which understaffs (15 % shrinkage needs 17.6 % more staff,
    ///   50 % needs twice as many).
    /// - Throws: `StaffingError.shrinkageOutOfRange` unless `shrinkage` is within [0, ``maximum``].
    public static func scheduled(productive: Double, shrinkage: Double) throws(StaffingError) -> Double {
        guard shrinkage.isFinite, shrinkage >= 0, shrinkage <= maximum else { throw .shrinkageOutOfRange(shrinkage) }
        return productive / (1 - shrinkage)
    }

    /// Whole agents to schedule: ⌈N / (1 − s)⌉, with a tolerance so that 14 / 0.7 stays 20.
    /// - Throws: `StaffingError.shrinkageOutOfRange`, or `.agentsOutOfRange` when `productive` is
    ///   negative, not finite or schedules more than ``StaffingRequirement/maximumAgents`` × 10.
    public static func scheduledAgents(productive: Double, shrinkage: Double) throws(StaffingError) -> Int {
        let exact = try scheduled(productive: productive, shrinkage: shrinkage)
        let limit = Double(StaffingRequirement.maximumAgents) / (1 - maximum)
        guard exact.isFinite, exact >= 0, exact <= limit + 1 else { throw .agentsOutOfRange(productive) }
        return Int((exact - 1e-9).rounded(.up))
    }
}
