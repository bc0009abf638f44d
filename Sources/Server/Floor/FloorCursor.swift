/// Where a reconnecting client left the stream: `?since=[EPOCH:]SEQ`, or SSE's `Last-Event-ID`.
public struct FloorCursor: Sendable, Hashable {
    /// The publisher epoch the client saw, when it sent one; without it the sequence number is
    /// trusted as this publisher's.
    public var epoch: String?
    /// The last sequence number the client applied.
    public var seq: UInt64

    /// Creates a cursor.
    public init(epoch: String? = nil, seq: UInt64) {
        self.epoch = epoch
        self.seq = seq
    }

    /// Parses `SEQ` or `EPOCH:SEQ`; `nil` for anything else (the client then gets a snapshot).
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let last = parts.last, let seq = UInt64(last) else { return nil }
        self.seq = seq
        self.epoch = parts.count == 2 ? String(parts[0]) : nil
        if epoch?.isEmpty == true { return nil }
    }
}
