import Crypto
import Foundation
import Primitives

/// A function or view of the schema whose whole current text lives in one file,
/// `Schema/functions/NAME.sql` or `Schema/views/NAME.sql`, applied after the versioned
/// migrations whenever its text changed (Flyway's repeatable migrations).
///
/// A file holds the object's statements as a migration does (each ending with `;` at the end of
/// a line, separated by an empty line): a function's `CREATE OR REPLACE FUNCTION` with its `SET`
/// settings, a view's `CREATE VIEW`, then their `COMMENT ON`. Grants live in the privileges file,
/// applied after these.
public struct RepeatableObject: Sendable, Hashable {
    /// What kind of object the file defines.
    public enum Kind: String, Sendable, Hashable {
        /// Replaced in place (`CREATE OR REPLACE FUNCTION`).
        case function
        /// Dropped and created again, with the objects that depend on it.
        case view
    }

    /// The object's name, the file's name without `.sql`.
    public var name: String
    public var kind: Kind
    /// The statements, run in order.
    public var statements: [String]
    /// The other repeatable objects its code names (comments and `COMMENT ON` aside): they are
    /// applied before it.
    public var dependencies: Set<String>

    /// The file's path under `Schema/`, e.g. `views/contact_outcome.sql`: the key its checksum is
    /// recorded under in `schema_object`.
    public var path: String { "\(kind == .function ? "functions" : "views")/\(name).sql" }

    /// The SHA-256 of the statements as the file holds them, in lower-case hexadecimal.
    public var checksum: String {
        let script = statements.map { $0 + ";\n" }.joined(separator: "\n")
        return Hexadecimal.encode(Array(SHA256.hash(data: Array(script.utf8))))
    }

    /// Creates an object.
    public init(name: String, kind: Kind, statements: [String], dependencies: Set<String> = []) {
        self.name = name
        self.kind = kind
        self.statements = statements
        self.dependencies = dependencies
    }

    /// The objects of `files` (`(kind, file name, text)`), each with its dependencies among them,
    /// in an order that applies every object after those it depends on (by name where free).
    ///
    /// - Throws: ``StorageError`` `.migration` naming a malformed file, one that does not create
    ///   the object its name says, or a cycle of dependencies.
    static func ordered(_ files: [(kind: Kind, fileName: String, text: String)]) throws -> [RepeatableObject] {
        var objects: [String: RepeatableObject] = [:]
        for file in files {
            let name = String(file.fileName.dropLast(".sql".count))
            let statements: [String]
            do {
                statements = try MigrationFile.statements(in: Substring(file.text))
            } catch let error as StorageError {
                throw StorageError(
                    code: .migration, message: "\(file.kind.rawValue)s/\(file.fileName): \(error.message)")
            }
            let creates = statements.contains { statement in
                let code = Self.code(statement).uppercased()
                return file.kind == .function
                    ? code.hasPrefix("CREATE OR REPLACE FUNCTION \(name.uppercased())(")
                    : code.hasPrefix("CREATE VIEW \(name.uppercased()) AS")
            }
            guard creates else {
                let expected = file.kind == .function ? "CREATE OR REPLACE FUNCTION \(name)(" : "CREATE VIEW \(name) AS"
                throw StorageError(
                    code: .migration, message: "\(file.kind.rawValue)s/\(file.fileName): it must \(expected)…")
            }
            guard objects[name] == nil else {
                throw StorageError(code: .migration, message: "\(name) is defined by two files")
            }
            objects[name] = RepeatableObject(name: name, kind: file.kind, statements: statements)
        }
        let names = Set(objects.keys)
        for name in names {
            let code = objects[name]!.statements.filter { !Self.code($0).uppercased().hasPrefix("COMMENT ON") }
                .map(Self.code).joined(separator: "\n")
            objects[name]!.dependencies = Self.identifiers(in: code).intersection(names).subtracting([name])
        }
        var ordered: [RepeatableObject] = []
        var state: [String: Bool] = [:]  // false: in progress, true: done
        func visit(_ name: String, path: [String]) throws {
            if state[name] == true { return }
            if state[name] == false {
                throw StorageError(
                    code: .migration,
                    message:
                        "the schema's files depend on each other in a cycle: \((path + [name]).joined(separator: " → "))"
                )
            }
            state[name] = false
            for dependency in objects[name]!.dependencies.sorted() { try visit(dependency, path: path + [name]) }
            state[name] = true
            ordered.append(objects[name]!)
        }
        for name in names.sorted() { try visit(name, path: []) }
        return ordered
    }

    /// `statement` without its `--` comment lines' text (string literals are kept).
    static func code(_ statement: String) -> String {
        statement.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard let range = line.range(of: "--") else { return Substring(line) }
            return line[..<range.lowerBound]
        }.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The lower-case identifiers of `text`.
    static func identifiers(in text: String) -> Set<String> {
        var found = Set<String>()
        var current = ""
        for character in text.lowercased() {
            if character == "_" || (character.isASCII && (character.isLetter || character.isNumber)) {
                current.append(character)
            } else {
                if !current.isEmpty { found.insert(current) }
                current = ""
            }
        }
        if !current.isEmpty { found.insert(current) }
        return found
    }
}
