import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `*.yaml` / `*.yml` files of a `flows/` directory: listing, change detection and reading.
///
/// Files are `stat`ed through symbolic links: a Kubernetes ConfigMap volume publishes an update
/// by swapping its `..data` link to a new directory while every `name.yaml` link stays the
/// same, so the change shows only in the file the links lead to (a new inode).
struct FlowDirectory: Sendable {
    /// One file as seen by `stat`: a change of any field is a change of the set.
    struct Entry: Hashable, Sendable {
        var name: String
        var size: UInt64
        var modifiedNanoseconds: Int64
        var device: UInt64
        var inode: UInt64
    }

    /// The directory.
    let path: String

    /// The flow files, sorted by name (hidden files and other extensions ignored).
    ///
    /// - Throws: ``FlowDirectoryError`` when the directory cannot be listed.
    func entries() throws(FlowDirectoryError) -> [Entry] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw FlowDirectoryError("cannot list flows directory \(path): \(error.localizedDescription)")
        }
        var entries: [Entry] = []
        for name in names.sorted() where !name.hasPrefix(".") && (name.hasSuffix(".yaml") || name.hasSuffix(".yml")) {
            var status = stat()
            // `stat`, not `lstat`: follow links to the file itself. A link to nothing is an error
            // (the reload is refused and the last good set keeps serving), not a missing file.
            guard stat(filePath(name), &status) == 0 else {
                throw FlowDirectoryError(
                    "cannot read \(filePath(name)): \(String(cString: strerror(errno))); fix: make it a readable file")
            }
            guard (status.st_mode & S_IFMT) == S_IFREG else { continue }
            entries.append(
                Entry(
                    name: name,
                    size: UInt64(status.st_size),
                    modifiedNanoseconds: Self.modifiedNanoseconds(status),
                    device: UInt64(status.st_dev),
                    inode: UInt64(status.st_ino)
                ))
        }
        return entries
    }

    private static func modifiedNanoseconds(_ status: stat) -> Int64 {
        #if canImport(Darwin)
            let time = status.st_mtimespec
        #else
            let time = status.st_mtim
        #endif
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
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
