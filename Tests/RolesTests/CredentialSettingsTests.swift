import Foundation
import Roles
import SwitchboardTesting
import Testing

/// Credentials that cannot be meant for production stop every role before it starts.
@Suite("Credential settings: placeholders and short secrets are refused")
struct CredentialSettingsTests {
    static let strong = "0123456789abcdef0123"

    @Test(
        "a placeholder or a value under 16 bytes in any of Switchboard's own credentials is refused, naming it",
        arguments: [
            "SWITCHBOARD_HOOK_TOKENS", "SWITCHBOARD_HOOK_HMAC_SECRET", "SWITCHBOARD_HOOK_HMAC_PREVIOUS_SECRET",
            "SWITCHBOARD_CONSOLE_TOKENS", "SWITCHBOARD_FIREHOSE_ACCESS_KEYS",
        ])
    func ownCredentials(key: String) throws {
        // The token and key lists are comma-separated: each of their values counts on its own.
        let isList = !key.contains("HMAC")
        for value in [
            "CHANGE-ME-PLACEHOLDER-hook-token", "change_me_please_0123456789", "short-token",
            isList ? "\(Self.strong),fifteen-bytes-x" : "fifteen-bytes-x",
        ] {
            do {
                _ = try Settings(environment: [key: value])
                Issue.record("\(key)=\(value) was accepted")
            } catch let error as SettingsError {
                #expect(error.key == key)
                #expect(error.description.hasPrefix(key), "\(error)")
                for part in value.split(separator: ",") where part != Self.strong {
                    #expect(!error.description.contains(part), "the error never repeats the value: \(error)")
                }
            }
        }
        #expect(throws: Never.self) {
            try Settings(environment: [key: isList ? "\(Self.strong),sixteen-bytes-xx" : "sixteen-bytes-xx"])
        }
    }

    @Test("a placeholder password in the database URL or in a Kafka secret property is refused")
    func databaseAndKafka() throws {
        #expect {
            try Settings(environment: [
                "SWITCHBOARD_DATABASE_URL": "postgres://switchboard:CHANGE-ME-PLACEHOLDER@db:5432/switchboard"
            ])
        } throws: { ($0 as? SettingsError)?.key == "SWITCHBOARD_DATABASE_URL" }
        #expect {
            try Settings(environment: [
                "SWITCHBOARD_KAFKA_PROPERTIES":
                    "security.protocol=SASL_SSL,sasl.username=switchboard,sasl.password=CHANGE-ME-PLACEHOLDER"
            ])
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.key == "SWITCHBOARD_KAFKA_PROPERTIES" && error.description.contains("sasl.password")
                && !error.description.contains("CHANGE-ME")
        }
        // Real-looking values of any length are the database's and the broker's business.
        #expect(throws: Never.self) {
            try Settings(environment: [
                "SWITCHBOARD_DATABASE_URL": "postgres://switchboard:s3cret@db:5432/switchboard",
                "SWITCHBOARD_KAFKA_PROPERTIES": "sasl.username=switchboard,sasl.password=s3cret",
            ])
        }
    }

    @Test(
        "a role started with a placeholder or a short credential exits at once, naming the variable",
        arguments: [
            (["serve"], "SWITCHBOARD_HOOK_TOKENS", "CHANGE-ME-PLACEHOLDER-hook-token"),
            (["serve"], "SWITCHBOARD_CONSOLE_TOKENS", "too-short"),
            (["receive"], "SWITCHBOARD_FIREHOSE_ACCESS_KEYS", "CHANGE-ME-PLACEHOLDER"),
            (["ingest"], "SWITCHBOARD_DATABASE_URL", "postgres://switchboard:CHANGE-ME-PLACEHOLDER@127.0.0.1:9/x"),
            (["migrate"], "SWITCHBOARD_DATABASE_URL", "postgres://switchboard:CHANGE-ME-PLACEHOLDER@127.0.0.1:9/x"),
            (
                ["serve"], "SWITCHBOARD_STAFFING_DATABASE_URL",
                "postgres://switchboard_serve:CHANGE-ME-PLACEHOLDER@127.0.0.1:9/x"
            ),
            (["dev"], "SWITCHBOARD_HOOK_HMAC_SECRET", "abc"),
        ])
    func rolesRefuse(arguments: [String], key: String, value: String) async throws {
        var environment = ProcessInfo.processInfo.environment
        environment[key] = value
        environment["SWITCHBOARD_KAFKA_BOOTSTRAP"] = "127.0.0.1:9"
        environment["SWITCHBOARD_HTTP_PORT"] = String(LoopbackSocket.freePort())
        let (status, output) = try await ChildProcess.run(
            [SwitchboardProcess.binary] + arguments, environment: environment, killAfter: .seconds(30))
        #expect(status != 0 && status != 137, "\(arguments) exits with an error, at once:\n\(output)")
        #expect(output.contains(key), "the message names \(key):\n\(output)")
        #expect(!output.contains("CHANGE-ME"), "the message does not repeat the value:\n\(output)")
    }
}
