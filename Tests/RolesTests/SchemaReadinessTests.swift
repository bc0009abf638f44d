import Primitives
import Roles
import Server
import Testing

@Suite("The schema's readiness check")
struct SchemaReadinessTests {
    @Test("not ready until the migration service opens the gate, ready after")
    func followsTheGate() async {
        let gate = StartupGate()
        let check = SchemaReadinessCheck(gate: gate)
        #expect(check.name == "schema")
        let before = await check.check()
        #expect(!before.ready)
        #expect(before.detail.contains("not yet applied"))
        gate.open()
        #expect(await check.check().ready)
    }
}
