import Dispatch
import Foundation
import Logging
import OperatingHours
import ServiceLifecycle

/// Reloads a ``FlowStore`` when its files change (polled) and on `SIGHUP`.
///
/// Polling compares names, sizes and modification times only, so it costs a few `stat` calls a
/// second. Reloads run on a dedicated serial queue: file I/O never blocks the cooperative pool.
public struct FlowReloadService: Service {
    /// The store reloaded.
    public let store: FlowStore
    /// The time between two polls.
    public let pollInterval: Duration
    /// Whether `SIGHUP` forces a reload.
    public let reloadOnHangup: Bool
    /// Runs after each reload that loaded a new valid set (e.g. rewriting the stores' business
    /// days in the database).
    public let onLoad: @Sendable (LoadedFlows) async -> Void
    private let queue = DispatchQueue(label: "switchboard.flows.reload")

    /// Creates the service.
    public init(
        store: FlowStore, pollInterval: Duration = .seconds(1), reloadOnHangup: Bool = true,
        onLoad: @escaping @Sendable (LoadedFlows) async -> Void = { _ in }
    ) {
        self.store = store
        self.pollInterval = pollInterval
        self.reloadOnHangup = reloadOnHangup
        self.onLoad = onLoad
    }

    public func run() async throws {
        let hangups = reloadOnHangup ? HangupSignal.notifications() : nil
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: pollInterval)
                        if Task.isCancelled { break }
                        await reload(force: false)
                    }
                }
                if let hangups {
                    group.addTask {
                        for await _ in hangups { await reload(force: true) }
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
    }

    /// Reloads on the service's queue.
    @discardableResult
    public func reload(force: Bool) async -> FlowStore.ReloadOutcome {
        let outcome = await withCheckedContinuation { continuation in
            queue.async { [store] in continuation.resume(returning: store.reload(force: force)) }
        }
        if case .loaded(let loaded) = outcome { await onLoad(loaded) }
        return outcome
    }
}

/// `SIGHUP` as an asynchronous sequence (the conventional "reload your configuration" signal).
enum HangupSignal {
    /// Notifications of `SIGHUP`; the signal's default action (terminate) is replaced while the
    /// stream is iterated.
    static func notifications() -> AsyncStream<Void> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            signal(SIGHUP, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
            source.setEventHandler { continuation.yield() }
            let handle = SignalSourceHandle(source: source)
            continuation.onTermination = { _ in handle.source.cancel() }
            source.resume()
        }
    }

    /// Carries the dispatch source into the termination handler.
    ///
    /// `@unchecked Sendable`: the source is only cancelled there, and `cancel()` is thread-safe.
    private final class SignalSourceHandle: @unchecked Sendable {
        let source: any DispatchSourceSignal
        init(source: any DispatchSourceSignal) { self.source = source }
    }
}
