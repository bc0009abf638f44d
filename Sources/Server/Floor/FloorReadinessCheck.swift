/// `floor` in `/ready`: ready once the floor has caught up with its event source.
public struct FloorReadinessCheck: ReadinessCheck {
    let publisher: FloorPublisher
    public let name = "floor"

    /// Creates the check.
    public init(publisher: FloorPublisher) {
        self.publisher = publisher
    }

    public func check() async -> ReadinessStatus { await publisher.readiness() }
}
