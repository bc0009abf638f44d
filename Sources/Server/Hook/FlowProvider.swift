import OperatingHours

/// Where the hook's routes read the flows they evaluate: the port the HTTP target declares.
///
/// The roles implement it with `FlowStore` (flows/ on disk, reloaded on change); tests and
/// embedders can hand over a fixed set with ``FixedFlows``. Read once per request, so it must be
/// cheap and never block.
public protocol FlowProvider: Sendable {
    /// The flows in force, or `nil` while no valid set has been loaded.
    var current: LoadedFlows? { get }
}

/// A flow set that never changes.
public struct FixedFlows: FlowProvider {
    public let current: LoadedFlows?

    /// - Parameter flows: The set to serve.
    public init(_ flows: FlowSet) {
        current = LoadedFlows(flows: flows)
    }
}
