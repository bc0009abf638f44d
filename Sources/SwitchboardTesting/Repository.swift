import Foundation

/// Paths of this repository, for tests that read its shipped files.
public enum Repository {
    /// The repository's root folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The shipped `flows/`.
    public static let flowsDirectory = root.appendingPathComponent("flows").path
}
