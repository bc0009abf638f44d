import Foundation

/// One valid `flows/` set as loaded, shared by every request that evaluates against it.
///
/// A final class so that taking a snapshot under the store's lock is a single retain.
public final class LoadedFlows: Sendable {
    /// The compiled set.
    public let flows: FlowSet
    /// When it was loaded.
    public let loadedAt: Date
    /// The files it was loaded from.
    public let fileNames: [String]

    /// Wraps a set.
    public init(flows: FlowSet, loadedAt: Date = Date(), fileNames: [String] = []) {
        self.flows = flows
        self.loadedAt = loadedAt
        self.fileNames = fileNames
    }

    /// `24 stores, 2 flows, 6 profiles (4 files, loaded 2026-...)`.
    public var summary: String {
        "\(flows.stores.count) stores, \(flows.flows.count) flows, \(flows.profiles.count) profiles "
            + "(\(fileNames.count) files, loaded \(loadedAt.formatted(.iso8601)))"
    }
}
