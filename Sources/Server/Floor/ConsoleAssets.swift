import Foundation
import Hummingbird

/// The console's files, read once from the module's bundle (`Resources/`).
enum ConsoleAssets {
    private static let types = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
    ]
    private static let files: [String: ByteBuffer] = {
        var files: [String: ByteBuffer] = [:]
        for name in ["console.html", "console.js", "console.css"] {
            let (base, type) = (String(name.split(separator: ".")[0]), String(name.split(separator: ".")[1]))
            let url =
                Bundle.module.url(forResource: base, withExtension: type, subdirectory: "Resources")
                ?? Bundle.module.url(forResource: base, withExtension: type)
            if let url, let data = try? Data(contentsOf: url) { files[name] = ByteBuffer(bytes: data) }
        }
        return files
    }()

    /// The file named `name` with its content type; 404 for anything else.
    static func response(for name: String) throws -> Response {
        guard let body = files[name], let type = types[String(name.split(separator: ".").last ?? "")] else {
            throw APIError.notFound("no console file \(name)")
        }
        return Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: body)
        )
    }
}
