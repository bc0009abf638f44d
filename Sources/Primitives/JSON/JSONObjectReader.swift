import Foundation

/// Typed, path-aware access to one object of a `JSONDocument`.
///
/// Conventions shared by every decoder built on it:
/// - An absent member and an explicit `null` both read as `nil` (Amazon Connect writes either).
/// - A member of the wrong type is an error naming the member's full path.
/// - Unknown members are ignored here; they survive in the raw bytes the models keep.
/// - With duplicate member names the last one wins, as in PostgreSQL's `jsonb`.
package struct JSONObjectReader {
    package let document: JSONDocument
    package let index: Int
    /// Path of this object; empty for the document root.
    package let path: String

    /// A reader over the object at tape index `index`, whose path is `path`.
    package init(document: JSONDocument, index: Int, path: String) {
        self.document = document
        self.index = index
        self.path = path
    }

    /// A reader over the document's root, which must be an object.
    package static func root(_ document: JSONDocument) throws -> JSONObjectReader {
        guard document.node(0).kind == .object else {
            throw JSONDecodingError(
                path: "$", reason: "expected a JSON object at the top level, found \(describe(document.node(0).kind))")
        }
        return JSONObjectReader(document: document, index: 0, path: "")
    }

    package func path(of key: StaticString) -> String { path.isEmpty ? key.description : "\(path).\(key)" }

    /// The tape index of the value of `key`, or `nil` when absent.
    ///
    /// The members are compared from the last, so the first match is the last of duplicates
    /// (the one that wins) and the search stops there; from the object's member table: names by
    /// length, then bytes.
    package func lookup(_ key: StaticString) -> Int? {
        let container = document.node(index)
        let first = Int(container.members)
        let keyLength = Int32(key.utf8CodeUnitCount)
        let bytes = document.bytes.baseAddress!
        return document.members.withUnsafeBufferPointer { members in
            for member in members[first..<first + Int(container.count)].reversed() {
                if member.escaped {
                    if document.stringEquals(Int(member.value) - 1, key) { return Int(member.value) }
                } else if member.nameLength == keyLength,
                    memcmp(bytes + Int(member.nameStart), key.utf8Start, Int(keyLength)) == 0
                {
                    return Int(member.value)
                }
            }
            return nil
        }
    }

    /// Calls `body` with each member name and value index, in document order.
    package func forEachMember(_ body: (String, Int) throws -> Void) rethrows {
        var cursor = index + 1
        let end = Int(document.node(index).next)
        while cursor < end {
            try body(document.string(at: cursor), cursor + 1)
            cursor = Int(document.node(cursor + 1).next)
        }
    }

    /// The value index of `key` unless it is absent or `null`.
    @inline(__always)
    package func present(_ key: StaticString) -> Int? {
        guard let valueIndex = lookup(key), document.node(valueIndex).kind != .null else { return nil }
        return valueIndex
    }

    package func string(_ key: StaticString) throws -> String? {
        guard let valueIndex = present(key) else { return nil }
        guard document.node(valueIndex).kind == .string else {
            throw typeMismatch(key, valueIndex, expected: "a string")
        }
        return document.string(at: valueIndex)
    }

    /// A string that must be present, not `null` and not empty.
    package func requiredString(_ key: StaticString) throws -> String {
        guard let value = try string(key) else {
            throw JSONDecodingError(path: path(of: key), reason: "is required but is missing or null")
        }
        guard !value.isEmpty else {
            throw JSONDecodingError(path: path(of: key), reason: "must not be empty")
        }
        return value
    }

    /// A non-negative whole number, such as a duration in seconds or a count.
    ///
    /// Accepts integral numbers written with a fraction or exponent (`12.0`, `1.2e1`); rejects
    /// strings, fractions and negatives.
    package func wholeNumber(_ key: StaticString, unit: String = "seconds") throws -> Int? {
        guard let valueIndex = present(key) else { return nil }
        let node = document.node(valueIndex)
        guard node.kind == .number else {
            throw typeMismatch(key, valueIndex, expected: "a whole number of \(unit) (a JSON number)")
        }
        let value: Int?
        if node.flag {
            value = Int(document.literal(at: valueIndex))
        } else if let double = Double(document.literal(at: valueIndex)), double.rounded() == double,
            abs(double) < 9e15
        {
            value = Int(double)
        } else {
            value = nil
        }
        guard let value, value >= 0 else {
            throw JSONDecodingError(
                path: path(of: key),
                reason: "expected a non-negative whole number of \(unit), got \(document.literal(at: valueIndex))")
        }
        return value
    }

    package func object(_ key: StaticString) throws -> JSONObjectReader? {
        guard let valueIndex = present(key) else { return nil }
        guard document.node(valueIndex).kind == .object else {
            throw typeMismatch(key, valueIndex, expected: "an object")
        }
        return JSONObjectReader(document: document, index: valueIndex, path: path(of: key))
    }

    /// The elements of an array member, each with its path (`Contacts[2]`).
    package func array(_ key: StaticString) throws -> [(index: Int, path: String)]? {
        guard let valueIndex = present(key) else { return nil }
        guard document.node(valueIndex).kind == .array else {
            throw typeMismatch(key, valueIndex, expected: "an array")
        }
        let base = path(of: key)
        var elements: [(index: Int, path: String)] = []
        elements.reserveCapacity(Int(document.node(valueIndex).count))
        var cursor = valueIndex + 1
        let end = Int(document.node(valueIndex).next)
        while cursor < end {
            elements.append((cursor, "\(base)[\(elements.count)]"))
            cursor = Int(document.node(cursor).next)
        }
        return elements
    }

    /// An array whose elements must be objects.
    package func objects(_ key: StaticString) throws -> [JSONObjectReader]? {
        try array(key)?.map { element in
            guard document.node(element.index).kind == .object else {
                throw JSONDecodingError(
                    path: element.path,
                    reason: "expected an object, found \(Self.describe(document.node(element.index).kind))")
            }
            return JSONObjectReader(document: document, index: element.index, path: element.path)
        }
    }

    /// An array whose elements must be strings; `null` elements are skipped.
    package func strings(_ key: StaticString) throws -> [String]? {
        try array(key)?.compactMap { element in
            switch document.node(element.index).kind {
            case .string: return document.string(at: element.index)
            case .null: return nil
            case let kind:
                throw JSONDecodingError(
                    path: element.path, reason: "expected a string, found \(Self.describe(kind))")
            }
        }
    }

    /// An object read as a string map. Non-string values are kept as their JSON text
    /// (`42`, `true`, `{"a":1}`); `null` values are dropped.
    package func stringMap(_ key: StaticString) throws -> [String: String]? {
        guard let reader = try object(key) else { return nil }
        var map: [String: String] = [:]
        map.reserveCapacity(Int(document.node(reader.index).count))
        reader.forEachMember { name, valueIndex in
            switch document.node(valueIndex).kind {
            case .string: map[name] = document.string(at: valueIndex)
            case .null: map[name] = nil
            default: map[name] = document.rawText(at: valueIndex)
            }
        }
        return map
    }

    package func typeMismatch(_ key: StaticString, _ valueIndex: Int, expected: String) -> JSONDecodingError {
        let kind = document.node(valueIndex).kind
        var found = Self.describe(kind)
        if kind == .string || kind == .number || kind == .true || kind == .false {
            let text = document.rawText(at: valueIndex)
            found += " " + (text.count > 60 ? String(text.prefix(60)) + "…" : text)
        }
        return JSONDecodingError(path: path(of: key), reason: "expected \(expected), found \(found)")
    }

    package static func describe(_ kind: JSONDocument.Kind) -> String {
        switch kind {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .true, .false: return "a boolean"
        case .null: return "null"
        }
    }
}
