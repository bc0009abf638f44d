import Foundation
import Hummingbird
import NIOCore

/// `GET /health` (liveness: the process answers), `GET /ready` (every readiness check) and
/// `GET /ready/{scope}` (the checks one kind of traffic needs, e.g. `hook`: the flows only, never
/// Kafka, so a Kafka outage does not take the IVR hook out of a load balancer).
///
/// While the process drains, every readiness endpoint answers 503 `draining`.
///
/// A caller on loopback (an operator on the host) sees each check's detail; any other caller (a
/// load balancer, a probe, anyone who reaches the port) only whether each check passes: a detail
/// can hold an error's text (a host name, a server's message). The detail of a failing check is
/// logged either way.
struct HealthController<Context: RemoteAddressRequestContext>: Sendable {
    let checks: [any ReadinessCheck]
    let scopes: [String: Set<String>]
    let drain: ShutdownDrain?

    func addRoutes(to router: Router<Context>) {
        router.get("/health") { _, _ -> Response in
            JSONResponse.make(["status": "ok"])
        }
        router.get("/ready") { _, context -> Response in
            await report(checks, context: context)
        }
        router.get("/ready/{scope}") { _, context -> Response in
            let scope = context.parameters.get("scope") ?? ""
            guard let names = scopes[scope] else {
                throw APIError.notFound(
                    code: "unknown_readiness_scope",
                    "no readiness scope \"\(scope)\"; known: \(scopes.keys.sorted().joined(separator: ", "))")
            }
            return await report(checks.filter { names.contains($0.name) }, context: context)
        }
    }

    private func report(_ selected: [any ReadinessCheck], context: Context) async -> Response {
        if let drain, drain.isDraining {
            return JSONResponse.make(
                ReadinessReport(status: "draining", checks: [:]), status: .serviceUnavailable)
        }
        let results = await withTaskGroup(of: (String, ReadinessStatus).self) { group in
            for check in selected {
                group.addTask { (check.name, await check.check()) }
            }
            return await group.reduce(into: [String: ReadinessStatus]()) { $0[$1.0] = $1.1 }
        }
        let ready = results.values.allSatisfy(\.ready)
        for (name, status) in results.sorted(by: { $0.key < $1.key }) where !status.ready {
            context.logger.info("not ready", metadata: ["check": "\(name)", "detail": "\(status.detail)"])
        }
        let shown =
            Self.isLoopback(context.remoteAddress)
            ? results : results.mapValues { ReadinessStatus(ready: $0.ready, detail: $0.ready ? "ok" : "failing") }
        return JSONResponse.make(
            ReadinessReport(status: ready ? "ready" : "not_ready", checks: shown),
            status: ready ? .ok : .serviceUnavailable
        )
    }

    /// Whether `address` is a loopback address (`127.0.0.0/8`, `::1`); `nil` (unknown) is not.
    static func isLoopback(_ address: SocketAddress?) -> Bool {
        guard var ip = address?.ipAddress else { return false }
        if ip.hasPrefix("::ffff:") { ip.removeFirst("::ffff:".count) }  // IPv4-mapped
        return LocalAccessGuard.isLoopback(host: ip)
    }
}

/// The body of `/ready`: `ready`, `not_ready` or `draining`, and each check's status.
struct ReadinessReport: Codable, Sendable {
    var status: String
    var checks: [String: ReadinessStatus]
}
