import Foundation
import SwitchboardTesting
import Testing

@testable import Storage

@Suite("Migration files")
struct MigrationFileTests {
    /// The SHA-256 of each migration's statements as the Swift-string schema rendered them before
    /// they became files (`statements.joined(";\n\n") + ";\n"`, the files' text after the header):
    /// databases migrated by that code recorded nothing, and must meet the same statements.
    /// A released migration's row never changes; a new migration adds one.
    static let released: [(version: Int, name: String, statements: Int, checksum: String)] = [
        (1, "consumer offsets", 2, "a8e0c7c2467dfbd9e5674a89211eec825572a4fbe1ed3e094aa6981ca45393e8"),
        (2, "ingest tables", 12, "266b38fe309227bbc4e87793b8991b682c32f69019cc30ca26ba74fb63f5b8dd"),
        (3, "analyst views and role", 16, "3feb6f8baf51def2deb529b82adadd49f76e4bf8b5605c7dc716715df39c729d"),
        (4, "connect metric columns", 7, "683dc4da3c0844b3c22216bdaa713ede70a120e482ff11a9bf432b42de9a7756"),
        (5, "store business days", 7, "4a952bd2ac9c3f086afd177b889dbf831c3df9b157cf40e6b00f2f3a94d06f9e"),
        (6, "connect metric definitions", 21, "86476d1445b8196722091e2dc6c619031f720dce1217c2ebd2917eb932276914"),
        (7, "analyst rollups", 59, "42fe1b3553e294edfa3a6491c3ce913da6fbf69423b02d4e5dca3bf710023ddc"),
        (8, "rollup upkeep by key", 1, "ce1714275f1636f36daaeebf4244c48120f2d39b9279b917ecffecd64fa46764"),
        (
            9, "rollup staleness only for uncovered removals", 1,
            "69c37f2433925f3d6eb68efb374ec1f38be0ce9afbca373bc509fd0cfaba8a6f"
        ),
        (
            10, "raw tables partitioned by month, retention", 43,
            "9a80ae07eb70c0a0aca6b73c0eb15c7b5ae134b55988e71f221796f62dd78fee"
        ),
        (
            11, "rollup upkeep with room for HOT updates and one plan per session", 6,
            "ab49e8d6b796b190eef04d32a8302582246a77953851942e5e3e21267ac8d9da"
        ),
        (
            12, "rollup upkeep probes previous contacts only for next contacts that reclassify them", 1,
            "8e2812a9fb1784cbb0e66c1e43269e759823d0f36ddf155eff8380bb00e3e3c3"
        ),
        (13, "agent rollup upkeep by key", 3, "8c51b7b707951fc0d472ad6b7b96f76b341aa8cd219c0808aedf6ee9f7820e06"),
        (
            14, "connect queue metrics and agent activity", 17,
            "c0ee5074dd392e4c1d15fd8e771fe9e58da8e54590c87ef8d16248620ae121a0"
        ),
        (15, "staffing", 14, "7cda6ecabbdb5d21ee5e2799f86e122c3f398eabc851c89d2b2ee40165845d81"),
        (
            16, "staffing refresh serialized and without JIT, queue names by index", 3,
            "94c2804bd3de32ab38927f8aaef91730bbd8f6a9404e3acb58662f0ce12ad501"
        ),
        (
            17, "staffing history by day, refreshes on record, plan intervals without a per-row check", 12,
            "dd537b44aa6116b4fbd1e3fa688749e68e4094152f85e832f2838d6b69460416"
        ),
        (
            18, "the ingest's upsert stashes the rows it writes itself", 5,
            "b1f1b4c26577f3cfd60e84b7cc7bf835dc9a277350f0f8ae4b037154b17efde9"
        ),
        (19, "least privilege", 3, "ecf284d758972313d94de792e38240e7318512e5e4b53ea0da16c522a718e30b"),
        (
            20, "transferred out by agent counts external transfers", 2,
            "0c14d5205375d6ed10fc112c56240122036e0dba8cb34099aafddb87088d59f5"
        ),
        (21, "store business days by date", 1, "3b88d6b264fe39a67a72a216be3960a9177a71d1758130d0cc51baa356e30552"),
    ]

    @Test("every released migration loads with its name, statement count and recorded checksum")
    func releasedChecksums() {
        let migrations = SwitchboardSchema.migrations
        #expect(migrations.map(\.version) == Array(1...migrations.count))
        #expect(migrations.count >= Self.released.count)
        for (released, migration) in zip(Self.released, migrations) {
            #expect(migration.version == released.version)
            #expect(migration.name == released.name)
            #expect(migration.statements.count == released.statements, "migration \(released.version)")
            #expect(migration.checksum == released.checksum, "migration \(released.version) (\(released.name)) changed")
        }
        #expect(migrations.count == Self.released.count, "a new migration adds its row to `released`")
    }

    /// The first version whose migrations leave functions and views to their files.
    static let firstWithRepeatableObjects = 19

