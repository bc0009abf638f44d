import Foundation
import Logging
import Synchronization

/// The last lines a logger wrote, kept in memory: a database client's pool events (connections
/// opened, closed, failed, kept alive) at debug level cost nothing until a step that waits on
/// the client is reported by ``StepWatchdog``, which prints them.
public final class LogRing: Sendable {
    private let lines = Mutex<[String]>([])
    private let capacity: Int

    /// - Parameter capacity: How many lines are kept (the oldest go first).
    public init(capacity: Int = 100) {
        self.capacity = capacity
    }

    /// A logger at debug level whose lines go to this ring.
    public func logger(label: String) -> Logger {
        var logger = Logger(label: label) { label in Handler(label: label, ring: self) }
        logger.logLevel = .debug
        return logger
    }

    /// The lines kept, oldest first.
    public var text: String { lines.withLock { $0.joined(separator: "\n") } }

    fileprivate func append(_ line: String) {
        lines.withLock { lines in
            if lines.count == capacity { lines.removeFirst() }
            lines.append(line)
        }
    }

    private struct Handler: LogHandler {
        let label: String
        let ring: LogRing
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            let fields =
                merged.isEmpty ? "" : " " + merged.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
            ring.append("\(Date()) \(event.level) \(label): \(event.message)\(fields)")
        }
    }
}
