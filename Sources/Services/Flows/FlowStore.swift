import Foundation
import Logging
import Metrics
import OperatingHours
import Synchronization

/// The current good `flows/` set of a directory, swapped atomically on reload.
///
/// Readers take a snapshot (``current``) and evaluate against it while a reload runs. A reload
/// that finds an invalid set refuses it: the last good set keeps serving, and the error is kept
/// for `/ready` (``status``) and logged with the file, line and fix of every problem.
public final class FlowStore: Sendable {
    /// The outcome of one ``reload(force:)``.
    public enum ReloadOutcome: Sendable {
        /// The files did not change since the last attempt.
        case unchanged
        /// A valid set was loaded and now serves.
        case loaded(LoadedFlows)
        /// The new files were refused; the message names every problem.
        case refused(String)

        /// Whether a valid set was loaded.
        public var isLoaded: Bool {
            if case .loaded = self { return true }
            return false
        }
    }

    /// What the store holds, for readiness.
    public struct Status: Sendable {
        /// The set serving now, or `nil` when no valid set was ever loaded.
        public var current: LoadedFlows?
        /// The error of the last reload when it was refused (cleared by the next good one).
        public var lastError: String?
        /// When ``lastError`` happened.
        public var lastErrorAt: Date?
    }

    /// The directory, or `nil` for a fixed set.
    public let directory: String?
    private let state: Mutex<State>
    /// Serializes reloads (the poller and SIGHUP may ask at once); readers never take it.
    private let reloading = Mutex(())
    private let logger: Logger
    private let reloadsOK = Counter(label: "switchboard_flow_reloads_total", dimensions: [("result", "ok")])
    private let reloadsFailed = Counter(label: "switchboard_flow_reloads_total", dimensions: [("result", "failed")])
    private let storesGauge = Gauge(label: "switchboard_flow_stores")

    private struct State {
        var status = Status()
        var fingerprint: [FlowDirectory.Entry]?
    }

    /// Creates a store over a directory; nothing is loaded until ``reload(force:)``.
    public init(directory: String, logger: Logger = Logger(label: "switchboard.flows")) {
        self.directory = directory
        self.state = Mutex(State())
        self.logger = logger
    }

    /// Creates a store serving a fixed set (tests, previews); ``reload(force:)`` does nothing.
    public init(flows: FlowSet, logger: Logger = Logger(label: "switchboard.flows")) {
        self.directory = nil
        var state = State()
        state.status.current = LoadedFlows(flows: flows)
        self.state = Mutex(state)
        self.logger = logger
    }

    /// The set serving now, or `nil` when no valid set was ever loaded.
    public var current: LoadedFlows? {
        state.withLock { $0.status.current }
    }

    /// The current set and the last reload error.
    public var status: Status {
        state.withLock { $0.status }
    }

    /// Loads the directory when its files changed since the last attempt (always when `force`).
    ///
    /// - Important: Blocking file I/O: call it from a dedicated thread or queue, as
    ///   ``FlowReloadService`` does, not from the cooperative pool.
    @discardableResult
    public func reload(force: Bool = false) -> ReloadOutcome {
        guard let directory else { return .unchanged }
        return reloading.withLock { _ in
            let folder = FlowDirectory(path: directory)
            do {
                let entries = try folder.entries()
                if !force, state.withLock({ $0.fingerprint == entries }) { return .unchanged }
                state.withLock { $0.fingerprint = entries }
                guard !entries.isEmpty else {
                    throw FlowDirectoryError("no *.yaml files in \(directory)")
                }
                let files = try folder.read(entries)
                let set: FlowSet
                do {
                    set = try FlowSet.load(files: files)
                } catch {
                    return refuse("\(error)")
                }
                let loaded = LoadedFlows(flows: set, fileNames: entries.map(\.name))
                state.withLock { state in
                    state.status.current = loaded
                    state.status.lastError = nil
                    state.status.lastErrorAt = nil
                }
                reloadsOK.increment()
                storesGauge.record(set.stores.count)
                logger.info("flows loaded from \(directory): \(loaded.summary)")
                return .loaded(loaded)
            } catch {
                return refuse("\(error)")
            }
        }
    }

    private func refuse(_ message: String) -> ReloadOutcome {
        let servesOld = state.withLock { state in
            state.status.lastError = message
            state.status.lastErrorAt = Date()
            return state.status.current != nil
        }
        reloadsFailed.increment()
        logger.error(
            "flows refused\(servesOld ? "; the last good set keeps serving" : ""):\n\(message)",
            metadata: ["directory": "\(directory ?? "")"])
        return .refused(message)
    }
}

extension FlowStore {
    /// Loads `directory` once, for one-shot tools (`flows check`, `flows eval`, `calendar
    /// --flows`) and the traffic simulator: the same listing, reading and validation as serve.
    ///
    /// - Throws: ``FlowLoadError`` with every problem (file, line, fix).
    public static func load(directory: String) throws(FlowLoadError) -> LoadedFlows {
        let store = FlowStore(
            directory: directory, logger: Logger(label: "flows", factory: { _ in SwiftLogNoOpLogHandler() }))
        switch store.reload(force: true) {
        case .loaded(let loaded): return loaded
        case .refused(let message): throw FlowLoadError(description: message)
        case .unchanged: throw FlowLoadError(description: "\(directory) could not be read")
        }
    }
}

/// A flows/ directory that could not be loaded; the description lists each problem.
public struct FlowLoadError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
}
