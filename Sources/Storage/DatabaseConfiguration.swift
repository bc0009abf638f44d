import Foundation
import NIOSSL
import PostgresNIO

/// Where the PostgreSQL server is and how to log in.
///
/// Built from a libpq-style URL, `postgres://user:password@host:port/database?sslmode=disable`, so
/// operators configure it the way every other PostgreSQL tool is configured. `sslmode` follows
/// libpq: `disable`; `prefer` and `require` encrypt without verifying the server (as libpq does);
/// `verify-ca` checks the certificate chain and `verify-full` also the host name, against
/// `sslrootcert=/path/to/ca.pem` when given (a private CA, e.g. RDS's bundle), else the system's
/// trust store.
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
    /// libpq's `sslmode`: `disable` (the default), `prefer`, `require`, `verify-ca` or `verify-full`.
    public var tlsMode: String
    /// libpq's `sslrootcert`: a PEM file of the CA certificates that verify the server
    /// (`verify-ca`, `verify-full`); `nil` for the system's trust store.
    public var rootCertificatePath: String?
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
        rootCertificatePath: String? = nil,
        maximumConnections: Int = 8
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tlsMode = tlsMode
        self.rootCertificatePath = rootCertificatePath
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
                message:
                    "database URL \(Self.redacted(text)) is not of the form postgres://user:password@host:port/database"
            )
        }
        let sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        guard Self.tlsModes.contains(sslMode) else {
            throw StorageError(
                code: .configuration,
                message: "sslmode must be one of \(Self.tlsModes.joined(separator: ", ")), not \(sslMode)")
        }
        let rootCertificate = components.queryItems?.first { $0.name == "sslrootcert" }?.value
        if let rootCertificate, !FileManager.default.isReadableFile(atPath: rootCertificate) {
            throw StorageError(
                code: .configuration, message: "sslrootcert \(rootCertificate) is not a readable PEM file")
        }
        let database = String(components.path.drop { $0 == "/" })
        self.init(
            host: components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1",
            port: components.port ?? 5432,
            username: components.user ?? "postgres",
            password: components.password,
            database: database.isEmpty ? "postgres" : database,
            tlsMode: sslMode,
            rootCertificatePath: rootCertificate
        )
    }

    /// The `sslmode` values accepted, as libpq names them.
    public static let tlsModes = ["disable", "prefer", "require", "verify-ca", "verify-full"]

    /// `text`, a database URL as given, fit for a message: quoted, with its password as `***`;
    /// a text that does not parse as a URL is not repeated at all (it may hold a password).
    public static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text) else {
            return "(not shown: it does not parse as a URL, and may hold a password)"
        }
        if components.password != nil { components.password = "***" }
        return "\"\(components.string ?? "")\""
    }

    /// The URL form, without the password (for logs and banners).
    public var redactedURL: String {
        "postgres://\(username)@\(host):\(port)/\(database)"
    }

    /// The TLS that `sslmode` and `sslrootcert` ask for, as libpq defines them: the one source of
    /// TLS settings for every connection this configuration opens (the pool's and the ingest's
    /// write connections alike).
    public var tls: DatabaseTLS {
        switch tlsMode {
        case "verify-full":
            return .require(verifying(hostName: true))
        case "verify-ca":
            return .require(verifying(hostName: false))
        case "require":
            return .require(Self.unverified)
        case "prefer":
            return .prefer(Self.unverified)
        default:
            return .disable
        }
    }

    /// A client TLS configuration that checks the server's chain against ``rootCertificatePath``
    /// (else the system's trust store) and, with `hostName`, that the certificate names ``host``.
    private func verifying(hostName: Bool) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let rootCertificatePath { configuration.trustRoots = .file(rootCertificatePath) }
        configuration.certificateVerification = hostName ? .fullVerification : .noHostnameVerification
        return configuration
    }

    /// postgres-nio's client configuration (the pool).
    ///
    /// - Important: A CA file that cannot be parsed fails the connections (with the reason in the
    ///   pool's errors); ``init(url:)`` only checks that it is readable.
    public var clientConfiguration: PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch self.tls {
            case .disable: .disable
            case .prefer(let configuration): .prefer(configuration)
            case .require(let configuration): .require(configuration)
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
    /// ingest's write connections), with the same TLS as ``clientConfiguration``.
    ///
    /// - Throws: NIOSSL's error when the TLS context cannot be created (e.g. an `sslrootcert`
    ///   that is not PEM).
    public func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS =
            switch self.tls {
            case .disable: .disable
            case .prefer(let configuration): .prefer(try NIOSSLContext(configuration: configuration))
            case .require(let configuration): .require(try NIOSSLContext(configuration: configuration))
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

/// The TLS a PostgreSQL connection uses, derived from libpq's `sslmode`.
public enum DatabaseTLS: Sendable {
    /// Plain text (`disable`).
    case disable
    /// TLS when the server offers it, plain text otherwise (`prefer`).
    case prefer(TLSConfiguration)
    /// TLS or no connection (`require`, `verify-ca`, `verify-full`).
    case require(TLSConfiguration)

    /// The TLS configuration used, or `nil` for `disable`.
    public var configuration: TLSConfiguration? {
        switch self {
        case .disable: nil
        case .prefer(let configuration), .require(let configuration): configuration
        }
    }
}

extension DatabaseConfiguration {
    /// libpq's `require`/`prefer`: encrypted, the server not verified.
    fileprivate static var unverified: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        return configuration
    }
}
