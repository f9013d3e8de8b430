/// Changes of a library that cannot tell them itself, found by reading the library every
/// `interval` and comparing (``LibrarySnapshot``). The first reading is the starting point and is
/// not reported; a change made between two readings arrives within one `interval`.
///
/// Reading costs a listing of every album and asset, so the interval bounds the cost; it stops when
/// the consumer stops iterating.
package struct LibraryChangePoller<Backend: PhotoLibraryBackend>: Sendable {
    package let backend: Backend
    package let interval: Duration

    package init(backend: Backend, interval: Duration) {
        self.backend = backend
        self.interval = interval
    }

    /// The changes, until the consumer stops or a reading fails (the stream then throws it).
    package func changes() -> AsyncThrowingStream<LibraryChange, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: LibraryChange.self)
        let poller = self
        let task = Task {
            do {
                var last = try await LibrarySnapshot.read(poller.backend)
                while !Task.isCancelled {
                    try await Task.sleep(for: poller.interval)
                    let now = try await LibrarySnapshot.read(poller.backend)
                    let change = last.changes(to: now)
                    if !change.isEmpty { continuation.yield(change) }
                    last = now
                }
                continuation.finish()
            } catch is CancellationError {
                continuation.finish()
            } catch {
                continuation.finish(throwing: AlbumError.wrap(error))
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
