import Foundation
import Hummingbird

/// `GET /health` (liveness: the process answers), `GET /ready` (every readiness check) and
/// `GET /ready/{scope}` (the checks one kind of traffic needs, e.g. `hook`: the flows only, never
/// Kafka, so a Kafka outage does not take the IVR hook out of a load balancer).
///
/// While the process drains, every readiness endpoint answers 503 `draining`.
struct HealthController<Context: RequestContext>: Sendable {
    let checks: [any ReadinessCheck]
    let scopes: [String: Set<String>]
    let drain: ShutdownDrain?

    func addRoutes(to router: Router<Context>) {
        router.get("/health") { _, _ -> Response in
            JSONResponse.make(["status": "ok"])
        }
        router.get("/ready") { _, _ -> Response in
            await report(checks)
        }
        router.get("/ready/{scope}") { _, context -> Response in
            let scope = context.parameters.get("scope") ?? ""
            guard let names = scopes[scope] else {
                throw APIError.notFound(
                    code: "unknown_readiness_scope",
                    "no readiness scope \"\(scope)\"; known: \(scopes.keys.sorted().joined(separator: ", "))")
            }
            return await report(checks.filter { names.contains($0.name) })
        }
    }

    private func report(_ selected: [any ReadinessCheck]) async -> Response {
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
        return JSONResponse.make(
            ReadinessReport(status: ready ? "ready" : "not_ready", checks: results),
            status: ready ? .ok : .serviceUnavailable
        )
    }
}

/// The body of `/ready`: `ready`, `not_ready` or `draining`, and each check's status.
struct ReadinessReport: Codable, Sendable {
    var status: String
    var checks: [String: ReadinessStatus]
}
