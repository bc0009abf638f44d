import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `GET url` with a 5-second timeout; `nil` when nothing answers.
public func httpGet(_ url: URL) async -> Data? {
    var request = URLRequest(url: url)
    request.timeoutInterval = 5
    return try? await URLSession.shared.data(for: request).0
}

/// The status code of `GET url`; `nil` when nothing answers.
public func httpStatus(_ url: URL) async -> Int? {
    var request = URLRequest(url: url)
    request.timeoutInterval = 5
    guard let (_, response) = try? await URLSession.shared.data(for: request) else { return nil }
    return (response as? HTTPURLResponse)?.statusCode
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
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    request.timeoutInterval = 5
    request.httpBody = Data(json.utf8)
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    guard let (data, response) = try? await URLSession.shared.data(for: request),
        let status = (response as? HTTPURLResponse)?.statusCode
    else { return nil }
    return (status, String(decoding: data, as: UTF8.self))
}
