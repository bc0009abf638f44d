import PostgresNIO

extension PostgresClient {
    /// Runs the client in a child task of `group` and returns once that task has started
    /// `run()`, so the caller's first lease never comes before it.
    ///
    /// A lease before `run()` makes postgres-nio log "Trying to lease connection from
    /// `PostgresClient`, but `PostgresClient.run()` hasn't been called yet" (the lease waits for
    /// it). `run()` marks the client running before its first suspension point; the child signals
    /// just before calling it, and the caller yields once more after the signal.
    ///
    /// - Parameter group: The task group that owns the client's `run()`; cancelling the group
    ///   shuts the client down.
    public func start(in group: inout ThrowingTaskGroup<Void, any Error>) async {
        let (started, signal) = AsyncStream<Void>.makeStream()
        group.addTask {
            signal.finish()
            await self.run()
        }
        for await _ in started {}
        await Task.yield()
    }
}
