import Foundation
import PostgresNIO

/// Where the PostgreSQL server is and how to log in.
///
/// Built from a libpq-style URL, `postgres://user:password@host:port/database?sslmode=disable`, so
/// operators configure it the way every other PostgreSQL tool is configured.
public struct DatabaseConfiguration: Sendable, Hashable {
    /// The server's host name or address.
    public var host: String
    /// The server's TCP port.
    public var port: Int
    /// The user to log in as.
    public var username: String
    /// The password, if the server asks for one.
    public var password: String?
    /// The database to connect to.
    public var database: String
    /// Whether to require TLS (`sslmode=require`), prefer it (`prefer`) or not use it (`disable`, the default).
    public var tlsMode: String
    /// The most connections the pool opens.
    public var maximumConnections: Int

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1",
        port: Int = 5432,
        username: String = "postgres",
        password: String? = nil,
        database: String = "switchboard",
        tlsMode: String = "disable",
        maximumConnections: Int = 8
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tlsMode = tlsMode
        self.maximumConnections = maximumConnections
    }

    /// Parses a `postgres://` or `postgresql://` URL.
    ///
    /// - Throws: ``StorageError`` `.configuration` naming what is wrong with the URL.
    public init(url text: String) throws {
        guard let components = URLComponents(string: text),
            components.scheme == "postgres" || components.scheme == "postgresql"
        else {
            throw StorageError(
                code: .configuration,
                message: "database URL \"\(text)\" is not of the form postgres://user:password@host:port/database"
            )
        }
        let sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        guard ["disable", "prefer", "require"].contains(sslMode) else {
            throw StorageError(
                code: .configuration, message: "sslmode must be disable, prefer or require, not \(sslMode)")
        }
        let database = String(components.path.drop { $0 == "/" })
        self.init(
            host: components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1",
            port: components.port ?? 5432,
            username: components.user ?? "postgres",
            password: components.password,
            database: database.isEmpty ? "postgres" : database,
            tlsMode: sslMode
        )
    }

    /// The URL form, without the password (for logs and banners).
    public var redactedURL: String {
        "postgres://\(username)@\(host):\(port)/\(database)"
    }

    /// postgres-nio's client configuration.
    public var clientConfiguration: PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch tlsMode {
            case "require": .require(.makeClientConfiguration())
            case "prefer": .prefer(.makeClientConfiguration())
            default: .disable
            }
        var configuration = PostgresClient.Configuration(
            host: host,
            port: port,
            username: username,
            password: password,
            database: database,
            tls: tls
        )
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    /// postgres-nio's configuration of a single connection, outside a client's pool (the
    /// ingest's write connections).
    ///
    /// - Throws: NIOSSL's error when the TLS context cannot be created.
    public func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch tlsMode {
        case "require": tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case "prefer": tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        default: tls = .disable
        }
        var configuration = PostgresConnection.Configuration(
            host: host,
            port: port,
            username: username,
            password: password,
            database: database,
            tls: tls
        )
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}
