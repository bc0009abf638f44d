import AsyncHTTPClient
import Foundation
import NIOCore

/// `GET url` with a 5-second timeout; `nil` when nothing answers.
public func httpGet(_ url: URL) async -> Data? {
    guard
        let response = try? await HTTPClient.shared.execute(
            HTTPClientRequest(url: url.absoluteString), timeout: .seconds(5)),
        let body = try? await response.body.collect(upTo: 64 << 20)
    else { return nil }
    return Data(buffer: body)
}

/// `GET url` with `headers` and a 5-second timeout: the status and body; `nil` when nothing
/// answers.
public func httpGet(_ url: URL, headers: [String: String]) async -> (status: Int, body: String)? {
    var request = HTTPClientRequest(url: url.absoluteString)
    for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
    guard let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(5)),
        let body = try? await response.body.collect(upTo: 64 << 20)
    else { return nil }
    return (Int(response.status.code), String(buffer: body))
}

/// The status code of `GET url`; `nil` when nothing answers.
public func httpStatus(_ url: URL) async -> Int? {
    guard
        let response = try? await HTTPClient.shared.execute(
            HTTPClientRequest(url: url.absoluteString), timeout: .seconds(5))
    else { return nil }
    _ = try? await response.body.collect(upTo: 64 << 20)
    return Int(response.status.code)
}

/// Polls `condition` every 200 ms until it holds or `timeout` passes.
public func eventually(
    within timeout: Duration,
    _ condition: @Sendable () async throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    let end = clock.now + timeout
    while clock.now < end {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(200))
    }
    return try await condition()
}

/// `POST url` with a JSON body and a 5-second timeout: the status and body; `nil` when nothing
/// answers.
public func httpPost(_ url: URL, json: String, headers: [String: String] = [:]) async -> (status: Int, body: String)? {
    var request = HTTPClientRequest(url: url.absoluteString)
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
    request.body = .bytes(ByteBuffer(string: json))
    guard let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(5)),
        let body = try? await response.body.collect(upTo: 64 << 20)
    else { return nil }
    return (Int(response.status.code), String(buffer: body))
}
