import Foundation
import Logging

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The issuer's signing keys, fetched from its JWKS URL, cached and refreshed.
///
/// Keys are fetched on first use and again when older than ``maximumAge``; a token naming an
/// unknown key id refetches at once (the issuer rotated), at most once per
/// ``minimumRefreshInterval`` so that forged key ids cannot make us hammer the issuer. When a
/// refresh fails, the keys already known stay in use.
actor JWKSCache {
    /// Fetches the JWKS document.
    typealias Fetch = @Sendable () async throws -> Data

    let maximumAge: Duration
    let minimumRefreshInterval: Duration
    private let fetch: Fetch
    private let logger: Logger
    private var keys: JSONWebKeySet?
    private var fetchedAt: ContinuousClock.Instant?
    private var attemptedAt: ContinuousClock.Instant?
    private var refreshing: Task<JSONWebKeySet?, Never>?

    /// - Parameters:
    ///   - maximumAge: How long fetched keys are used before they are fetched again.
    ///   - minimumRefreshInterval: The least time between two fetches.
    ///   - fetch: Fetches the document.
    init(
        maximumAge: Duration = .seconds(600), minimumRefreshInterval: Duration = .seconds(30), logger: Logger,
        fetch: @escaping Fetch
    ) {
        self.maximumAge = maximumAge
        self.minimumRefreshInterval = minimumRefreshInterval
        self.logger = logger
        self.fetch = fetch
    }

    /// Fetches the JWKS at `url` with `URLSession` (10 s timeout, no cookies, no cache).
    static func fetcher(url: URL) -> Fetch {
        {
            var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 10)
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            let (data, response) = try await URLSession.shared.data(for: request)
            guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
                throw URLError(.badServerResponse)
            }
            return data
        }
    }

    /// The key with id `keyId` (`nil`: the set's only key without an id).
    ///
    /// - Returns: `nil` when the issuer publishes no such key (after a refresh when allowed).
    func key(id keyId: String?) async -> JSONWebKeySet.Key? {
        let now = ContinuousClock.now
        if keys == nil || fetchedAt.map({ now - $0 > maximumAge }) ?? true {
            await refresh(now: now)
        }
        if let found = keys?.keys[keyId ?? ""] { return found }
        if attemptedAt.map({ now - $0 >= minimumRefreshInterval }) ?? true {
            await refresh(now: now)
        }
        return keys?.keys[keyId ?? ""]
    }

    private func refresh(now: ContinuousClock.Instant) async {
        if let attemptedAt, now - attemptedAt < minimumRefreshInterval, keys != nil { return }
        if let refreshing {
            _ = await refreshing.value
            return
        }
        attemptedAt = now
        let fetch = self.fetch
        let logger = self.logger
        let task = Task<JSONWebKeySet?, Never> {
            do {
                return try JSONWebKeySet(json: try await fetch())
            } catch {
                logger.warning("the OAuth issuer's JWKS could not be fetched: \(error)")
                return nil
            }
        }
        refreshing = task
        let fetched = await task.value
        refreshing = nil
        if let fetched {
            keys = fetched
            fetchedAt = now
        }
    }
}
