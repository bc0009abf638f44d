/// An error of the storage adapter.
public struct StorageError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        /// The configuration (URL, settings) is invalid.
        public static let configuration = Code(name: "configuration")
        /// A migration failed; the database is left at the previous version.
        public static let migration = Code(name: "migration")
        /// Another worker now owns the partition: the transaction was rolled back.
        public static let fenced = Code(name: "fenced")
        /// An operation did not finish within its deadline.
        public static let timeout = Code(name: "timeout")
        /// The requested row does not exist.
        public static let notFound = Code(name: "notFound")
        /// A batch's offsets are stored already: an earlier attempt committed it.
        public static let alreadyWritten = Code(name: "alreadyWritten")
        /// The connection closed before a statement could be sent.
        public static let connectionClosed = Code(name: "connectionClosed")

        public var description: String { name }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What happened, for people.
    public var message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "StorageError.\(code): \(message)" }
}
