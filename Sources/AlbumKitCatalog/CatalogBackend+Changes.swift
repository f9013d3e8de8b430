import AlbumKitCore
import Foundation

/// A catalog library's changes, from its journal: every change any process makes is a record
/// appended there (``LibraryJournal``), so following the journal's tail tells them all, in order,
/// without listing the library. The journal's length is looked at every 0.1 s (one `stat`); the
/// records that arrived are read and turned into changes by ``JournalChangeTracker``, which reads
/// the albums, the assets and what holds what from the index once, when watching starts.
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
                var (tracker, journalID, position) = try await Blocking.run { try self.startFollowingJournal() }
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

    /// The library as the index holds it once it has caught up with the journal, the journal's
    /// id and the position that state stands for.
    private func startFollowingJournal() throws -> (JournalChangeTracker, String, Int64) {
        let journalID: String
        do { journalID = try journal.identity().id } catch { throw error.libraryError("read the journal") }
        return try withIndex("watch the library") { connection in
            let index = connection.index!
            let position = try index.position()
            var tracker = JournalChangeTracker(listed: [], deleted: [], albums: [], albumsOfAsset: [:])
            for row in try index.db.rows("SELECT id, state FROM asset") {
                guard let id = row.text(0) else { continue }
                if row.text(1) == "deleted" { tracker.deleted.insert(id) } else { tracker.listed.insert(id) }
            }
            tracker.albums = Set(try index.db.rows("SELECT id FROM album").compactMap { $0.text(0) })
            for row in try index.db.rows("SELECT asset_id, album_id FROM album_asset") {
                if let asset = row.text(0), let album = row.text(1) {
                    tracker.albumsOfAsset[asset, default: []].insert(album)
                }
            }
            return (tracker, journalID, position)
        }
    }
}
