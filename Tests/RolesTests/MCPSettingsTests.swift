import Foundation
import Roles
import Testing

/// `SWITCHBOARD_MCP_*`: tokens must be real secrets; the OAuth issuer needs an audience; the JWKS
/// URL defaults to the issuer's well-known one.
@Suite struct MCPSettingsTests {
    @Test("unset: no tokens, no issuer")
    func defaults() throws {
        let mcp = try Settings(environment: [:]).mcp
        #expect(mcp.tokens.isEmpty)
        #expect(mcp.oauthIssuer == nil)
        #expect(mcp.assumedHandleSeconds == 300)
    }

    @Test(
        "short or placeholder tokens are refused, naming the variable and not the value",
        arguments: ["short", "CHANGE-ME-0123456789abcdef", "a-placeholder-token-0123456789"])
    func badTokens(token: String) {
        #expect {
            try Settings(environment: ["SWITCHBOARD_MCP_TOKENS": "good-token-0123456789abcdef,\(token)"])
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.key == "SWITCHBOARD_MCP_TOKENS" && !error.description.contains(token)
        }
    }

    @Test("the JWKS is fetched over https only (http to loopback for tests); scopes are a list")
    func jwksOverHTTPS() throws {
        for (issuer, jwks) in [
            ("http://issuer.example", nil), ("https://issuer.example", "http://issuer.example/jwks"),
            ("https://issuer.example", "http://10.0.0.1/jwks"),
        ] {
            var environment = ["SWITCHBOARD_MCP_OAUTH_ISSUER": issuer, "SWITCHBOARD_MCP_OAUTH_AUDIENCE": "client-a"]
            environment["SWITCHBOARD_MCP_OAUTH_JWKS_URL"] = jwks
            #expect(throws: SettingsError.self, "\(issuer) \(jwks ?? "")") { try Settings(environment: environment) }
        }
        let local = try Settings(environment: [
            "SWITCHBOARD_MCP_OAUTH_ISSUER": "https://issuer.example", "SWITCHBOARD_MCP_OAUTH_AUDIENCE": "client-a",
            "SWITCHBOARD_MCP_OAUTH_JWKS_URL": "http://127.0.0.1:9000/jwks",
            "SWITCHBOARD_MCP_OAUTH_SCOPES": "switchboard/read, mcp openid",
        ]).mcp
        #expect(local.oauthJWKSURL?.absoluteString == "http://127.0.0.1:9000/jwks")
        #expect(local.oauthScopes == ["switchboard/read", "mcp", "openid"])
    }

    @Test("an issuer: audiences from the setting, JWKS from the issuer's well-known URL by default")
    func issuer() throws {
        let mcp = try Settings(environment: [
            "SWITCHBOARD_MCP_OAUTH_ISSUER": "https://cognito-idp.ap-northeast-1.amazonaws.com/ap-northeast-1_abc",
            "SWITCHBOARD_MCP_OAUTH_AUDIENCE": "client-a, client-b",
        ]).mcp
        #expect(mcp.oauthAudiences == ["client-a", "client-b"])
        #expect(
            mcp.oauthJWKSURL?.absoluteString
                == "https://cognito-idp.ap-northeast-1.amazonaws.com/ap-northeast-1_abc/.well-known/jwks.json")
        #expect {
            try Settings(environment: ["SWITCHBOARD_MCP_OAUTH_ISSUER": "https://issuer.test"])
        } throws: { error in
            (error as? SettingsError)?.key == "SWITCHBOARD_MCP_OAUTH_AUDIENCE"
        }
    }
}
