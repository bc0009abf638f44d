import SwitchboardTesting

extension LoopbackConnection {
    /// What ``answerPings(_:limit:)`` saw.
    struct PingAnswers: Sendable {
        var pings = 0
        var closed = false
    }

    /// After a WebSocket upgrade request: reads the 101 and then the server's frames, answering
    /// each ping with its pong as a healthy browser does, until `count` pings were answered, the
    /// server closed, or `limit` passed. It blocks: run it on a thread of its own.
    func answerPings(_ count: Int, limit duration: Duration) -> PingAnswers {
        var answers = PingAnswers()
        let deadline = ContinuousClock.now + duration
        var raw: [UInt8] = []
        var upgraded = false
        while ContinuousClock.now < deadline && answers.pings < count {
            switch receive(into: &raw, waiting: .milliseconds(20)) {
            case .nothing: continue
            case .closed:
                answers.closed = true
                return answers
            case .received: break
            }
            if !upgraded {
                guard let end = raw.firstRange(of: [13, 10, 13, 10]) else { continue }
                raw.removeSubrange(..<end.upperBound)
                upgraded = true
            }
            while let frame = WebSocketFrame.parse(raw) {
                let payload = Array(raw[frame.payload])
                raw.removeSubrange(..<frame.payload.upperBound)
                if frame.opcode == 0x8 {
                    answers.closed = true
                    return answers
                }
                if frame.opcode == 0x9 {
                    answers.pings += 1
                    send(WebSocketFrame.masked(opcode: 0xA, payload: payload, mask: [9, 8, 7, 6]))
                }
            }
        }
        return answers
    }
}
