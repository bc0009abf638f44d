import Foundation
import Testing

@testable import Kafka

/// Security settings are only worth something if the client really uses them: these tests point a
/// client at `openssl s_server` and check what arrives on the wire, not just that the settings parse.
@Suite("TLS and SASL reach the wire", .serialized)
struct KafkaTLSTests {
    @Test("Debian's librdkafka is built with TLS and SASL (SCRAM)")
    func builtWithTLSAndSASL() {
        let features = RDKafkaClient.builtinFeatures()
        #expect(features.isSuperset(of: ["ssl", "sasl", "sasl_scram", "sasl_plain"]), "builtin.features: \(features)")
    }

    @Test("security.protocol=ssl: a TLS handshake completes and the Kafka request travels inside it")
    func sslHandshake() async throws {
        try await expectTLS(properties: [:])
    }

    @Test("security.protocol=sasl_ssl with SCRAM-SHA-512: the same TLS handshake comes first")
    func saslSSLHandshake() async throws {
        try await expectTLS(properties: [
            "security.protocol": "sasl_ssl",
            "sasl.mechanisms": "SCRAM-SHA-512",
            "sasl.username": "switchboard",
            "sasl.password": "not-a-secret",
        ])
    }

    @Test("control: without security.protocol the probe sees a plaintext Kafka request, no handshake")
    func plaintextIsTold() async throws {
        let server = try await TLSProbeServer()
        defer { server.stop() }
        let clientID = "tls-probe-\(UUID().uuidString.prefix(8))"
        var configuration = producerConfiguration("127.0.0.1:\(server.port)")
        configuration.common.clientID = clientID
        let failure = try await withProducer(configuration) { producer in
            async let failure = metadataFailure(producer)
            // s_server reports the failed handshake once the first record is not TLS.
            _ = try await server.waitFor("s_server's handshake error") { $0.contains("ERROR") ? true : nil }
            return await failure
        }
        #expect(failure != nil, "s_server is not Kafka: the metadata request must fail")
        let output = server.output
        // A Kafka request starts with its 4-byte length (00 00 ..), a TLS handshake record with 16 03.
        #expect(
            server.firstClientBytes?.hasPrefix("00 00") == true, "first bytes: \(server.firstClientBytes ?? "none")")
        #expect(!output.contains("ClientHello"))
    }

    /// Connects a producer with TLS (and `properties`) to a probe and checks that the probe saw a
    /// ClientHello, that the handshake completed (the client's id arrives decrypted), and that the
    /// metadata request failed (the probe never answers).
    private func expectTLS(properties: [String: String]) async throws {
        let server = try await TLSProbeServer()
        defer { server.stop() }
        let clientID = "tls-probe-\(UUID().uuidString.prefix(8))"
        var configuration = producerConfiguration("127.0.0.1:\(server.port)")
        configuration.common.clientID = clientID
        configuration.common.properties = [
            "security.protocol": "ssl",
            "ssl.ca.location": server.certificatePath,
        ].merging(properties) { $1 }
        let failure = try await withProducer(configuration) { producer in
            async let failure = metadataFailure(producer)
            // The request header carries the client id: readable only if the handshake completed
            // and s_server decrypted what followed.
            _ = try await server.waitFor("the client's id, decrypted, after a TLS handshake") { output in
                output.contains("ClientHello") && output.contains(clientID) ? true : nil
            }
            return await failure
        }
        #expect(failure != nil, "s_server is not Kafka: the metadata request must fail")
        #expect(
            server.firstClientBytes?.hasPrefix("16 03") == true, "first bytes: \(server.firstClientBytes ?? "none")")
    }

    /// The error of a metadata request that cannot succeed, or `nil` if it did.
    private func metadataFailure(_ producer: KafkaProducer) async -> (any Error)? {
        do {
            _ = try await producer.metadata(timeout: .seconds(3))
            return nil
        } catch {
            return error
        }
    }
}
