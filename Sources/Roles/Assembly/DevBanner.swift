import Foundation
import Storage

/// What `switchboard dev` started and where, printed once it is up.
struct DevBanner: Sendable {
    var settings: Settings
    var bootstrap: String
    var embedded: Bool
    var database: DatabaseConfiguration

    func print() {
        let http = "http://\(settings.httpHost):\(settings.httpPort)"
        var analyst = database
        analyst.username = "switchboard_analyst"
        let lines = [
            "",
            "Switchboard is running (Ctrl-C stops everything).",
            "  Console     \(http)/console",
            "  IVR hook    curl -s -X POST \(http)/v1/hooks/main -H 'content-type: application/json' \\",
            "                -d '{\"storeId\": \"shibuya-trattoria\"}'",
            "  Receiver    \(http)/v1/firehose/{contact-records,agent-events,contact-events}  (Firehose's contract; "
                + "the simulator delivers \(settings.simulatorVia == .kafka ? "to Kafka directly" : "through it"))",
            "  Kafka       \(bootstrap)\(embedded ? "  (embedded, \(settings.embeddedPartitions) partitions per topic)" : "")",
            "              topics: \(settings.topics.joined(separator: ", "))   try: kcat -b \(bootstrap) -L",
            "  PostgreSQL  \(database.redactedURL)",
            "  Analysts    psql \(analyst.redactedURL) \\",
            "                -c 'SELECT * FROM queue_interval_metrics ORDER BY interval_start DESC LIMIT 10'",
            "  HTTP        health: \(http)/health   ready: \(http)/ready   metrics: \(http)/metrics",
            "",
        ]
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
