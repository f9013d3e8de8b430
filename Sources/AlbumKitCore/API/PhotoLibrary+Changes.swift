extension PhotoLibrary {
    /// The library's changes from now on — assets and albums inserted, removed and changed, by
    /// identifier — whoever made them: this app, the user in Photos, another process saving into
    /// the same catalog. Each element says what changed since the one before; nothing that happened
    /// before the call is reported. Iterate in a task and cancel it (or stop iterating) to stop.
    ///
    /// How each library knows:
    /// - **Photos** tells AlbumKit of every change (`PHPhotoLibraryChangeObserver`; read-write or
    ///   limited access needed, else the sequence throws `.accessDenied`).
    /// - **The in-memory library** reports each change as it happens.
    /// - **A catalog** follows its journal, where every process records each change: its length is
    ///   looked at every 0.1 s and the new records are read, so another process's save arrives
    ///   within a fraction of a second and nothing is listed (`interval` only caps the 0.1 s).
    /// - **A folder library** is told by the kernel (inotify on Linux) when a file or folder under
    ///   it changes, whoever changed it, and is then read and compared. Where the kernel cannot tell
    ///   (other systems, a network or FUSE file system, too many folders for the watch limit) it is
    ///   read every `interval` instead.
    /// - **A shared library** is read every `interval` and compared, so another machine's change
    ///   arrives within one interval; reading lists every album and asset, so choose the interval by
    ///   the library's size.
    ///
    /// ```swift
    /// let watching = Task {
    ///     for try await change in library.changes() {
    ///         if change.changedAlbumIDs.contains(albumID) { await reloadAlbum() }
    ///     }
    /// }
    /// // later: watching.cancel()
    /// ```
    /// - Throws: (from the sequence) what opening or reading the library threw.
    public func changes(interval: Duration = .seconds(1)) -> AsyncThrowingStream<LibraryChange, any Error> {
        changes(interval: interval, started: {})
    }

    /// As ``changes(interval:)``, calling `started` once every change made from then on is sure to
    /// be reported (``ChangeFeed/changes(polling:started:)``): what a caller that reads the library
    /// itself as a starting point needs to read again after, to miss nothing in between.
    ///
    /// ```swift
    /// let changes = library.changes(interval: .seconds(1), started: { readAgain.yield() })
    /// ```
    package func changes(interval: Duration, started: @escaping @Sendable () -> Void)
        -> AsyncThrowingStream<LibraryChange, any Error>
    {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: LibraryChange.self)
        let opening = self.opening
        let task = Task {
            do {
                let backend = try await opening.backend()
                let changes: AsyncThrowingStream<LibraryChange, any Error>
                if let feed = backend as? any ChangeFeed {
                    changes = feed.changes(polling: interval, started: started)
                } else if let browsing = backend as? any AlbumBrowsing {
                    changes = browsing.polledChanges(every: interval, started: started)
                } else {
                    throw AlbumError(.notSupported, "This library cannot list its albums.")
                }
                for try await change in changes { continuation.yield(change) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: AlbumError.wrap(error))
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// What the library's changes touch from now on (``LibraryTouch``): the albums whose listing may
    /// have changed and how many assets changed, without saying how. A catalog tells it from its
    /// journal's records alone, so following it holds nothing of the library in memory and reads
    /// nothing of it first (``changes(interval:)`` on a catalog keeps every asset's and
    /// membership's identifier); the other kinds tell it from their changes.
    ///
    /// ```swift
    /// for try await touch in library.touches() where touch.albumIDs.contains(albumID) { await reload() }
    /// ```
    package func touches(interval: Duration = .seconds(1)) -> AsyncThrowingStream<LibraryTouch, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: LibraryTouch.self)
        let opening = self.opening
        let task = Task {
            do {
                let backend = try await opening.backend()
                let touches =
                    (backend as? any TouchFeed)?.touches(polling: interval)
                    ?? LibraryTouch.touches(of: changes(interval: interval))
                for try await touch in touches { continuation.yield(touch) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: AlbumError.wrap(error))
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
