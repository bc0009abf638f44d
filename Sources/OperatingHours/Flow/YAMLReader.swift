import Yams

/// Reads Yams nodes of one file, recording problems with their line instead of stopping at the
/// first one.
struct YAMLReader {
    let file: String
    private(set) var problems: [FlowProblem] = []

    init(file: String) {
        self.file = file
    }

    func location(_ node: Node?) -> SourceLocation {
        guard let mark = node?.mark else { return SourceLocation(file: file, line: 0, column: 0) }
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    mutating func report(_ issue: FlowIssue, at node: Node?) {
        problems.append(FlowProblem(location: location(node), issue: issue))
    }

    mutating func report(_ issue: FlowIssue, at location: SourceLocation) {
        problems.append(FlowProblem(location: location, issue: issue))
    }

    /// The entries of a mapping by key; reports a non-mapping, unknown keys and duplicates.
    mutating func mapping(_ node: Node, key: String, allowed: [String]) -> [String: (key: Node, value: Node)]? {
        guard case .mapping(let mapping) = node else {
            report(.wrongType(key: key, expected: "a mapping of keys to values"), at: node)
            return nil
        }
        var entries: [String: (key: Node, value: Node)] = [:]
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                report(.wrongType(key: key, expected: "a mapping with plain keys"), at: keyNode)
                continue
            }
            let name = scalar.string
            if !allowed.isEmpty, !allowed.contains(name) {
                report(.unknownKey(name, allowed: allowed), at: keyNode)
            } else if entries[name] != nil {
                report(.invalidValue(key: name, value: name, expected: "each key once"), at: keyNode)
            } else {
                entries[name] = (keyNode, value)
            }
        }
        return entries
    }

    /// The ordered pairs of a mapping with scalar keys; reports a non-mapping.
    mutating func pairs(_ node: Node, key: String) -> [(key: String, keyNode: Node, value: Node)]? {
        guard case .mapping(let mapping) = node else {
            report(.wrongType(key: key, expected: "a mapping"), at: node)
            return nil
        }
        var result: [(key: String, keyNode: Node, value: Node)] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                report(.wrongType(key: key, expected: "a mapping with plain keys"), at: keyNode)
                continue
            }
            result.append((scalar.string, keyNode, value))
        }
        return result
    }

    /// The items of a sequence; reports a non-sequence.
    mutating func sequence(_ node: Node, key: String) -> [Node]? {
        guard case .sequence(let sequence) = node else {
            report(.wrongType(key: key, expected: "a list"), at: node)
            return nil
        }
        return Array(sequence)
    }

    /// A scalar's text; reports a non-scalar.
    mutating func string(_ node: Node, key: String) -> String? {
        guard case .scalar(let scalar) = node else {
            report(.wrongType(key: key, expected: "a single value"), at: node)
            return nil
        }
        return scalar.string
    }

    /// One string or a list of strings.
    mutating func strings(_ node: Node, key: String) -> [String]? {
        if case .scalar(let scalar) = node { return [scalar.string] }
        guard let items = sequence(node, key: key) else { return nil }
        return items.compactMap { string($0, key: key) }
    }

    /// `true`/`false` (also `yes`/`no`).
    mutating func bool(_ node: Node, key: String) -> Bool? {
        guard let text = string(node, key: key) else { return nil }
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default:
            report(.invalidValue(key: key, value: text, expected: "true or false"), at: node)
            return nil
        }
    }

    /// A required key's value node; reports its absence at the mapping.
    mutating func required(
        _ entries: [String: (key: Node, value: Node)], _ key: String, in context: String, at node: Node
    ) -> Node? {
        guard let entry = entries[key] else {
            report(.missingKey(key, in: context), at: node)
            return nil
        }
        return entry.value
    }

    /// A required string.
    mutating func requiredString(
        _ entries: [String: (key: Node, value: Node)], _ key: String, in context: String, at node: Node
    ) -> String? {
        guard let value = required(entries, key, in: context, at: node), let text = string(value, key: key) else {
            return nil
        }
        guard !text.isEmpty else {
            report(.invalidValue(key: key, value: text, expected: "a non-empty value"), at: value)
            return nil
        }
        return text
    }

    /// Parses a file into its root node; reports invalid YAML with its line.
    mutating func compose(_ text: String) -> Node? {
        do {
            return try Yams.compose(yaml: text)
        } catch let error as YamlError {
            switch error {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
                .composer(_, let problem, let mark, _):
                report(.invalidYAML(problem), at: SourceLocation(file: file, line: mark.line, column: mark.column))
            default:
                report(.invalidYAML(error.description), at: SourceLocation(file: file, line: 1, column: 1))
            }
        } catch {
            report(.invalidYAML(String(describing: error)), at: SourceLocation(file: file, line: 1, column: 1))
        }
        return nil
    }
}
