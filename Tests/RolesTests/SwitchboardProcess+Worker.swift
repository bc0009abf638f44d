import Foundation
import SwitchboardTesting

extension SwitchboardProcess {
    /// A `switchboard ingest` worker of consumer group `group`, writing to `databaseURL`; its log
    /// is named after `name`.
    static func worker(
        bootstrap: String, databaseURL: String, group: String, name: String, environment extra: [String: String] = [:]
    ) throws -> SwitchboardProcess {
        let port = LoopbackSocket.freePort()
        var environment = [
            "SWITCHBOARD_DATABASE_URL": databaseURL,
            "SWITCHBOARD_INGEST_GROUP": group,
            "SWITCHBOARD_KAFKA_SESSION_TIMEOUT_MS": "6000",
            "SWITCHBOARD_LOG_LEVEL": "info",
            "SWITCHBOARD_INGEST_BATCH_RECORDS": "500",
        ]
        environment.merge(extra) { $1 }
        return try SwitchboardProcess(
            ["ingest", "--bootstrap", bootstrap], environment: environment, httpPort: port,
            log: FileManager.default.temporaryDirectory.appendingPathComponent("worker-\(name)-\(port).log").path)
    }
}
