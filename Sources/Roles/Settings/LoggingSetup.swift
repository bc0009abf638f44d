import Foundation
import Logging
import Primitives

/// Sets up swift-log once per process: text or JSON lines on standard error.
public enum LoggingSetup {
    /// Bootstraps swift-log from the settings' level and format (call once per process).
    public static func bootstrap(_ settings: Settings) {
        let level = settings.logLevel
        let json = settings.logFormat == "json"
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler =
                json ? JSONLogHandler(label: label) : TextLogHandler(label: label)
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
        guard var data = try? JSONCoding.encode(object) else { return }
        data.append(0x0A)
        FileHandle.standardError.write(data)
    }
}

/// A log handler writing swift-log's text lines (`StreamLogHandler`'s format) to standard error,
/// rendering the metadata when a line is written.
///
/// `StreamLogHandler` renders its whole metadata into a string at every metadata write, logged
/// or not: the request id and the hook's contact id are written on every request, and that was
/// ~4 % of the hook's CPU at a level that logs nothing.
struct TextLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let explicit = event.metadata { merged.merge(explicit) { $1 } }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        let rendered = merged.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        let line = "\(Self.timestamp()) \(event.level) \(label):\(rendered) [\(event.source)] \(event.message)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// The local time as `2026-11-27T17:02:03+0900`.
    private static func timestamp() -> String {
        var now = time(nil)
        var local = tm()
        guard localtime_r(&now, &local) != nil else { return "<unknown>" }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
