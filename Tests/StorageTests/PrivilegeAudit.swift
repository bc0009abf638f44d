import Foundation
import PostgresNIO
import SwitchboardTesting

/// Everything the schema's group roles and `PUBLIC` can do in a database, read from the catalogs,
/// and the allow-list it must equal (docs/analysts.md, "Roles and privileges").
///
/// The audit reads what PostgreSQL would allow (`has_*_privilege`, so memberships and `PUBLIC`
/// count), not what the privileges file says: a grant left by an old migration, a default
/// privilege or a column grant shows up as well.
enum PrivilegeAudit {
    /// One thing a role may do: `privilege` on `object` (a relation's name, a function's
    /// `regprocedure`, `schema NAME` or `database`).
    struct Entry: Hashable, Comparable, CustomStringConvertible {
        var role: String
        var privilege: String
        var object: String

        static func < (a: Entry, b: Entry) -> Bool {
            (a.role, a.object, a.privilege) < (b.role, b.object, b.privilege)
        }

        var description: String { "\(role): \(privilege) on \(object)" }
    }

    /// The roles audited besides `PUBLIC`.
    static let roles = [
        "switchboard_analyst", "switchboard_retention", "switchboard_staffing_reader", "switchboard_writer",
    ]

    /// What each role and `PUBLIC` may do in the database of `client`.
    static func entries(_ client: PostgresClient) async throws -> Set<Entry> {
        let rows = try await client.query(
            """
            WITH role AS (SELECT unnest(\(roles)::text[]) AS role),
            rel AS (
                SELECT c.oid, c.relname::text AS name, c.relkind, c.relacl, c.relowner FROM pg_class c
                WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
            ),
            fn AS (
                SELECT p.oid, p.oid::regprocedure::text AS name, p.prosecdef, p.proacl, p.proowner FROM pg_proc p
                WHERE p.pronamespace = 'public'::regnamespace
            ),
            nsp AS (
                SELECT n.oid, n.nspname::text AS name, n.nspacl, n.nspowner FROM pg_namespace n
                WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
                  AND n.nspname NOT LIKE 'pg_temp_%' AND n.nspname NOT LIKE 'pg_toast_temp_%'
            )
            SELECT r.role, p.privilege, c.name FROM role r CROSS JOIN rel c
            CROSS JOIN unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'])
                AS p(privilege)
            WHERE c.relkind <> 'S' AND has_table_privilege(r.role, c.oid, p.privilege)
            UNION ALL
            SELECT r.role, p.privilege || ' (some columns)', c.name FROM role r CROSS JOIN rel c
            CROSS JOIN unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'REFERENCES']) AS p(privilege)
            WHERE c.relkind <> 'S' AND NOT has_table_privilege(r.role, c.oid, p.privilege)
              AND has_any_column_privilege(r.role, c.oid, p.privilege)
            UNION ALL
            SELECT r.role, p.privilege, c.name FROM role r CROSS JOIN rel c
            CROSS JOIN unnest(ARRAY['USAGE', 'SELECT', 'UPDATE']) AS p(privilege)
            WHERE c.relkind = 'S' AND has_sequence_privilege(r.role, c.oid, p.privilege)
            UNION ALL
            SELECT r.role, CASE WHEN f.prosecdef THEN 'EXECUTE (SECURITY DEFINER)' ELSE 'EXECUTE' END, f.name
            FROM role r CROSS JOIN fn f WHERE has_function_privilege(r.role, f.oid, 'EXECUTE')
            UNION ALL
            SELECT r.role, p.privilege, 'schema ' || n.name FROM role r CROSS JOIN nsp n
            CROSS JOIN unnest(ARRAY['USAGE', 'CREATE']) AS p(privilege)
            WHERE has_schema_privilege(r.role, n.oid, p.privilege)
            UNION ALL
            SELECT r.role, p.privilege, 'database' FROM role r
            CROSS JOIN unnest(ARRAY['CREATE', 'TEMPORARY']) AS p(privilege)
            WHERE has_database_privilege(r.role, current_database(), p.privilege)
            UNION ALL
            SELECT 'PUBLIC', a.privilege_type, c.name FROM rel c, aclexplode(c.relacl) a WHERE a.grantee = 0
            UNION ALL
            SELECT 'PUBLIC', a.privilege_type, f.name
            FROM fn f, aclexplode(coalesce(f.proacl, acldefault('f', f.proowner))) a WHERE a.grantee = 0
            UNION ALL
            SELECT 'PUBLIC', a.privilege_type, 'schema ' || n.name
            FROM nsp n, aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a WHERE a.grantee = 0
            """,
            logger: TestDatabase.logger)
        var entries = Set<Entry>()
        for try await (role, privilege, object) in rows.decode((String, String, String).self) {
            entries.insert(Entry(role: role, privilege: privilege, object: object))
        }
        return entries
    }

