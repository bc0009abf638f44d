import Logging
import Roles
import Storage
import Testing

/// `SWITCHBOARD_STAFFING_DATABASE_URL`: `serve`'s read-only staffing database, off when unset, its
/// password never shown.
@Suite("Staffing settings: serve's staffing database")
struct StaffingSettingsTests {
    static var logger: Logger {
        var logger = Logger(label: "staffing-settings-test")
        logger.logLevel = .critical
        return logger
    }

    @Test("unset or empty is off: no configuration, no planner, no route, no service")
    func off() throws {
        for environment in [[:], ["SWITCHBOARD_STAFFING_DATABASE_URL": ""]] {
            let settings = try Settings(environment: environment)
            #expect(settings.staffingDatabaseURL == nil)
            #expect(try settings.staffingDatabaseConfiguration() == nil)
            let wiring = try StaffingReaderWiring(settings: settings, floor: nil, logger: Self.logger)
            #expect(wiring.planner == nil && wiring.services.isEmpty)
        }
    }

    @Test("set: the reader's login and database, a pool of at most 2; a planner and its two services")
    func on() throws {
        let url = "postgres://switchboard_serve:s3cret@db.example.internal:5433/switchboard?sslmode=require"
        let settings = try Settings(environment: ["SWITCHBOARD_STAFFING_DATABASE_URL": url])
        #expect(settings.staffingDatabaseURL == url)
        #expect(settings.databaseURL != url, "SWITCHBOARD_DATABASE_URL is another setting")
        let configuration = try #require(try settings.staffingDatabaseConfiguration())
        #expect(configuration.username == "switchboard_serve")
        #expect(configuration.host == "db.example.internal" && configuration.port == 5433)
        #expect(configuration.database == "switchboard" && configuration.tlsMode == "require")
        #expect(configuration.maximumConnections == Settings.staffingPoolSize)
        let small = try Settings(environment: [
            "SWITCHBOARD_STAFFING_DATABASE_URL": url, "SWITCHBOARD_DATABASE_POOL_SIZE": "1",
        ])
        #expect(try small.staffingDatabaseConfiguration()?.maximumConnections == 1)
        let wiring = try StaffingReaderWiring(settings: settings, floor: nil, logger: Self.logger)
        #expect(wiring.planner != nil)
        #expect(wiring.services.count == 3, "the client, the schema check and the shortfall gauges")
    }

    @Test("a placeholder password is refused naming the variable; a malformed URL is shown with ***")
    func secrets() throws {
        #expect {
            try Settings(environment: [
                "SWITCHBOARD_STAFFING_DATABASE_URL": "postgres://reader:CHANGE-ME-PLACEHOLDER@db:5432/switchboard"
            ])
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.key == "SWITCHBOARD_STAFFING_DATABASE_URL" && !error.description.contains("CHANGE-ME")
        }
        let malformed = try Settings(environment: [
            "SWITCHBOARD_STAFFING_DATABASE_URL": "pg://reader:TopSecret123@127.0.0.1/x"
        ])
        #expect {
            try StaffingReaderWiring(settings: malformed, floor: nil, logger: Self.logger)
        } throws: { error in
            guard let error = error as? StorageError else { return false }
            return !error.message.contains("TopSecret123") && error.message.contains("pg://reader:***@127.0.0.1/x")
        }
    }
}
