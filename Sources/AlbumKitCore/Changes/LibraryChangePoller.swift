/// Changes of a library that cannot tell them itself, found by reading the library and comparing
/// (``LibrarySnapshot``). The first reading is the starting point and is not reported.
///
/// Without a watch the library is read every `interval`, so a change arrives within one interval
/// and each interval costs a listing of every album and asset. With a watch (``LibraryWatch``: the
/// kernel telling of file changes) the watch is asked every ``watchCheck`` and the library read
/// only when it says something changed; when the watch cannot be opened, or breaks (events lost),
/// the poller reads every `interval` from then on. It stops when the consumer stops iterating.
package struct LibraryChangePoller<Backend: AlbumBrowsing>: Sendable {
    package let backend: Backend
    package let interval: Duration
    /// Opens the watch, in the polling task (`nil`: read every interval).
    package let watch: (@Sendable () throws -> any LibraryWatch)?
    /// How often a watch is asked.
    package static var watchCheck: Duration { .milliseconds(100) }
    /// How many times the starting point is read while changes overlap its reading.
    static var startingReadings: Int { 5 }

    package init(
        backend: Backend, interval: Duration, watch: (@Sendable () throws -> any LibraryWatch)? = nil
    ) {
        self.backend = backend
        self.interval = interval
        self.watch = watch
    }

    /// The changes, until the consumer stops or a reading fails (the stream then throws it);
    /// `started` is called once the starting point is read: every change made after it is reported.
    package func changes(started: @escaping @Sendable () -> Void = {}) -> AsyncThrowingStream<LibraryChange, any Error>
    {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: LibraryChange.self)
        let poller = self
        let task = Task {
            do {
                // Opened before the first reading: nothing between the two goes unseen.
                // A watch that cannot be opened (no inotify, a network file system) leaves reading
                // on a timer, which sees the same changes later.
                var watch = try? poller.watch?()
                var last = try await LibrarySnapshot.read(poller.backend)
                // The starting point is never reported, so it must not hold part of a change (a
                // save's new album read before its folder was made, its photo read after): while
                // the watch saw something change during the reading, read again (a few times: a
                // library that never stops changing starts from the last reading).
                for _ in 0..<Self.startingReadings where watch != nil {
                    let changed: Bool
                    do { changed = try watch?.takeEvents() ?? false } catch {
                        watch = nil  // events were lost: read again, and on a timer from now on
                        changed = true
                    }
                    guard changed else { break }
                    last = try await LibrarySnapshot.read(poller.backend)
                }
                started()
                while !Task.isCancelled {
                    if let current = watch {
                        try await Task.sleep(for: min(Self.watchCheck, poller.interval))
                        do {
                            guard try current.takeEvents() else { continue }
                        } catch {
                            watch = nil  // events were lost: read now, and on a timer from now on
                        }
                    } else {
                        try await Task.sleep(for: poller.interval)
                    }
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
