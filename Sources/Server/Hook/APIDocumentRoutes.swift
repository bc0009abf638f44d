import Foundation
import Hummingbird

/// `GET /openapi.yaml` (the OpenAPI 3.1 document of the whole HTTP API, shipped as a resource of
/// this module) and `GET /v1/ping` (a static `200 ok`, the reference route of the load tests).
public struct APIDocumentRoutes: RouteProvider {
    /// The document's text.
    public let document: String

    /// Loads the document from the module's resource bundle.
    ///
    /// - Important: The bundle `switchboard_Server.resources` must sit next to the executable
    ///   (SwiftPM puts it there; a deployment copies it along). Construct this at start-up so a
    ///   missing bundle fails there, not on a request.
    public init() {
        self.init(document: APIDocumentRoutes.bundledDocument)
    }

    /// Serves a given document (tests).
    public init(document: String) {
        self.document = document
    }

    /// The text of `Resources/openapi.yaml`.
    public static var bundledDocument: String {
        guard
            let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml", subdirectory: "Resources")
                ?? Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return "openapi: 3.1.0\ninfo: {title: switchboard, version: unknown}\npaths: {}\n" }
        return text
    }

    public func addRoutes(to router: Router<SwitchboardRequestContext>) {
        let body = ByteBuffer(string: document)
        router.get("/openapi.yaml") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [.contentType: "application/yaml; charset=utf-8"],
                body: ResponseBody(byteBuffer: body)
            )
        }
        router.get("/v1/ping") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "ok"))
            )
        }
    }
}
