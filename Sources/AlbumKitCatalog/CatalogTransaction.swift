import AlbumKitCore
import Foundation

/// One change being recorded, under the journal's lock with the index up to date
/// (``CatalogBackend/withTransaction(_:_:)``): the changes are decided through ``recorder`` (each
/// applied to the index at once, inside one SQLite transaction), then appended to the journal
/// and flushed (``appendAndFlush()``: the commit point), then the index's transaction commits
/// (``commitIndex()``, without a flush: the index only mirrors the journal).
///
/// ```swift
/// try backend.withTransaction("create the album") { transaction in
///     try transaction.recorder.record(.createAlbum(…))
///     try transaction.appendAndFlush()   // durable here
///     transaction.commitIndex()
/// }
/// ```
///
/// Anything that fails before ``appendAndFlush()`` has returned leaves nothing behind: the journal
/// is cut back where it ended and the index's transaction rolls back.
final class CatalogTransaction {
    /// Where the change's records are decided and applied to the index.
    let recorder: ChangeRecorder
    /// The records are durable: appended and flushed (or there were none).
    private(set) var isDurable = false
    /// The index's transaction has committed (or tried to).
    private(set) var isIndexCommitted = false
    /// The index holds as many records since its last snapshot as make a new one due.
    private(set) var isSnapshotDue = false

    private let what: String
    private let journal: LibraryJournal
    private let journalFile: FileSystem.Descriptor
    /// Where the journal ended when the lock was taken: where the records go.
    private let end: Int64
    /// The journal's digest up to ``end``.
    private let digest: JournalDigest
    private let snapshotInterval: Int
    /// The records' lines, once ``encodeRecords()`` has made them.
    private var lines: [UInt8]?

    init(
        _ what: String, recorder: ChangeRecorder, journal: LibraryJournal, journalFile: FileSystem.Descriptor,
        end: Int64, digest: JournalDigest, snapshotInterval: Int
    ) {
        self.what = what
        self.recorder = recorder
        self.journal = journal
        self.journalFile = journalFile
        self.end = end
        self.digest = digest
        self.snapshotInterval = snapshotInterval
    }

    private var index: CatalogIndex { recorder.index }

    /// Turns the decided records into the journal's lines and moves the index's position past
    /// them, inside its transaction (a failed append rolls it back): after the append only the
    /// `COMMIT` is left. A save calls it while its files are still being flushed; otherwise
    /// ``appendAndFlush()`` does.
    func encodeRecords() {
        guard lines == nil, !recorder.changes.isEmpty else { return }
        var bytes: [UInt8] = []
        var lastLine: [UInt8] = []
        for change in recorder.changes {
            lastLine = LibraryJournal.line(for: change)
            bytes += lastLine
        }
        lines = bytes
        // The index only mirrors the journal: a position or note that fails leaves it behind, and
        // its next use replays from its position (applying is idempotent).
        var digest = self.digest
        digest.update(bytes)
        let newEnd = end + Int64(bytes.count)
        // Dropped: the index is left behind its journal and catches up at its next use.
        try? index.setPosition(
            newEnd, applied: recorder.changes.count, digest: digest,
            lastLine: (newEnd - Int64(lastLine.count), JournalDigest(of: lastLine)))
        // Dropped: without the note, the next opening checks the journal file in full again.
        try? index.noteJournalFile(of: journal)
        // Read in this transaction, not in another one after it (a save's critical path);
        // unreadable: not due now, the next change asks again.
        isSnapshotDue = (try? index.isSnapshotDue(every: snapshotInterval)) ?? false
    }

    /// Appends the records to the journal and flushes it (`fdatasync`): **the commit point**. From
    /// here on the change stands, whatever happens to the index. No records: nothing is written.
    ///
    /// - Throws: when the append or the flush fails; the journal is then cut back to where it
    ///   ended (this process holds its lock, so no one appended after), and the change is nowhere.
    func appendAndFlush() throws {
        encodeRecords()
        if let lines {
            do {
                try FileSystem.write(journalFile, lines)
                try FileSystem.flushData(journalFile)
            } catch {
                let failure = AlbumError.library(error, what, path: journal.path)
                do throws(SystemError) { try FileSystem.truncate(journalFile, to: end) } catch {
                    // The record may stay and be read back: the change may show, its files gone.
                    throw failure.appending(
                        "The journal \(journal.path) could not be cut back either (\(error)), so this change may still show; `album verify` then lists what it lacks."
                    )
                }
                throw failure
            }
        }
        isDurable = true
    }

    /// Commits the index's transaction, without a flush. A commit that fails (the index's disk
    /// full, say) rolls back and leaves the index behind the journal: its next use catches up.
    /// The change is saved either way.
    func commitIndex() {
        precondition(isDurable, "The index commits only what the journal holds.")
        guard !isIndexCommitted else { return }
        isIndexCommitted = true
        // Dropped: the journal holds the change, and the index's next use replays it.
        if (try? index.db.execute("COMMIT")) == nil {
            // Rolled back so that the next change can begin its own transaction (as above).
            _ = try? index.db.execute("ROLLBACK")
        }
    }
}
