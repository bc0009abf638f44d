import Primitives
import Testing

@Suite("Backoff and deadlines")
struct RetryTests {
    @Test("doubles up to the cap, and reset starts over")
    func backoff() {
        var backoff = Backoff(initial: .milliseconds(100), maximum: .milliseconds(500))
        #expect((0..<5).map { _ in backoff.next() } == [100, 200, 400, 500, 500].map(Duration.milliseconds))
        backoff.reset()
        #expect(backoff.next() == .milliseconds(100))
    }

    @Test("a deadline returns the operation's value or DeadlineExceeded")
    func deadline() async throws {
        #expect(try await withDeadline(.seconds(10)) { 42 } == 42)
        await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(.milliseconds(10)) { try await Task.sleep(for: .seconds(60)) }
        }
    }
}
