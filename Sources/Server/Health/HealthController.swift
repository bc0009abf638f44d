import Foundation
import Hummingbird

/// `GET /health` (the process is alive) and `GET /ready` (its dependencies are usable).
struct HealthController<Context: RequestContext>: Sendable {
    let checks: [any ReadinessCheck]

    func addRoutes(to router: Router<Context>) {
        router.get("/health") { _, _ -> Response in
            JSONResponse.make(["status": "ok"])
        }
        router.get("/ready") { _, _ -> Response in
            let results = await withTaskGroup(of: (String, ReadinessStatus).self) { group in
                for check in checks {
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
}

/// The body of `/ready`.
struct ReadinessReport: Codable, Sendable {
    var status: String
    var checks: [String: ReadinessStatus]
}
