import Foundation

/// The `*.yaml` / `*.yml` files of a `flows/` directory: listing, change detection and reading.
struct FlowDirectory: Sendable {
    /// One file as seen by `stat`: a change of any field is a change of the set.
    struct Entry: Hashable, Sendable {
        var name: String
        var size: UInt64
        var modified: Date
    }

    /// The directory.
    let path: String

    /// The flow files, sorted by name (hidden files and other extensions ignored).
    ///
    /// - Throws: ``FlowDirectoryError`` when the directory cannot be listed.
    func entries() throws(FlowDirectoryError) -> [Entry] {
        let manager = FileManager.default
        let names: [String]
        do {
            names = try manager.contentsOfDirectory(atPath: path)
        } catch {
            throw FlowDirectoryError("cannot list flows directory \(path): \(error.localizedDescription)")
        }
        var entries: [Entry] = []
        for name in names.sorted() where !name.hasPrefix(".") && (name.hasSuffix(".yaml") || name.hasSuffix(".yml")) {
            guard let attributes = try? manager.attributesOfItem(atPath: filePath(name)),
                attributes[.type] as? FileAttributeType != .typeDirectory
            else { continue }
            entries.append(
                Entry(
                    name: name,
                    size: (attributes[.size] as? NSNumber)?.uint64Value ?? 0,
                    modified: attributes[.modificationDate] as? Date ?? .distantPast
                ))
        }
        return entries
    }

    /// The text of the files, named `path/name` for error messages.
    ///
    /// - Throws: ``FlowDirectoryError`` when a file cannot be read or is not UTF-8.
    func read(_ entries: [Entry]) throws(FlowDirectoryError) -> [(name: String, text: String)] {
        var files: [(name: String, text: String)] = []
        for entry in entries {
            let name = filePath(entry.name)
            guard let data = FileManager.default.contents(atPath: name) else {
                throw FlowDirectoryError("cannot read \(name)")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw FlowDirectoryError("\(name) is not UTF-8 text; fix: save it as UTF-8")
            }
            files.append((name, text))
        }
        return files
    }

    private func filePath(_ name: String) -> String {
        path.hasSuffix("/") ? path + name : path + "/" + name
    }
}

/// A `flows/` directory that cannot be listed or read.
struct FlowDirectoryError: Error, Hashable, Sendable, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}
