/// A migration's SQL file, `Migrations/NNNN_name.sql`: a header, an empty line, the statements.
///
/// ```sql
/// -- Migration 1: consumer offsets
/// --
/// -- Why the migration exists (optional comment lines).
///
/// CREATE TABLE consumer_offset (…);
///
/// COMMENT ON TABLE consumer_offset IS '…';
/// ```
///
/// The header's first line names the version (it must match the file name's number) and the name
/// recorded in `schema_migration`; the header is not part of the checksum. Each statement ends
/// with `;` at the end of a line, outside quotes, comments and dollar-quoted bodies, and the
/// statements are separated by one empty line: the part after the header is exactly
/// ``Migration/script``, so `sed '1,/^$/d' NNNN_name.sql | sha256sum` prints the checksum.
enum MigrationFile {
    /// The migration in `text`, the contents of the file `fileName`.
    ///
    /// - Throws: ``StorageError`` `.migration` naming the file and what is wrong with it.
    static func parse(fileName: String, text: String) throws -> Migration {
        func failure(_ problem: String) -> StorageError {
            StorageError(code: .migration, message: "migration file \(fileName): \(problem)")
        }
        guard let number = Int(fileName.prefix { $0.isASCII && $0.isNumber }), fileName.hasSuffix(".sql") else {
            throw failure("the name must be NNNN_name.sql")
        }
        guard let headerEnd = text.range(of: "\n\n") else { throw failure("no empty line after the header") }
        let header = text[..<headerEnd.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
        let prefix = "-- Migration \(number): "
        guard let title = header.first, title.hasPrefix(prefix), title.count > prefix.count else {
            throw failure("the first line must be \"\(prefix)<name>\"")
        }
        guard header.allSatisfy({ $0 == "--" || $0.hasPrefix("-- ") }) else {
            throw failure("every header line must be a \"-- \" comment")
        }
        let script = text[headerEnd.upperBound...]
        let parsed: [String]
        do {
            parsed = try statements(in: script)
        } catch let error as StorageError {
            throw failure(error.message)
        }
        var migration = Migration(version: number, name: String(title.dropFirst(prefix.count)), statements: parsed)
        migration.runsAfterSchemaFiles = header.contains { $0 == afterSchemaFilesLine }
        guard migration.script == script else {
            throw failure("statements must end with \";\" at the end of a line and be separated by one empty line")
        }
        return migration
    }

    /// The header line of a migration that runs after the schema's functions and views
    /// (``Migration/runsAfterSchemaFiles``).
    static let afterSchemaFilesLine = "-- Runs after the schema's functions and views."

    /// The file's text for `migration`, with `comment` lines after its title.
    static func render(_ migration: Migration, comment: [String] = []) -> String {
        let header =
            ["-- Migration \(migration.version): \(migration.name)"] + comment.map { $0.isEmpty ? "--" : "-- \($0)" }
        return header.joined(separator: "\n") + "\n\n" + migration.script
    }

    /// The statements of `script`: the text before each `;` that ends a line outside string
    /// literals, quoted identifiers, comments and dollar-quoted strings, without the empty line
    /// that follows it.
    ///
    /// - Throws: ``StorageError`` `.migration` when a quote, comment or dollar quote is not closed
    ///   or a `;` is followed by more text on its line (two statements on one line).
    static func statements(in script: Substring) throws -> [String] {
        let bytes = Array(script.utf8)
        var statements: [String] = []
        var start = 0
        var index = 0
        func isIdentifier(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...:
                true
            default: false
            }
        }
        func unclosed(_ what: String) -> StorageError {
            let line = bytes[..<start].filter { $0 == UInt8(ascii: "\n") }.count + 1
            return StorageError(code: .migration, message: "\(what) not closed in the statement at line \(line)")
        }
        /// The index after the first `closing` at or after `from`.
        func after(_ closing: [UInt8], from: Int) -> Int? {
            var probe = from
            while probe + closing.count <= bytes.count {
                if bytes[probe..<probe + closing.count].elementsEqual(closing) { return probe + closing.count }
                probe += 1
            }
            return nil
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                // A doubled quote inside is two literals back to back: the same statement either way.
                let escapes = byte == UInt8(ascii: "'") && index > 0 && (bytes[index - 1] | 0x20) == UInt8(ascii: "e")
                var probe = index + 1
                while probe < bytes.count, bytes[probe] != byte {
                    probe += escapes && bytes[probe] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard probe < bytes.count else { throw unclosed("a quote") }
                index = probe + 1
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                index = after([UInt8(ascii: "\n")], from: index) ?? bytes.count
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                guard let end = after(Array("*/".utf8), from: index + 2) else { throw unclosed("a comment") }
                index = end
            case UInt8(ascii: "$") where index == 0 || !isIdentifier(bytes[index - 1]):
                var probe = index + 1
                while probe < bytes.count, isIdentifier(bytes[probe]), bytes[probe] != UInt8(ascii: "$") { probe += 1 }
                let isTag =
                    probe < bytes.count && bytes[probe] == UInt8(ascii: "$")
                    && (probe == index + 1 || !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1]))
                guard isTag else {
                    index += 1
                    continue
                }
                let tag = Array(bytes[index...probe])
                guard let end = after(tag, from: probe + 1) else { throw unclosed("a dollar quote") }
                index = end
            case UInt8(ascii: ";"):
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") else {
                    throw StorageError(
                        code: .migration, message: "a \";\" must end its line (one statement per \";\")")
                }
                statements.append(String(decoding: bytes[start..<index], as: UTF8.self))
                index += 2
                if index < bytes.count, bytes[index] == UInt8(ascii: "\n") { index += 1 }
                start = index
            default:
                index += 1
            }
        }
        guard bytes[start...].allSatisfy({ $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: " ") }) else {
            throw StorageError(code: .migration, message: "the last statement does not end with \";\"")
        }
        return statements
    }
}
