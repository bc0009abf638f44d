import ContactCenter
import Kafka
import Services

/// Produces the simulator's messages to their topics (without awaiting each delivery).
struct KafkaSimulatorSink: SimulatorSink {
    let producer: KafkaProducer
    let settings: Settings

    func deliver(_ messages: [SimulatedMessage]) async throws {
        for message in messages {
            try await producer.enqueue(
                topic: settings.topic(of: message.kind.stream), key: Array(message.key.utf8),
                value: Array(message.value))
        }
    }

    func finish() async {
        try? await producer.flush(timeout: .seconds(5))
    }
}
