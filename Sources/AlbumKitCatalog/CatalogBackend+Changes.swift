import AlbumKitCore
import Foundation

/// A catalog library's changes, from its journal: every change any process makes is a record
/// appended there (``LibraryJournal``), so following the journal's tail tells them all, in order,
/// without listing the library. The journal's length is looked at every 0.1 s (one `stat`); the
/// records that arrived are read and turned into changes by ``JournalChangeTracker``, which reads
/// the albums, the assets and what holds what from the index once, when watching starts, a chunk
/// at a time (``followingChunk`` rows under the index's lock at once) — or, for what they touch
/// (``touches(polling:)``), told from the records alone.
///
/// A read-only catalog (whose index does not follow the journal), or a journal that is replaced
/// or shrinks while it is followed, is watched by reading the library every `interval` instead.
extension CatalogBackend: ChangeFeed, TouchFeed {
    /// How often the journal's length is looked at.
    static var journalCheck: Duration { .milliseconds(100) }

    package func changes(polling interval: Duration) -> AsyncThrowingStream<LibraryChange, any Error> {
        changes(polling: interval, started: {})
    }

    /// `started` once the index's position and state are read (or, read-only, the poller's first
    /// reading): the records after that position are what is reported.
    package func changes(polling interval: Duration, started: @escaping @Sendable () -> Void)
        -> AsyncThrowingStream<LibraryChange, any Error>
    {
        let poller = LibraryChangePoller(backend: self, interval: interval)
        guard !isReadOnly else { return poller.changes(started: started) }
        return followJournal(
            every: interval,
            from: {
                let start = try await self.startFollowingJournal()
                started()
                return start
            },
            turn: { tracker, records in
                let change = tracker.change(for: records)
                return change.isEmpty ? nil : change
            },
            otherwise: { poller.changes() })
    }

    /// What the journal's records touch, told from the records alone: nothing of the library is
    /// read when following starts (``changes(polling:)`` reads every asset and membership, seconds
    /// and a hundred megabytes at a million photos). A record naming an album touches it; a
    /// deletion or restoration touches the albums the index says hold its assets (none once they
    /// are purged: a permanent deletion names no album, and a share link's guest is not told of it).
    package func touches(polling interval: Duration) -> AsyncThrowingStream<LibraryTouch, any Error> {
        let poller = LibraryChangePoller(backend: self, interval: interval)
        guard !isReadOnly else { return LibraryTouch.touches(of: poller.changes()) }
        return followJournal(
            every: interval,
            from: { try await self.startTouching() },
            turn: { _, records in
                let touch = try await Blocking.run { try self.touch(of: records) }
                return touch.isEmpty ? nil : touch
            },
            otherwise: { LibraryTouch.touches(of: poller.changes()) })
    }

    /// The journal's id and the position the index is at: where following what changes touch starts.
    private func startTouching() async throws -> ((), String, Int64) {
        let journalID: String
        do { journalID = try journal.identity().id } catch { throw error.libraryError("read the journal") }
        let start = try await Blocking.run {
            try self.withIndex("watch the library") { try $0.index!.position() }
        }
        return ((), journalID, start)
    }

    /// What `records` touch (``touches(polling:)``).
    func touch(of records: [CatalogChange]) throws -> LibraryTouch {
        var touch = LibraryTouch()
        var named: Set<String> = []
        var held: [String] = []
        func album(_ id: String) { if named.insert(id).inserted { touch.albumIDs.append(id) } }
        for record in records {
            switch record {
            case .save, .setCompanions:
                touch.assets += 1
            case .createAlbum(let id, _, _), .renameAlbum(let id, _), .deleteAlbum(let id):
                album(id)
            case .addToAlbum(let id, _, _), .removeFromAlbum(let id, _):
                album(id)
            case .deleteAssets(let ids, _), .restoreAssets(let ids):
                touch.assets += ids.count
                held += ids
            case .purgeAssets, .rememberAlbum, .acknowledgeDamage:
                break  // nothing a listing shows
            }
        }
        guard !held.isEmpty else { return touch }
        // The albums holding the deleted or restored assets, a few hundred identifiers at a time.
        let unique = Array(Set(held)).sorted()
        var start = 0
        while start < unique.count {
            let part = Array(unique[start..<min(start + 500, unique.count)])
            start += part.count
            let albums = try withIndex("watch the library") { connection in
                try connection.index!.db.rows(
                    "SELECT DISTINCT album_id FROM album_asset WHERE asset_id IN ("
                        + Array(repeating: "?", count: part.count).joined(separator: ",") + ") ORDER BY album_id",
                    part.map { .text($0) }
                ).compactMap { $0.text(0) }
            }
            albums.forEach(album)
        }
        return touch
    }

