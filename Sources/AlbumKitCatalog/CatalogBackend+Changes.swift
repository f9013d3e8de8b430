import AlbumKitCore
import Foundation

/// A catalog library's changes, from its journal: every change any process makes is a record
/// appended there (``LibraryJournal``), so following the journal's tail tells them all, in order,
/// without listing the library. The journal's length is looked at every 0.1 s (one `stat`); the
/// records that arrived are read and turned into changes by ``JournalChangeTracker``, which reads
/// the albums, the assets and what holds what from the index once, when watching starts, a chunk
/// at a time (``followingChunk`` rows under the index's lock at once).
///
/// A read-only catalog (whose index does not follow the journal), or a journal that is replaced
/// or shrinks while it is followed, is watched by reading the library every `interval` instead.
extension CatalogBackend: ChangeFeed {
    /// How often the journal's length is looked at.
    static var journalCheck: Duration { .milliseconds(100) }

    package func changes(polling interval: Duration) -> AsyncThrowingStream<LibraryChange, any Error> {
        guard !isReadOnly else { return LibraryChangePoller(backend: self, interval: interval).changes() }
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: LibraryChange.self)
        let task = Task {
            do {
                var (tracker, journalID, position) = try await startFollowingJournal()
                while !Task.isCancelled {
                    try await Task.sleep(for: min(Self.journalCheck, interval))
                    let length = journal.length()
                    guard length != position else { continue }
                    let from = position
                    let reading = length > from ? try await Blocking.run { try self.readJournal(from: from) } : nil
                    guard let reading, reading.id == journalID, reading.end >= position else {
                        // Replaced or cut short under us: what changed in between cannot be told
                        // from records, so compare listings from now on.
                        for try await change in LibraryChangePoller(backend: self, interval: interval).changes() {
                            continuation.yield(change)
                        }
                        break
                    }
                    let change = tracker.change(for: reading.entries.map(\.change))
                    position = reading.end
                    if !change.isEmpty { continuation.yield(change) }
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
