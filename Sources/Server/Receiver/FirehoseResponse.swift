import Foundation
import Hummingbird
import Primitives

/// The answers of the Firehose HTTP endpoint contract: `{"requestId", "timestamp"}` with 200 for
/// success, plus `errorMessage` with a 4xx or 5xx otherwise.
///
/// As the contract requires: `Content-Type: application/json` exactly, no `Content-Encoding`,
/// a `Content-Length`, the request's id, the timestamp as a number of milliseconds, and an
/// `errorMessage` of at most 8192 characters (Firehose copies it to the error bucket's records).
enum FirehoseResponse {
    /// The longest `errorMessage` the contract allows.
    static let maximumErrorMessageCharacters = 8192

    /// - Parameters:
    ///   - status: 200, or the error's status.
    ///   - requestId: The request's `X-Amz-Firehose-Request-Id` (or its body's `requestId`).
    ///   - errorMessage: What went wrong, for an error.
    ///   - now: The time the request was processed.
    static func make(
        _ status: HTTPResponse.Status, requestId: String, errorMessage: String? = nil, now: Date = Date()
    ) -> Response {
        var writer = JSONWriter(capacity: 128 + (errorMessage?.utf8.count ?? 0))
        writer.beginObject()
        writer.key("requestId")
        writer.string(requestId)
        writer.key("timestamp")
        writer.number(Int((now.timeIntervalSince1970 * 1_000).rounded(.down)))
        if let errorMessage {
            writer.key("errorMessage")
            writer.string(String(errorMessage.prefix(maximumErrorMessageCharacters)))
        }
        writer.endObject()
        return Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: writer.bytes))
        )
    }
}