    /// Every relation (partitions aside), sequence and function of the schema: each must appear in
    /// the allow-list, granted or as owner only.
    static func objects(_ client: PostgresClient) async throws -> Set<String> {
        let rows = try await client.query(
            """
            SELECT c.relname::text FROM pg_class c
            WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
              AND NOT c.relispartition
            UNION ALL
            SELECT p.oid::regprocedure::text FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
            """,
            logger: TestDatabase.logger)
        var objects = Set<String>()
        for try await name in rows.decode(String.self) { objects.insert(name) }
        return objects
    }

    /// The `SECURITY DEFINER` functions whose `search_path` is not pinned with `pg_temp` last.
    static func definersWithoutPinnedPath(_ client: PostgresClient) async throws -> [String] {
        let rows = try await client.query(
            """
            SELECT p.oid::regprocedure::text FROM pg_proc p
            WHERE p.pronamespace = 'public'::regnamespace AND p.prosecdef
              AND NOT EXISTS (SELECT FROM unnest(p.proconfig) AS s(setting)
                              WHERE s.setting ~ '^search_path=.*pg_temp$')
            ORDER BY 1
            """,
            logger: TestDatabase.logger)
        var names: [String] = []
        for try await name in rows.decode(String.self) { names.append(name) }
        return names
    }

    /// The allow-list: the entries docs/analysts.md grants, and every object it names (those of
    /// its "owner only" row included).
    struct AllowList {
        var entries: Set<Entry> = []
        var objects: Set<String> = []
    }

    static let begin = "<!-- privileges: begin -->"
    static let end = "<!-- privileges: end -->"

    /// The allow-list of the table between ``begin`` and ``end`` in `markdown`: rows of
    /// `| role | privilege | objects |`, each cell's items in backticks; a row whose role is
    /// `owner only` names objects no role may touch.
    static func allowList(markdown: String) throws -> AllowList {
        guard let start = markdown.range(of: begin), let stop = markdown.range(of: end),
            start.upperBound < stop.lowerBound
        else { throw AllowListMalformed(detail: "no table between \(begin) and \(end)") }
        var list = AllowList()
        for line in markdown[start.upperBound..<stop.lowerBound].split(separator: "\n") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3, !cells[0].hasPrefix("---"), cells[0] != "Role" else { continue }
            let roles = backticked(cells[0])
            let privileges = backticked(cells[1])
            let objects = backticked(cells[2])
            guard !objects.isEmpty else { throw AllowListMalformed(detail: "a row names no object: \(line)") }
            list.objects.formUnion(objects)
            if cells[0] == "owner only" { continue }
            guard !roles.isEmpty, !privileges.isEmpty else {
                throw AllowListMalformed(detail: "a row names no role or privilege: \(line)")
            }
            for role in roles {
                for privilege in privileges {
                    for object in objects {
                        list.entries.insert(Entry(role: role, privilege: privilege, object: object))
                    }
                }
            }
        }
        return list
    }

    private static func backticked(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .compactMap { $0.offset % 2 == 1 ? String($0.element) : nil }
    }

    /// The allow-list of the repository's docs/analysts.md.
    static func repositoryAllowList() throws -> AllowList {
        let file = Repository.root.appendingPathComponent("docs/analysts.md")
        return try allowList(markdown: String(contentsOf: file, encoding: .utf8))
    }

    struct AllowListMalformed: Error, CustomStringConvertible {
        var detail: String
        var description: String { "docs/analysts.md's allow-list: \(detail)" }
    }

    /// What differs between the database and the allow-list, as lines for a failure message:
    /// grants beyond it, grants it lists that are missing, objects it does not name.
    static func differences(actual: Set<Entry>, objects: Set<String>, allowed: AllowList) -> [String] {
        let extra = actual.subtracting(allowed.entries).sorted().map { "not in the allow-list: \($0)" }
        let missing = allowed.entries.subtracting(actual).sorted().map { "allowed but not granted: \($0)" }
        let unnamed = objects.subtracting(allowed.objects).sorted().map {
            "\($0) is not in the allow-list: grant it in Sources/Storage/Schema/privileges.sql and list it in docs/analysts.md (or list it as owner only)"
        }
        return extra + missing + unnamed
    }
}
