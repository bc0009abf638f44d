/// One output of a rule: a key and a string value with optional `{{variable}}` placeholders.
///
/// Variables are the answer's keys (``HookAnswer/templateVariables``), `store.ATTRIBUTE` and
/// `contact.ATTRIBUTE` (empty when absent). The text is split into segments once at load time.
public struct OutputTemplate: Hashable, Sendable {
    /// A piece of the value.
    public enum Segment: Hashable, Sendable {
        /// Literal text.
        case literal(String)
        /// An answer key such as `nextOpenTime`.
        case answer(String)
        /// A store attribute.
        case storeAttribute(String)
        /// A contact attribute.
        case contactAttribute(String)
    }

    /// The output's key, e.g. `queue`.
    public let key: String
    /// The value's pieces.
    public let segments: [Segment]
    /// The value when it has no variables.
    public let constant: String?

    /// Parses a value; `{{` without a closing `}}` is literal text.
    ///
    /// - Throws: ``FlowIssue/unknownTemplateVariable(_:)`` for an unknown answer key.
    public init(key: String, text: String) throws(FlowIssue) {
        var segments: [Segment] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            if open.lowerBound > rest.startIndex { segments.append(.literal(String(rest[..<open.lowerBound]))) }
            let name = String(rest[open.upperBound..<close.lowerBound].trimmingSpaces)
            if name.hasPrefix("store.") {
                segments.append(.storeAttribute(String(name.dropFirst(6))))
            } else if name.hasPrefix("contact.") {
                segments.append(.contactAttribute(String(name.dropFirst(8))))
            } else if HookAnswer.templateVariables.contains(name) {
                segments.append(.answer(name))
            } else {
                throw .unknownTemplateVariable(name)
            }
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { segments.append(.literal(String(rest))) }
        self.key = key
        self.segments = segments
        if segments.isEmpty {
            self.constant = ""
        } else if segments.count == 1, case .literal(let value) = segments[0] {
            self.constant = value
        } else {
            self.constant = nil
        }
    }

    /// The value for an answer.
    public func render(_ answer: HookAnswer) -> String {
        if let constant { return constant }
        var value = ""
        for segment in segments {
            switch segment {
            case .literal(let text): value += text
            case .answer(let name): value += answer.value(forKey: name) ?? ""
            case .storeAttribute(let name): value += answer.store?.attributes[name] ?? ""
            case .contactAttribute(let name): value += answer.contactAttributes[name] ?? ""
            }
        }
        return value
    }
}

extension Substring {
    fileprivate func range(of needle: String) -> Range<Index>? {
        let pattern = Array(needle.utf8)
        var index = startIndex
        while index < endIndex {
            if self[index...].utf8.starts(with: pattern) {
                let end = utf8.index(index, offsetBy: pattern.count)
                return index..<end
            }
            index = self.index(after: index)
        }
        return nil
    }
}
