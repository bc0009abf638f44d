import Foundation
import Hummingbird
import Primitives

/// Builds JSON responses with stable key order (sorted keys), for humans and tests alike.
enum JSONResponse {
    static var encoder: JSONEncoder { JSONCoding.encoder }

    /// Encodes `value` as the response body.
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
