import Foundation
import Logging

/// Sets up swift-log once per process: text or JSON lines on standard error.
public enum LoggingSetup {
    /// Bootstraps swift-log from the settings' level and format (call once per process).
    public static func bootstrap(_ settings: Settings) {
        let level = settings.logLevel
        let json = settings.logFormat == "json"
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                json ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}

/// A log handler writing one JSON object per line (for log shippers).
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var object: [String: String] = [
            "ts": Date().formatted(.iso8601),
            "level": event.level.rawValue,
            "logger": label,
            "msg": event.message.description,
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            object[key] = value.description
        }
        guard var data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        data.append(0x0A)
        FileHandle.standardError.write(data)
    }
}
