import Foundation
import Kafka
import Logging
import Prometheus
import Roles
import ServiceLifecycle
import SwitchboardTesting
import Testing

@Suite("serve: the hook's readiness is independent of Kafka; SIGTERM drains before closing", .serialized, .watched)
struct ServeRoleTests {
    /// Runs `switchboard serve`'s group in process against an embedded cluster.
    func withServe(
        drainSeconds: Int = 3,
        _ body: @Sendable (EmbeddedKafkaCluster, URL, ServiceGroup) async throws -> Void
    ) async throws {
        var logger = Logger(label: "serve-test")
        logger.logLevel = .warning
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: logger)
        for topic in ["agent-events", "contact-events"] { try cluster.createTopic(topic, partitions: 1) }
        let port = LoopbackSocket.freePort()
        let settings = try Settings(environment: [
            "SWITCHBOARD_KAFKA_BOOTSTRAP": cluster.bootstrapServers,
            "SWITCHBOARD_HTTP_PORT": String(port),
            "SWITCHBOARD_FLOWS_DIR": Repository.flowsDirectory,
            "SWITCHBOARD_SHUTDOWN_DRAIN_SECONDS": String(drainSeconds),
            // The hook and the console without credentials: these tests time readiness, not auth.
            "SWITCHBOARD_ALLOW_OPEN": "hook,console",
        ])
        let group = try ServeRole.build(
            RoleContext(settings: settings, metrics: PrometheusCollectorRegistry(), logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await body(cluster, URL(string: "http://127.0.0.1:\(port)")!, group)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    @Test("open on a private network: a foreign Host, a form POST and another site's Origin are refused")
    func openServeGuardsHostAndOrigin() async throws {
        try await withServe { _, base, _ in
            let ready = await eventually(within: .seconds(30)) {
                await httpStatus(base.appendingPathComponent("ready/hook")) == 200
            }
            #expect(ready, "serve became ready")
            let floor = base.appendingPathComponent("v1/floor")
            // DNS rebinding: a page of attacker.example whose name resolves to the server.
            let rebound = await httpGet(floor, headers: ["Host": "attacker.example"])
            #expect(rebound?.status == 403, "\(String(describing: rebound))")
            #expect(rebound?.body.contains("SWITCHBOARD_ALLOWED_HOSTS") == true)
            let foreign = await httpGet(floor, headers: ["Origin": "http://attacker.example"])
            #expect(foreign?.status == 403, "\(String(describing: foreign))")
            let form = await httpPost(
                base.appendingPathComponent("v1/hooks/main"), json: #"{"storeId": "ginza-sushi"}"#,
                headers: ["Content-Type": "text/plain"])
            #expect(form?.status == 415, "\(String(describing: form))")
            // Programs on the private network, and the server's own pages, go on.
            #expect(await httpGet(floor, headers: ["Host": "10.1.2.3:8080"])?.status == 200)
            #expect(await httpGet(floor, headers: ["Origin": "http://\(base.host!):\(base.port!)"])?.status == 200)
            let call = await httpPost(
                base.appendingPathComponent("v1/hooks/main"), json: #"{"storeId": "ginza-sushi"}"#)
            #expect(call?.status == 200)
        }
    }

    @Test("/ready/hook stays 200 while Kafka is down and /ready fails; unknown scopes are 404")
    func hookReadinessWithoutKafka() async throws {
        try await withServe { cluster, base, _ in
            let ready = await eventually(within: .seconds(30)) {
                await httpStatus(base.appendingPathComponent("ready")) == 200
            }
            #expect(ready, "serve became ready")
            try cluster.setAllBrokersDown()
            let kafkaFailing = await eventually(within: .seconds(15)) {
                await httpStatus(base.appendingPathComponent("ready")) == 503
            }
            #expect(kafkaFailing, "/ready reports Kafka")
            #expect(await httpStatus(base.appendingPathComponent("ready/hook")) == 200)
            let call = await httpPost(
                base.appendingPathComponent("v1/hooks/main"), json: #"{"storeId": "ginza-sushi"}"#)
            #expect(call?.status == 200, "the hook answers without Kafka")
            #expect(await httpStatus(base.appendingPathComponent("ready/nothing")) == 404)
            try cluster.setAllBrokersUp()
        }
    }

    @Test("on shutdown /ready turns 503 at once, calls are answered during the drain, then the port closes")
    func drainsOnShutdown() async throws {
        try await withServe(drainSeconds: 3) { _, base, group in
            #expect(
                await eventually(within: .seconds(30)) {
                    await httpStatus(base.appendingPathComponent("ready/hook")) == 200
                })
            await group.triggerGracefulShutdown()
            var statuses: [Int] = []
            for _ in 0..<10 {
                let status = await httpStatus(base.appendingPathComponent("ready/hook")) ?? -1
                statuses.append(status)
                if status == 503 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let draining = statuses.last == 503
            #expect(draining, "readiness fails as soon as the drain begins: \(statuses)")
            let body = await httpGet(base.appendingPathComponent("ready")).map { String(decoding: $0, as: UTF8.self) }
            #expect(body?.contains("draining") == true)
            let call = await httpPost(
                base.appendingPathComponent("v1/hooks/main"), json: #"{"storeId": "ginza-sushi"}"#)
            #expect(call?.status == 200, "a call during the drain is answered")
            let closed = await eventually(within: .seconds(20)) {
                await httpStatus(base.appendingPathComponent("health")) == nil
            }
            #expect(closed, "the server closes after the drain")
        }
    }
}
