import Foundation
import SwitchboardTesting

extension SwitchboardProcess {
    /// The access key the receivers of ``receiver(bootstrap:port:environment:)`` accept (beside an
    /// older one).
    static let receiverAccessKey = "receiver-key-for-tests"

    /// A `switchboard receive` process on `port` (a free one by default).
    static func receiver(
        bootstrap: String, port: Int = LoopbackSocket.freePort(), environment extra: [String: String] = [:]
    ) throws -> SwitchboardProcess {
        var environment = [
            "SWITCHBOARD_FIREHOSE_ACCESS_KEYS": "old-key-for-tests,\(receiverAccessKey)",
            "SWITCHBOARD_RECEIVER_PRODUCE_TIMEOUT_MS": "3000",
            "SWITCHBOARD_LOG_LEVEL": "info",
            "SWITCHBOARD_SHUTDOWN_DRAIN_SECONDS": "0",
        ]
        environment.merge(extra) { $1 }
        return try SwitchboardProcess(
            ["receive", "--bootstrap", bootstrap], environment: environment, httpPort: port,
            log: FileManager.default.temporaryDirectory.appendingPathComponent("receiver-\(port).log").path)
    }
}