    @Test("from migration 19 on, no versioned migration creates or replaces a function or view: they have files")
    func functionsAndViewsHaveFiles() {
        for migration in SwitchboardSchema.migrations where migration.version >= Self.firstWithRepeatableObjects {
            for statement in migration.statements {
                let code = RepeatableObject.code(statement).uppercased()
                    .replacingOccurrences(of: "\n", with: " ")
                for kind in ["FUNCTION", "VIEW"] {
                    #expect(
                        !(code.hasPrefix("CREATE \(kind)") || code.hasPrefix("CREATE OR REPLACE \(kind)")),
                        "migration \(migration.version) creates a \(kind.lowercased()): put it in Sources/Storage/Schema/\(kind.lowercased())s/ instead"
                    )
                }
            }
        }
    }

    @Test("every function and view has one file; the files in the source tree are the ones the binary loads")
    func repeatableFiles() throws {
        let directory = Repository.root.appendingPathComponent("Sources/Storage/Schema")
        let files = try SwitchboardSchema.repeatables(in: directory)
        #expect(files == SwitchboardSchema.repeatables)
        #expect(files.filter { $0.kind == .view }.count == 8)
        // Dependency order: each object after those its code names.
        var seen = Set<String>()
        for object in files {
            #expect(object.dependencies.isSubset(of: seen), "\(object.name) comes after \(object.dependencies)")
            seen.insert(object.name)
        }
        #expect(
            files.first { $0.name == "analyst_attributes" }?.dependencies == [
                "analyst_attribute_keys", "looks_like_phone", "mask_phone", "phone_text",
            ])
    }

    @Test("a header line makes a migration run after the schema's files; it is not part of the checksum")
    func runsAfterSchemaFiles() throws {
        let plain = try MigrationFile.parse(fileName: "0020_x.sql", text: "-- Migration 20: x\n\nSELECT 1;\n")
        let after = try MigrationFile.parse(
            fileName: "0020_x.sql",
            text: "-- Migration 20: x\n-- Runs after the schema's functions and views.\n\nSELECT 1;\n")
        #expect(!plain.runsAfterSchemaFiles)
        #expect(after.runsAfterSchemaFiles)
        #expect(plain.checksum == after.checksum)
    }

    @Test("a repeatable file must create the object it is named for; a cycle is refused")
    func malformedRepeatables() {
        #expect(throws: StorageError.self) {
            try RepeatableObject.ordered([
                (.function, "f.sql", "CREATE OR REPLACE FUNCTION g() RETURNS int AS 'SELECT 1';\n")
            ])
        }
        #expect(throws: StorageError.self) {
            try RepeatableObject.ordered([
                (.view, "a.sql", "CREATE VIEW a AS SELECT * FROM b;\n"),
                (.view, "b.sql", "CREATE VIEW b AS SELECT * FROM a;\n"),
            ])
        }
    }

    @Test("the files in the source tree are the ones the binary loads")
    func sourceFiles() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Storage/Migrations")
        #expect(try SwitchboardSchema.migrations(in: directory) == SwitchboardSchema.migrations)
    }

    @Test("the script after the header is the statements; its SHA-256 is the checksum")
    func scriptAndChecksum() throws {
        let migration = Migration(version: 1, name: "greeting", statements: ["SELECT 1", "SELECT\n  2"])
        #expect(migration.script == "SELECT 1;\n\nSELECT\n  2;\n")
        // printf 'SELECT 1;\n\nSELECT\n  2;\n' | sha256sum
        #expect(migration.checksum == "ee8c8df961a10f876e6fbdd61baee87f4703d50221aee6d7e7504715a743e0e0")
        let text = MigrationFile.render(migration, comment: ["Why.", "", "More."])
        #expect(text == "-- Migration 1: greeting\n-- Why.\n--\n-- More.\n\nSELECT 1;\n\nSELECT\n  2;\n")
        #expect(try MigrationFile.parse(fileName: "0001_greeting.sql", text: text) == migration)
    }

    @Test("a ';' inside quotes, comments and dollar-quoted bodies does not end a statement")
    func splitting() throws {
        let statements = [
            "CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $$\nBEGIN\n    PERFORM 1;\n    RETURN 2;\nEND;\n$$",
            "CREATE FUNCTION g() RETURNS text LANGUAGE sql AS $body$ SELECT ';\n' $body$",
            "COMMENT ON TABLE t IS 'it''s;\nfine'",
            "SELECT 1 -- a comment;\n    + 2",
            "SELECT /* ;\n */ \"odd;\n\"\"name\" FROM t WHERE x = $1",
            "SELECT E'\\';\n'",
        ]
        let script = Migration(version: 1, name: "x", statements: statements).script
        #expect(try MigrationFile.statements(in: script[...]) == statements)
    }

    @Test(
        "malformed files are refused, naming the file",
        arguments: [
            ("0001_x.sql", "SELECT 1;\n"),  // no header
            ("0002_x.sql", "-- Migration 1: x\n\nSELECT 1;\n"),  // version differs from the file name
            ("0001_x.sql", "-- Migration 1: x\nSELECT 0\n\nSELECT 1;\n"),  // header line not a comment
            ("0001_x.sql", "-- Migration 1: x\n\nSELECT 1; SELECT 2;\n"),  // two statements on a line
            ("0001_x.sql", "-- Migration 1: x\n\nSELECT 1;\nSELECT 2;\n"),  // no empty line between
            ("0001_x.sql", "-- Migration 1: x\n\nSELECT 1;\n\nSELECT 2\n"),  // no final ';'
            ("0001_x.sql", "-- Migration 1: x\n\nSELECT $$;\n"),  // unclosed dollar quote
            ("x.sql", "-- Migration 1: x\n\nSELECT 1;\n"),  // no number
        ])
    func malformed(fileName: String, text: String) {
        #expect {
            try MigrationFile.parse(fileName: fileName, text: text)
        } throws: { error in
            (error as? StorageError)?.message.contains(fileName) == true
        }
    }
}
