import Hummingbird
import Testing

@testable import Server

/// What a server without credentials (`dev` on loopback) accepts: its own pages and programs on
/// the machine, not a web page the developer happens to visit.
@Suite("The local access guard of an open server")
struct LocalAccessGuardTests {
    let guarding = LocalAccessGuard()

    func refusal(
        _ method: HTTPRequest.Method = .get, path: String = "/v1/floor", host: String? = "127.0.0.1:8080",
        contentType: String? = nil, origin: String? = nil, upgrade: Bool = false
    ) -> String? {
        guarding.refusal(
            method: method, path: path, host: host, contentType: contentType, origin: origin, isUpgrade: upgrade)?
            .code
    }

    @Test("Host: loopback names pass with any port; other names and addresses are refused 403")
    func host() {
        for host in [
            "127.0.0.1:8080", "127.0.0.1", "localhost:8080", "LOCALHOST", "[::1]:8080", "[::1]", "127.1.2.3:1",
        ] {
            #expect(refusal(host: host) == nil, "\(host)")
        }
        for host in [
            "attacker.example", "attacker.example:8080", "localhost.attacker.example", "127.0.0.1.nip.io",
            "10.0.0.5:8080", "[::2]:8080", "128.0.0.1", "127.0.0", "", "[::1",
        ] {
            #expect(refusal(host: host) == "forbidden_host", "\(host)")
        }
        #expect(refusal(host: nil) == "forbidden_host", "no Host at all")
        #expect(
            guarding.refusal(
                method: .get, path: "/v1/floor", host: "evil.example", contentType: nil, origin: nil, isUpgrade: false)?
                .status == .forbidden)
    }

    @Test("POST, PUT and PATCH need application/json (with or without parameters); GET needs nothing")
    func contentType() {
        for type in ["application/json", "application/json; charset=utf-8", "Application/JSON"] {
            #expect(refusal(.post, path: "/v1/hooks/main", contentType: type) == nil, "\(type)")
        }
        for type in [nil, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
            #expect(
                refusal(.post, path: "/v1/hooks/main", contentType: type) == "unsupported_media_type",
                "\(type ?? "none")")
            #expect(refusal(.put, path: "/v1/firehose/x", contentType: type) == "unsupported_media_type")
        }
        #expect(refusal(.get, path: "/v1/calendar/2026") == nil)
    }

    @Test("the floor's streams and WebSocket upgrades need the server's own Origin when one is sent")
    func origin() {
        #expect(refusal(path: "/v1/floor/events", origin: "http://127.0.0.1:8080") == nil)
        #expect(refusal(path: "/v1/floor/stream", origin: "http://127.0.0.1:8080", upgrade: true) == nil)
        #expect(refusal(path: "/v1/floor/events") == nil, "programs send no Origin")
        for origin in ["http://attacker.example", "https://127.0.0.1:8080", "http://127.0.0.1:9090", "null"] {
            #expect(refusal(path: "/v1/floor/events", origin: origin) == "forbidden_origin", "\(origin)")
            #expect(refusal(path: "/v1/floor", origin: origin) == "forbidden_origin", "\(origin)")
            #expect(refusal(path: "/anything", origin: origin, upgrade: true) == "forbidden_origin", "\(origin)")
        }
        // Elsewhere an Origin is the route's business (/mcp has its own allow-list).
        #expect(
            refusal(.post, path: "/mcp", contentType: "application/json", origin: "http://attacker.example") == nil)
    }

    @Test("serve open on a private network: private addresses and the listed names pass, others do not")
    func privateNetwork() {
        let serve = LocalAccessGuard(names: ["Serve.Internal.Example"], privateNetwork: true)
        func code(host: String, origin: String? = nil, upgrade: Bool = false) -> String? {
            serve.refusal(
                method: .get, path: "/v1/floor", host: host, contentType: nil, origin: origin, isUpgrade: upgrade)?
                .code
        }
        for host in [
            "127.0.0.1:8080", "10.0.0.5:8080", "172.16.0.1", "172.31.255.255:80", "192.168.1.20", "100.64.0.1",
            "169.254.1.1", "[fd00::1]:8080", "[fe80::1]", "serve.internal.example:8080", "SERVE.internal.example",
        ] {
            #expect(code(host: host) == nil, "\(host)")
        }
        for host in [
            "attacker.example", "172.32.0.1", "172.15.0.1", "192.169.0.1", "8.8.8.8", "100.128.0.1", "[2001:db8::1]",
            "[fe00::1]", "10.0.0", "10.0.0.256", "internal.example", "serve.internal.example.attacker.example",
        ] {
            #expect(code(host: host) == "forbidden_host", "\(host)")
        }
        // A page of another site may not read the floor; the server's own (behind TLS too) may.
        #expect(code(host: "10.0.0.5:8080", origin: "http://attacker.example") == "forbidden_origin")
        #expect(code(host: "10.0.0.5:8080", origin: "http://10.0.0.5:8080", upgrade: true) == nil)
        #expect(code(host: "serve.internal.example", origin: "https://serve.internal.example") == nil)
        // dev takes no https origin and no private address.
        #expect(
            guarding.refusal(
                method: .get, path: "/v1/floor", host: "10.0.0.5", contentType: nil, origin: nil, isUpgrade: false)?
                .code == "forbidden_host")
        #expect(refusal(host: "localhost:8080", origin: "https://localhost:8080") == "forbidden_origin")
        #expect(
            serve.refusal(
                method: .get, path: "/", host: "attacker.example", contentType: nil, origin: nil, isUpgrade: false)?
                .reason.contains("SWITCHBOARD_ALLOWED_HOSTS") == true)
    }
}
