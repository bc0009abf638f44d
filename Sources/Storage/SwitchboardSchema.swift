import Foundation

/// The versioned migrations of Switchboard's schema, applied by `switchboard migrate` and at start-up.
///
/// Each migration is one SQL file of the Storage target's `Migrations/` resources
/// (`NNNN_name.sql`, see ``MigrationFile``). A released file never changes: the migrator records
/// each one's checksum and refuses a database that applied a different text. A change to the schema
/// is a new file (`CREATE OR REPLACE …`, `ALTER …`). `docs/schema.sql` is the schema they build.
public enum SwitchboardSchema {
    /// Every migration, in order of version.
    ///
    /// - Important: A missing or malformed file stops the process: the files are part of the
    ///   binary (the resource bundle next to it), and the tests load every one of them.
    public static let migrations: [Migration] = {
        guard let directory = Bundle.module.url(forResource: "Migrations", withExtension: nil) else {
            fatalError("the Storage resource bundle has no Migrations folder")
        }
        do {
            return try migrations(in: directory)
        } catch {
            fatalError("loading the migrations: \(error)")
        }
    }()

    /// The schema's functions and views, one file each (`Schema/functions/`, `Schema/views/`), in
    /// the order that applies each after those it depends on.
    ///
    /// - Important: A missing or malformed file stops the process, as for the migrations.
    public static let repeatables: [RepeatableObject] = {
        guard let schema = Bundle.module.url(forResource: "Schema", withExtension: nil) else {
            fatalError("the Storage resource bundle has no Schema folder")
        }
        do {
            return try repeatables(in: schema)
        } catch {
            fatalError("loading the schema's functions and views: \(error)")
        }
    }()

    /// The repeatable objects of the `functions/` and `views/` folders of `directory`.
    ///
    /// - Throws: ``StorageError`` `.migration` naming a malformed file or a cycle.
    static func repeatables(in directory: URL) throws -> [RepeatableObject] {
        var files: [(kind: RepeatableObject.Kind, fileName: String, text: String)] = []
        for (kind, folder) in [(RepeatableObject.Kind.function, "functions"), (.view, "views")] {
            let url = directory.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where name.hasSuffix(".sql") {
                files.append((kind, name, try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)))
            }
        }
        return try RepeatableObject.ordered(files)
    }

    /// The statements of the privileges file (`Schema/privileges.sql`): what each group role may
    /// do, applied after the migrations by every migrate (``Migrator/migrate(_:privileges:)``).
    ///
    /// - Important: A missing or malformed file stops the process, as for the migrations.
    public static let privileges: [String] = {
        guard let file = Bundle.module.url(forResource: "privileges", withExtension: "sql", subdirectory: "Schema")
        else {
            fatalError("the Storage resource bundle has no Schema/privileges.sql")
        }
        do {
            return try privileges(text: String(contentsOf: file, encoding: .utf8))
        } catch {
            fatalError("loading Schema/privileges.sql: \(error)")
        }
    }()

    /// The group roles the privileges file grants to: the writer, retention, the analyst and
    /// `serve`'s staffing reader.
    public static let groupRoles = [
        "switchboard_analyst", "switchboard_retention", "switchboard_staffing_reader", "switchboard_writer",
    ]

    /// The statements of a privileges file's `text`: its header (comment lines up to the first
    /// empty line), then statements as a migration holds them.
    ///
    /// - Throws: ``StorageError`` `.migration` naming what is malformed.
    static func privileges(text: String) throws -> [String] {
        guard let headerEnd = text.range(of: "\n\n") else {
            throw StorageError(code: .migration, message: "privileges file: no empty line after the header")
        }
        return try MigrationFile.statements(in: text[headerEnd.upperBound...])
    }

    /// The migrations of the `.sql` files in `directory`, in order of version.
    ///
    /// - Throws: ``StorageError`` `.migration` naming a malformed file, or when the versions are
    ///   not 1, 2, 3, … without a gap or a repeat.
    static func migrations(in directory: URL) throws -> [Migration] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".sql") }
        let migrations = try names.map { name in
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            return try MigrationFile.parse(fileName: name, text: text)
        }.sorted { $0.version < $1.version }
        for (index, migration) in migrations.enumerated() where migration.version != index + 1 {
            throw StorageError(
                code: .migration,
                message:
                    "migration files: expected version \(index + 1), found \(migration.version) (\(migration.name))"
            )
        }
        return migrations
    }
}

extension Migrator {
    /// Applies Switchboard's schema: its migrations, then its functions and views and its
    /// privileges (what `switchboard migrate` does).
    ///
    /// - Returns: The versions applied by this call.
    @discardableResult
    public func migrateSwitchboardSchema() async throws -> [Int] {
        try await migrate(
            SwitchboardSchema.migrations, repeatables: SwitchboardSchema.repeatables,
            privileges: SwitchboardSchema.privileges)
    }

    /// Checks, changing nothing, that Switchboard's schema is applied (what every role but
    /// `migrate` and `dev` does at start); see ``verify(_:repeatables:)``.
    public func verifySwitchboardSchema() async throws {
        try await verify(SwitchboardSchema.migrations, repeatables: SwitchboardSchema.repeatables)
    }
}