    /// Follows the journal's tail from the position `start` returns with its state, turning each
    /// batch of records that arrived into an element (none when `turn` says nothing changed). A
    /// journal replaced or cut short under it ends following: what changed in between cannot be
    /// told from records, so the elements come from `otherwise` (comparing listings) from then on.
    private func followJournal<State: Sendable, Element: Sendable>(
        every interval: Duration,
        from start: @escaping @Sendable () async throws -> (State, String, Int64),
        turn: @escaping @Sendable (inout State, [CatalogChange]) async throws -> Element?,
        otherwise: @escaping @Sendable () -> AsyncThrowingStream<Element, any Error>
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self)
        let task = Task {
            do {
                var (state, journalID, position) = try await start()
                while !Task.isCancelled {
                    try await Task.sleep(for: min(Self.journalCheck, interval))
                    let length = journal.length()
                    guard length != position else { continue }
                    let from = position
                    let reading = length > from ? try await Blocking.run { try self.readJournal(from: from) } : nil
                    guard let reading, reading.id == journalID, reading.end >= position else {
                        for try await element in otherwise() { continuation.yield(element) }
                        break
                    }
                    position = reading.end
                    if let element = try await turn(&state, reading.entries.map(\.change)) {
                        continuation.yield(element)
                    }
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

    /// The journal's records from `position` on.
    private func readJournal(from position: Int64) throws -> LibraryJournal.Reading {
        do { return try journal.read(from: position) } catch { throw error.libraryError("read the journal") }
    }

    /// Rows read from the index at a time when following starts: the index's lock is let go
    /// between two reads, so pages and saves are not held up while a large library is read (at
    /// 1 000 000 photos the whole read took seconds).
    static var followingChunk: Int { 20_000 }

    /// The library as the index holds it, the journal's id and the position that state stands for.
    ///
    /// The state is read a chunk at a time, each under the index's lock for a moment only, from
    /// the journal position `start` the index was at when the reading began. Records appended
    /// meanwhile may be in some chunks and not others; every record from `start` on is then applied
    /// again, without being reported: each sets what it touches to a state of its own (saved,
    /// deleted, restored, in an album or not), so applying it again where it already was changes
    /// nothing, and the state ends as the journal's records up to the returned position make it.
    private func startFollowingJournal() async throws -> (JournalChangeTracker, String, Int64) {
        let journalID: String
        do { journalID = try journal.identity().id } catch { throw error.libraryError("read the journal") }
        let chunk = Self.followingChunk
        var tracker = JournalChangeTracker()
        let (start, albums) = try await Blocking.run {
            try self.withIndex("watch the library") { connection in
                let index = connection.index!
                return (try index.position(), try index.db.rows("SELECT id FROM album").compactMap { $0.text(0) })
            }
        }
        tracker.albums = Set(albums)
        var lastRow: Int64 = 0
        while true {
            let after = lastRow
            let rows = try await Blocking.run {
                try self.withIndex("watch the library") { connection in
                    try connection.index!.db.rows(
                        "SELECT rowid, id, state FROM asset WHERE rowid > ? ORDER BY rowid LIMIT ?",
                        [.integer(after), .integer(Int64(chunk))]
                    ).map { ($0.integer(0) ?? 0, $0.text(1), $0.text(2) == "deleted") }
                }
            }
            for (_, id, deleted) in rows {
                guard let id else { continue }
                if deleted { tracker.deleted.insert(TrackedID(id)) } else { tracker.listed.insert(TrackedID(id)) }
            }
            guard rows.count == chunk, let last = rows.last?.0 else { break }
            lastRow = last
        }
        var lastMember: (album: String, asset: String)?
        while true {
            let after = lastMember
            let rows = try await Blocking.run {
                try self.withIndex("watch the library") { connection in
                    let db = connection.index!.db
                    let found =
                        try after.map {
                            try db.rows(
                                "SELECT album_id, asset_id FROM album_asset WHERE (album_id, asset_id) > (?, ?) ORDER BY album_id, asset_id LIMIT ?",
                                [.text($0.album), .text($0.asset), .integer(Int64(chunk))])
                        }
                        ?? db.rows(
                            "SELECT album_id, asset_id FROM album_asset ORDER BY album_id, asset_id LIMIT ?",
                            [.integer(Int64(chunk))])
                    return found.compactMap { row in row.text(0).flatMap { album in row.text(1).map { (album, $0) } } }
                }
            }
            for (album, asset) in rows { tracker.members[album, default: []].insert(TrackedID(asset)) }
            guard rows.count == chunk, let last = rows.last else { break }
            lastMember = last
        }
        // What changed while the chunks were read, applied again (not reported).
        var position = start
        while journal.length() > position {
            let from = position
            let reading = try await Blocking.run { try self.readJournal(from: from) }
            guard reading.id == journalID, reading.end > position else { break }
            _ = tracker.change(for: reading.entries.map(\.change))
            position = reading.end
        }
        return (tracker, journalID, position)
    }
}
