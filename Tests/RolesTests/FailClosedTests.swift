import Foundation
import Kafka
import Roles
import SwitchboardTesting
import Testing

/// Production roles refuse to start open, and no secret reaches an error or a log line.
@Suite("Fail closed, keep secrets", .watched)
struct FailClosedTests {
    /// Runs `switchboard arguments` with `extra` over our environment (at most 60 s).
    static func run(_ arguments: [String], _ extra: [String: String]) async throws -> (status: Int32, output: String) {
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("SWITCHBOARD_") && !key.hasPrefix("SWITCHBOARD_TEST") {
            environment[key] = nil
        }
        environment["SWITCHBOARD_HTTP_PORT"] = String(LoopbackSocket.freePort())
        environment["SWITCHBOARD_LOG_LEVEL"] = "debug"
        environment.merge(extra) { $1 }
        return try await ChildProcess.run(
            [SwitchboardProcess.binary] + arguments, environment: environment, killAfter: .seconds(60))
    }

    static let token = "0123456789abcdef0123456789abcdef"

    @Test(
        "serve without hook credentials or console tokens exits at once, naming the variable",
        arguments: [
            (["SWITCHBOARD_CONSOLE_TOKENS": token], "SWITCHBOARD_HOOK_TOKENS"),
            (["SWITCHBOARD_HOOK_TOKENS": token], "SWITCHBOARD_CONSOLE_TOKENS"),
            (["SWITCHBOARD_HOOK_HMAC_SECRET": token, "SWITCHBOARD_ALLOW_OPEN": "hook"], "SWITCHBOARD_CONSOLE_TOKENS"),
            (["SWITCHBOARD_CONSOLE_TOKENS": token, "SWITCHBOARD_ALLOW_OPEN": "console"], "SWITCHBOARD_HOOK_TOKENS"),
        ])
    func serveRefusesOpen(environment: [String: String], missing: String) async throws {
        var environment = environment
        environment["SWITCHBOARD_KAFKA_BOOTSTRAP"] = "127.0.0.1:9"
        let (status, output) = try await Self.run(["serve"], environment)
        #expect(status != 0 && status != 137, "serve exits with an error, at once:\n\(output)")
        #expect(output.contains(missing), "the message names \(missing):\n\(output)")
        #expect(output.contains("SWITCHBOARD_ALLOW_OPEN"), "and the way to run it open on purpose:\n\(output)")
        #expect(!output.contains(Self.token), "no credential in the output:\n\(output)")
    }

    @Test("serve with SWITCHBOARD_ALLOW_OPEN builds; an unknown surface is refused")
    func allowOpen() throws {
        let settings = try Settings(environment: [
            "SWITCHBOARD_ALLOW_OPEN": "hook, console", "SWITCHBOARD_KAFKA_BOOTSTRAP": "127.0.0.1:9",
        ])
        #expect(settings.allowOpen == [.hook, .console])
        #expect(throws: SettingsError.self) { try Settings(environment: ["SWITCHBOARD_ALLOW_OPEN": "hook,receiver"]) }
        #expect(throws: SettingsError.self) { try Settings(environment: ["SWITCHBOARD_ALLOW_OPEN": "everything"]) }
    }

    @Test("dev refuses a non-loopback bind while a surface has no credentials, naming each")
    func devRefusesWideOpen() async throws {
        let (status, output) = try await Self.run(["dev"], ["SWITCHBOARD_HTTP_HOST": "0.0.0.0"])
        #expect(status != 0 && status != 137, "dev exits with an error, at once:\n\(output)")
        for name in ["SWITCHBOARD_HTTP_HOST", "SWITCHBOARD_HOOK_TOKENS", "SWITCHBOARD_CONSOLE_TOKENS"] {
            #expect(output.contains(name), "the message names \(name):\n\(output)")
        }
        let open = try Settings(environment: ["SWITCHBOARD_HTTP_HOST": "::1"])
        #expect(open.bindsLoopbackOnly)
        #expect(try Settings(environment: ["SWITCHBOARD_HTTP_HOST": "localhost"]).bindsLoopbackOnly)
        #expect(!(try Settings(environment: ["SWITCHBOARD_HTTP_HOST": "0.0.0.0"]).bindsLoopbackOnly))
        #expect(!(try Settings(environment: ["SWITCHBOARD_HTTP_HOST": "192.168.1.20"]).bindsLoopbackOnly))
    }

    @Test("a malformed database URL is shown with its password as ***, or not at all")
    func databaseURLRedacted() async throws {
        let (status, output) = try await Self.run(
            ["migrate"], ["SWITCHBOARD_DATABASE_URL": "pg://sb:TopSecret123@127.0.0.1/x"])
        #expect(status != 0 && status != 137, "migrate fails:\n\(output)")
        #expect(!output.contains("TopSecret123"), "the password is not printed:\n\(output)")
        #expect(output.contains("pg://sb:***@127.0.0.1/x"), "the URL is shown redacted:\n\(output)")
        let unparsable = try await Self.run(
            ["migrate"], ["SWITCHBOARD_DATABASE_URL": "postgres://sb:Top Secret%zz@[127.0.0.1/x"])
        #expect(unparsable.status != 0 && unparsable.status != 137)
        #expect(!unparsable.output.contains("Secret"), "an unparsable URL is not repeated:\n\(unparsable.output)")
    }

    @Test("a rejected Kafka property is named by its key only; a value with a comma is written \\,")
    func kafkaPropertiesRedacted() async throws {
        // librdkafka quotes an invalid value in its reason: the value is replaced.
        for (name, value) in [("sasl.pasword", "SECRETVALUE"), ("socket.timeout.ms", "SECRETVALUE")] {
            do {
                _ = try KafkaProducer(
                    configuration: KafkaProducerConfiguration(
                        common: KafkaConfiguration(bootstrapServers: "127.0.0.1:9", properties: [name: value])),
                    logger: .init(label: "test"))
                Issue.record("\(name) was accepted")
            } catch {
                let text = "\(error) \(String(reflecting: error))"
                #expect(text.contains(name), "\(text)")
                #expect(!text.contains(value), "the value is not repeated: \(text)")
            }
        }
        let (status, output) = try await Self.run(
            ["receive"],
            [
                "SWITCHBOARD_KAFKA_BOOTSTRAP": "127.0.0.1:9", "SWITCHBOARD_FIREHOSE_ACCESS_KEYS": Self.token,
                "SWITCHBOARD_KAFKA_PROPERTIES": "sasl.pasword=SECRETVALUE",
            ])
        #expect(status != 0 && status != 137, "receive fails:\n\(output)")
        #expect(output.contains("sasl.pasword"), "the property is named:\n\(output)")
        #expect(!output.contains("SECRETVALUE"), "its value is not:\n\(output)")

        // A value split at a comma: the pair without "=" is a piece of the secret, never shown.
        do {
            _ = try Settings(environment: ["SWITCHBOARD_KAFKA_PROPERTIES": "sasl.password=abc,SECRETPART,acks=1"])
            Issue.record("a pair without = was accepted")
        } catch let error as SettingsError {
            #expect(error.description.contains("pair 2"), "\(error)")
            #expect(!error.description.contains("SECRETPART") && !error.description.contains("abc"), "\(error)")
        }
        let escaped = try Settings(environment: [
            "SWITCHBOARD_KAFKA_PROPERTIES": #"sasl.password=a\,b\\c, acks = all"#
        ])
        #expect(escaped.kafkaProperties == ["sasl.password": #"a,b\c"#, "acks": "all"])
    }
}
