#if canImport(Testing)
    import AlbumKitCore
    import AlbumKitMedia
    import Testing

    /// Collects a change stream's elements as they come (one consumer, never cancelled midway, so the
    /// stream lives as long as the test wants it), for waiting on a change with a time limit.
    ///
    /// ```
    /// let collector = ChangeCollector(library.changes(interval: .seconds(60)))
    /// let change = await collector.wait(limit: .seconds(10)) { !$0.insertedAssetIDs.isEmpty }
    /// ```
    public final class ChangeCollector: Sendable {
        private let changes = Locked<[LibraryChange]>([])
        /// Every change collected, waited for or not.
        private let history = Locked<[LibraryChange]>([])
        private let task: Task<Void, Never>

        public init(_ stream: AsyncThrowingStream<LibraryChange, any Error>) {
            let changes = self.changes
            let history = self.history
            task = Task {
                do {
                    for try await change in stream {
                        history.withLock { $0.append(change) }
                        changes.withLock { $0.append(change) }
                    }
                } catch {
                    Issue.record("the change stream failed: \(error)")
                }
            }
        }

        /// The first change collected (since the last one returned) that `matches`, waiting at most
        /// `limit`; `nil` when none came.
        public func wait(limit: Duration, _ matches: (LibraryChange) -> Bool) async -> LibraryChange? {
            let started = ContinuousClock.now
            while ContinuousClock.now - started < limit {
                let found = changes.withLock { changes -> LibraryChange? in
                    guard let index = changes.firstIndex(where: matches) else { return nil }
                    let change = changes[index]
                    changes.removeFirst(index + 1)
                    return change
                }
                if let found { return found }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return nil
        }

        /// Every change collected so far, in order, whether or not ``wait(limit:_:)`` returned it.
        public func all() -> [LibraryChange] { history.withLock { $0 } }

        /// Stops collecting.
        public func stop() { task.cancel() }
    }
#endif
