import Foundation

/// An album's own changes, with indexes for a collection view (``AlbumChange``).
extension Album {
    /// The album's changes as a sequence: its first element is the album now — compared with
    /// `token` (what the app saw before it stopped: the changes made meanwhile, or the album
    /// deleted), or without a token with every asset inserted — and each later one what changed
    /// since the element before: assets inserted, removed, changed or moved, with their indexes in
    /// the listing in `order` (as ``assets(orderedBy:matching:after:limit:)`` sorts it).
    ///
    /// It follows ``PhotoLibrary/changes(interval:)`` (whoever changes the library: this app, the
    /// user in Photos, another process) and lists the album again when the library changes; the
    /// two listings are compared the same way for every kind of library. An album named by title
    /// that does not exist yet is listed as empty until a save creates it; a deleted one is
    /// reported (``AlbumChange/isAlbumDeleted``) and, once a save recreates it, its assets come as
    /// inserted. Iterate in a task and cancel it (or stop iterating) to stop.
    ///
    /// ```swift
    /// let token = try? AlbumChangeToken(data: Data(contentsOf: tokenURL))
    /// for try await change in album.changes(orderedBy: .dateAdded, since: token) {
    ///     if change.isAlbumDeleted { print("the album was deleted") }
    ///     print("+\(change.insertedIndexes) -\(change.removedIndexes) ~\(change.changedIndexes)")
    ///     try change.token.data.write(to: tokenURL)
    /// }
    /// ```
    /// - Throws: (from the sequence) `.invalidArgument` for a token made in another order; what
    ///   opening, watching or listing the library threw (`.accessDenied` without read access to Photos).
    public func changes(
        orderedBy order: AssetOrder = .dateAdded, since token: AlbumChangeToken? = nil,
        interval: Duration = .seconds(1)
    ) -> AsyncThrowingStream<AlbumChange, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: AlbumChange.self)
        let album = self
        let task = Task {
            if token == nil || token?.order == order,
                // A library that cannot open fails the listing below, with its error.
                let source = try? await album.library.backend as? any AlbumChangeSource
            {
                // The library describes the album's changes itself (Photos).
                do {
                    let changes = source.albumChanges(orderedBy: order, since: token) { last in
                        try await album.currentAlbumID(after: last)
                    }
                    for try await change in changes { continuation.yield(change) }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: AlbumError.wrap(error))
                }
                return
            }
            // Every library change asks for one more listing; changes arriving during a listing
            // are covered by a single next one. The library starts following a little after the
            // first listing: one more listing once it follows catches a change made in between.
            let (triggers, trigger) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let watcher = Task {
                do {
                    for try await _ in album.library.changes(interval: interval, started: { trigger.yield() }) {
                        trigger.yield()
                    }
                } catch {
                    continuation.finish(throwing: AlbumError.wrap(error))
                }
                trigger.finish()
            }
            defer { watcher.cancel() }
            do {
                if let token, token.order != order {
                    throw AlbumError(
                        .invalidArgument,
                        "The change token was made for a listing by \(token.order.rawValue), not by \(order.rawValue).")
                }
                var last = token ?? AlbumChangeToken(albumID: nil, order: order, assets: [])
                let first = try await album.change(since: last, order: order)
                continuation.yield(first)
                last = first.token
                for await _ in triggers {
                    try Task.checkCancellation()
                    let next = try await album.change(since: last, order: order)
                    guard !next.isEmpty || next.albumID != last.albumID else { continue }
                    continuation.yield(next)
                    last = next.token
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

    /// The album listed now, compared with `last`. The album listed before is followed while it
    /// exists (renamed or not); else the album the title resolves to, as saves resolve it.
    package func change(since last: AlbumChangeToken, order: AssetOrder) async throws -> AlbumChange {
        var id = try await currentAlbumID(after: last)
        var assets: [AssetInfo] = []
        if let found = id {
            do {
                assets = AssetCursor.sorted(try await library.assets(inAlbumWithID: found), in: order)
            } catch let error as AlbumError where error.code == .albumNotFound {
                id = nil  // deleted between the look-up and the listing
            }
        }
        return AlbumListingDiff.change(from: last, to: assets, albumID: id, order: order)
    }

    /// The album's identifier now, for a change stream whose last listing was `last`: the album it
    /// was named by while it exists; else the album listed before while it exists (renamed or
    /// not); else the album the title resolves to, as saves resolve it; `nil` when none does.
    package func currentAlbumID(after last: AlbumChangeToken) async throws -> String? {
        if let boundID { return try await exists(boundID) ? boundID : nil }
        if let previous = last.albumID, try await exists(previous) {
            learnt.withLock { $0 = previous }
            return previous
        }
        do { return try await resolvedID() } catch let error as AlbumError where error.code == .albumNotFound {
            return nil
        }
    }

    /// Whether the album with identifier `id` exists now.
    private func exists(_ id: String) async throws -> Bool {
        do {
            _ = try await library.albumInfo(withID: id)
            return true
        } catch let error as AlbumError where error.code == .albumNotFound {
            return false
        }
    }
}
