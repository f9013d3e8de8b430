import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one write order and the one way the index is kept: reads bring it up to date with the
/// journal first; changes are decided, journaled (the commit point), then applied; an index that
/// cannot be used is rebuilt from the snapshot and the journal, and the command goes on.
extension CatalogBackend {
    /// Records what `decide` records, in one step: under the journal's lock, with the index up to
    /// date, `decide` reads the index and records changes (each applied to the index at once, in
    /// one transaction); once `whenDecided` returns, the records are appended to the journal and
    /// flushed — the commit point, where `whenDurable` is told what `decide` returned — and the
    /// transaction committed (without a flush). Nothing is recorded when `decide` or
    /// `whenDecided` throws.
    ///
    /// - Returns: what `decide` returned.
    func record<T>(
        _ what: String, whenDecided: () throws -> Void = {}, whenDurable: (T) -> Void = { _ in },
        _ decide: (ChangeRecorder) throws -> T
    ) throws -> T {
        guard !isReadOnly else {
            throw AlbumError(
                .libraryUnwritable, "Cannot \(what): the library \(root.path) is on read-only media or not writable.")
        }
        var snapshotDue = false
        let result: T = try withIndex(what, locked: true) { connection in
            guard let index = connection.index, let journalFile = connection.journalFile else {
                throw AlbumError(.ioFailure, "Cannot \(what): the library's index is not open.")
            }
            try index.db.execute("BEGIN IMMEDIATE")
            var committed = false
            let purgesBefore = connection.purgedFiles.count
            defer {
                if !committed {
                    // Nothing of it was journaled: the index goes back to where it was, and the
                    // purges it caught up with are applied (and their files removed) next time.
                    try? index.db.execute("ROLLBACK")
                    connection.purgedFiles.removeSubrange(purgesBefore...)
                }
            }
            // Through the descriptor that holds the lock: one journal descriptor per commit.
            let caughtUp = try index.catchUp(with: journal, through: journalFile)
            connection.purgedFiles += caughtUp.purged
            let end = try endOfRecords(journalFile, caughtUp: caughtUp.end)
            let recorder = ChangeRecorder(index: index)
            let result = try decide(recorder)
            guard !recorder.changes.isEmpty else {
                try whenDecided()
                try index.db.execute("COMMIT")
                committed = true
                whenDurable(result)
                return result
            }
            var bytes: [UInt8] = []
            for change in recorder.changes { bytes += LibraryJournal.line(for: change) }
            // The position the records take the index to, in its transaction before they are
            // appended (a failed append rolls it back); after the append, only the COMMIT is left.
            // The index only mirrors the journal: a position or COMMIT that fails leaves it behind,
            // and the next use replays from its position (applying is idempotent).
            try? index.setPosition(end + Int64(bytes.count), applied: recorder.changes.count)
            // Read in this transaction, not in another one after it (a save's critical path);
            // unreadable: not due now, the next change asks again.
            snapshotDue = (try? index.isSnapshotDue(every: snapshotInterval.withLock { $0 })) ?? false
            // What the change needs durable before it is journaled (a save's files, flushed while
            // it was decided).
            try whenDecided()
            do {
                try FileSystem.write(journalFile, bytes)
                try FileSystem.flushData(journalFile)
            } catch {
                // Never acknowledged: the journal is cut back to where it ended (this process holds
                // its lock, so no one appended after), and the transaction rolls back.
                let failure = AlbumError.library(error, what, path: journal.path)
                do throws(SystemError) { try FileSystem.truncate(journalFile, to: end) } catch {
                    // The record may stay and be read back: the change may show, its files gone.
                    throw AlbumError(
                        failure.code,
                        failure.message
                            + " The journal \(journal.path) could not be cut back either (\(error)), so this change may still show; `album verify` then lists what it lacks.",
                        file: failure.file, albumTitle: failure.albumTitle, underlying: failure.underlying)
                }
                throw failure
            }
            // Durable now: from here on the change stands, whatever happens to the index.
            whenDurable(result)
            connection.purgedFiles += recorder.purged
            // A commit that failed (the index's disk full, say) leaves the index behind the
            // journal: the next use catches up. The change is saved either way.
            _ = try? index.db.execute("COMMIT")
            committed = true
            return result
        }
        if snapshotDue { takeDueSnapshot() }
        return result
    }

    /// Where this process's records go: the journal's end after the records read, once a torn
    /// tail (an append a crash cut short) is moved to `damaged/` and cut off. Called with the
    /// journal locked.
    private func endOfRecords(_ file: FileSystem.Descriptor, caughtUp end: Int64) throws -> Int64 {
        let size = try FileSystem.size(of: file)
        guard size != end else { return end }
        guard size > end else {
            throw AlbumError(.ioFailure, "The journal \(journal.path) shrank while it was locked; try again.")
        }
        // Bytes after the last record: never acknowledged (an append is acknowledged only once it
        // is whole and flushed), kept for inspection, then cut off.
        let tail = try FileSystem.readAll(file, from: UInt64(end), size: UInt64(size))
        let folder = root.path + "/damaged/" + Self.timestamp()
        _ = try FileSystem.makeDirectory(atPath: folder)
        let kept = try FileSystem.openForAppending(folder + "/journal-tail-at-\(end)")
        defer { FileSystem.close(kept) }
        try FileSystem.write(kept, tail)
        try FileSystem.fsync(kept)
        try FileSystem.truncate(file, to: end)
        try FileSystem.flushData(file)
        return end
    }

    /// Runs `body` with the index open and up to date with the journal (for reads); `locked`
    /// also takes the journal's lock and leaves catching up to `body` (for ``record(_:whenDecided:whenDurable:_:)``). An
    /// index that turns out damaged is rebuilt and `body` runs again, once.
    func withIndex<T>(_ what: String, locked: Bool = false, _ body: (inout Connection) throws -> T) throws -> T {
        // Files of assets purged by records this call applied: removed after the connection is
        // released (removing them uses it again).
        defer {
            let purged = connection.withLock { connection in
                defer { connection.purgedFiles.removeAll() }
                return connection.purgedFiles
            }
            if !purged.isEmpty { removeFiles(purged) }
        }
        do {
            return try connection.withLock { connection in
                // Rebuilt as often as it takes for up to a minute, waiting a little longer each
                // time (at most 0.25 s): a program writing the catalog without pause (the
                // `sqlite3` shell in a loop) can damage it again while it is rebuilt, and the
                // journal, not the index, is the library, so a save never fails for the index.
                var rebuilt = 0
                var replaced = 0
                var damage: CatalogIndex.Unusable?  // why the index is to be rebuilt first
                let deadline = ContinuousClock.now + .seconds(60)
                while true {
                    do {
                        if let reason = damage {
                            // The rebuild itself may meet damage again (the new file written over
                            // before it is read): caught below like any other, and tried again.
                            damage = nil
                            if rebuilt > 0 { usleep(useconds_t(min(rebuilt * 20_000, 250_000))) }
                            rebuilt += 1
                            try rebuild(&connection, because: reason)
                        }
                        try ensureOpen(&connection)
                        if locked { try lockJournal(&connection) }
                        defer { if locked, let file = connection.journalFile { FileSystem.unlock(file) } }
                        if !locked { try freshen(&connection) }
                        return try body(&connection)
                    } catch let unusable as CatalogIndex.Unusable where ContinuousClock.now < deadline {
                        damage = unusable
                    } catch let error as SQLiteError where error.meansDamage && ContinuousClock.now < deadline {
                        damage = .init(reason: "it is damaged (\(error.message))")
                    } catch let error as SQLiteError
                        where error.meansReplaced && (replaced < 3 || ContinuousClock.now < deadline)
                    {
                        // Another process rebuilt the index and renamed it into place after this
                        // connection opened the old file: nothing was written; open the new one.
                        connection.index = nil
                        replaced += 1
                    }
                }
            }
        } catch let unusable as CatalogIndex.Unusable {
            throw AlbumError.catalogDamaged(catalogPath, detail: unusable.reason)
        } catch {
            throw AlbumError.library(error, what, path: catalogPath)
        }
    }

    /// Opens the index when it is not open, or was replaced (rebuilt by another process).
    private func ensureOpen(_ connection: inout Connection) throws {
        let file = FileSystem.fileID(atPath: catalogPath)
        if connection.index != nil, file != nil, file == connection.indexFile { return }
        connection.index = nil
        let reading: (id: String, recordsStart: Int64)
        do { reading = try journal.identity() } catch {
            if error.errno == EILSEQ {
                throw AlbumError(
                    .libraryCorrupt,
                    "The library's journal \(journal.path) is not an AlbumKit journal (its first line is damaged); nothing was changed."
                )
            }
            throw error.libraryError("read the library's journal")
        }
        if isReadOnly {
            connection.index = try openReadOnly(journalID: reading.id)
            return
        }
        guard file != nil else {
            // A new library has no index yet; one whose journal holds records lost it.
            let lost = journal.length() > reading.recordsStart
            try rebuild(&connection, because: lost ? .init(reason: "it was missing") : nil)
            return
        }
        connection.index = try CatalogIndex.open(
            at: catalogPath, journalID: reading.id, create: false, busyTimeout: busyTimeout)
        connection.indexFile = file
    }

    /// Brings the index up to date with the journal's records (other processes' changes, or
    /// changes whose process died before it applied them).
    private func freshen(_ connection: inout Connection) throws {
        guard let index = connection.index, !isReadOnly else { return }
        let length = journal.length()
        let position = try index.position()
        if position > length { throw CatalogIndex.Unusable(reason: "it holds more than the library's journal") }
        guard position < length else { return }
        try index.db.immediateTransaction {
            let position = try index.position()
            if position > journal.length() {
                throw CatalogIndex.Unusable(reason: "it holds more than the library's journal")
            }
            // Removed once the connection is released (``withIndex(_:locked:_:)``).
            connection.purgedFiles += try index.catchUp(with: journal).purged
        }
    }

    /// Takes the journal's lock (waiting for another process's change), through the descriptor
    /// this backend keeps open, reopened when the journal was replaced.
    private func lockJournal(_ connection: inout Connection) throws {
        for _ in 0..<100 {
            if connection.journalFile == nil {
                connection.journalFile = try FileSystem.openForReadingAndAppending(journal.path)
            }
            guard let file = connection.journalFile else { continue }
            try FileSystem.lock(file, wait: true)
            if FileSystem.isSameFile(file, journal.path) { return }
            FileSystem.unlock(file)
            FileSystem.close(file)
            connection.journalFile = nil
        }
        throw AlbumError(.libraryBusy, "The journal \(journal.path) kept being replaced; try again.")
    }

    // MARK: Rebuilding

    /// Builds the index anew from the snapshot and the journal (under the journal's lock) and puts
    /// it in place; the old file, when there was one that is not merely stale, is kept under
    /// `damaged/`.
    func rebuild(
        _ connection: inout Connection, because unusable: CatalogIndex.Unusable?, force: Bool = false
    ) throws {
        // The file found unusable (or none): a different one in its place once the lock is taken is
        // another process's rebuild, used as it is (unless `force`: `album repair`).
        let unusableFile = FileSystem.fileID(atPath: catalogPath)
        connection.index = nil
        connection.indexFile = nil
        if isReadOnly {
            connection.index = try openReadOnly(journalID: nil, forceMemory: true)
            return
        }
        try lockJournal(&connection)
        defer { if let file = connection.journalFile { FileSystem.unlock(file) } }
        let journalID = try journal.identity().id
        // Another process may have rebuilt it while this one waited for the lock.
        if !force, let replaced = FileSystem.fileID(atPath: catalogPath), replaced != unusableFile,
            // An index that cannot be opened is rebuilt below.
            let index = try? CatalogIndex.open(
                at: catalogPath, journalID: journalID, create: false, busyTimeout: busyTimeout)
        {
            connection.index = index
            connection.indexFile = replaced
            return
        }
        let temporary = root.path + "/catalog.rebuild.sqlite"
        // A rebuild's own leftovers (a rebuild killed before it finished).
        for suffix in ["", "-journal"] { try FileSystem.unlink(temporary + suffix) }
        var fromSnapshot = false
        if FileSystem.fileStatus(atPath: snapshotPath, following: false)?.kind == .regular {
            // A snapshot that cannot be copied: the rebuild reads the whole journal instead.
            fromSnapshot = (try? copySnapshot(to: temporary, journalID: journalID)) != nil
            if !fromSnapshot { for suffix in ["", "-journal"] { try FileSystem.unlink(temporary + suffix) } }
        }
        do {
            let index = try CatalogIndex.open(
                at: temporary, journalID: journalID, create: true, busyTimeout: busyTimeout)
            try index.db.immediateTransaction { try index.catchUp(with: journal) }
        }
        // Another program's transaction on the old file (the `sqlite3` shell) finishes first, and
        // none starts until the new file is in place: its rollback journal, named after the path,
        // would otherwise be taken for a hot journal of the new file and played into it.
        var guardConnection = try? Database(path: catalogPath, mode: .readWrite(create: false), verifyingPages: false)
        if let guardConnection {
            guardConnection.setBusyTimeout(milliseconds: busyTimeout)
            // A file SQLite cannot lock (not a database at all) has no transaction to wait for.
            try? guardConnection.execute("BEGIN EXCLUSIVE")
        }
        defer { guardConnection = nil }  // closing it ends the (empty) transaction and its lock
        var kept: String?
        if let unusable, FileSystem.fileStatus(atPath: catalogPath, following: false) != nil {
            kept = try setAside(unusable)
        }
        for suffix in ["-journal", "-wal", "-shm"] { try FileSystem.unlink(catalogPath + suffix) }
        try FileSystem.unlink(temporary + "-journal")
        try FileSystem.rename(temporary, to: catalogPath)
        connection.index = try CatalogIndex.open(
            at: catalogPath, journalID: journalID, create: false, busyTimeout: busyTimeout)
        connection.indexFile = FileSystem.fileID(atPath: catalogPath)
        if let unusable, unusable.isWorthANotice {
            notice(
                "The library's catalog was rebuilt from its journal (\(unusable.reason.trimmingCharacters(in: CharacterSet(charactersIn: ". "))))\(kept.map { "; the old catalog is kept in \($0)" } ?? ""). Nothing was lost."
            )
        }
    }

    /// Moves the unusable catalog (and its rollback journal or WAL) aside: into `damaged/DATE/`,
    /// or, for one of the previous release, `previous-release/`. An index merely written before a
    /// restart (not damaged, only untrusted) is removed: it is this library's own derived file.
    private func setAside(_ unusable: CatalogIndex.Unusable) throws -> String? {
        guard unusable.keepsOldFile else {
            try FileSystem.unlink(catalogPath)
            return nil
        }
        let folder =
            unusable.isPreviousRelease
            ? root.path + "/previous-release" : root.path + "/damaged/" + Self.timestamp()
        _ = try FileSystem.makeDirectory(atPath: folder)
        for suffix in ["", "-wal", "-shm", "-journal", "-checked"] {
            let from = catalogPath + suffix
            guard FileSystem.fileStatus(atPath: from, following: false) != nil else { continue }
            var target = folder + "/catalog.sqlite" + suffix
            if FileSystem.fileStatus(atPath: target, following: false) != nil {
                target = folder + "/catalog-\(RandomID.make()).sqlite" + suffix
            }
            // Gone meanwhile (another program's rollback journal, say): nothing to keep.
            if let failure = Self.rename(from, to: target), failure.errno != ENOENT { throw failure }
        }
        return folder
    }

    /// Renames `path`; the failure, if any.
    private static func rename(_ path: String, to target: String) -> SystemError? {
        do { try FileSystem.rename(path, to: target) } catch { return error }
        return nil
    }

    /// Copies the snapshot to `path` when it is this journal's and no newer than it, for a
    /// rebuild to replay only the journal's tail.
    private func copySnapshot(to path: String, journalID: String) throws {
        let (source, size) = try FileSystem.openForReading(snapshotPath)
        defer { FileSystem.close(source) }
        let bytes = try FileSystem.readAll(source, from: 0, size: size)
        let target = try FileSystem.openForAppending(path)
        do {
            defer { FileSystem.close(target) }
            try FileSystem.write(target, bytes)
        }
        let db = try Database(path: path, create: false)
        let index = CatalogIndex(db: db, path: path)
        guard try db.row("PRAGMA user_version")?.integer(0) == CatalogSchema.version,
            try index.state(CatalogSchema.StateKey.journalID)?.textValue == journalID,
            try index.position() <= journal.length()
        else { throw CatalogIndex.Unusable(reason: "the snapshot is not of this journal and schema") }
        try db.run("DELETE FROM index_state WHERE key = ?", [.text(CatalogSchema.StateKey.boot)])
    }

    /// An index for a library on read-only media: the file when it is current, else one built in
    /// memory from the journal.
    private func openReadOnly(journalID: String?, forceMemory: Bool = false) throws -> CatalogIndex {
        if !forceMemory, let journalID {
            for mode in [Database.OpenMode.readOnly, .immutable] {
                // A file that cannot be opened or read, or that is not current, is replaced by one in memory.
                guard let db = try? Database(path: catalogPath, mode: mode) else { continue }
                let index = CatalogIndex(db: db, path: catalogPath)
                // Unreadable (as above): not current, built in memory.
                if (try? db.row("PRAGMA user_version")?.integer(0)) == CatalogSchema.version,
                    (try? index.state(CatalogSchema.StateKey.journalID)?.textValue) == journalID,
                    (try? index.position()) == journal.length()
                {
                    return index
                }
            }
        }
        let index = try CatalogIndex.open(
            at: ":memory:", journalID: journalID, create: true, busyTimeout: busyTimeout)
        try index.db.immediateTransaction { try index.catchUp(with: journal) }
        return index
    }

    // MARK: After a change

    /// Removes the files of purged assets (their records are durable) and forgets each one gone;
    /// a file that cannot be removed now stays listed in `purged_file` and is retried at the next
    /// opening (it is not a stray file meanwhile).
    func removeFiles(_ relativePaths: [String]) {
        guard !relativePaths.isEmpty else { return }
        var gone: [String] = []
        var folders = Set<String>()
        for path in relativePaths {
            do {
                try FileSystem.unlink(root.path + "/" + path)
                gone.append(path)
                folders.insert((path as NSString).deletingLastPathComponent)
            } catch {
                continue  // retried at the next opening (``recover()``)
            }
        }
        for folder in folders {
            // Best effort: a removal lost with the power is retried, as the path stays listed.
            guard let directory = try? FileSystem.openDirectory(root.path + "/" + folder) else { continue }
            try? FileSystem.fsync(directory)  // a removal lost with the power is retried: the path stays listed
            FileSystem.close(directory)
        }
        // Bookkeeping of the index alone: a failure leaves the paths listed, retried later.
        try? withIndex("forget removed files") { connection in
            try connection.index!.db.immediateTransaction {
                for path in gone {
                    try connection.index!.db.run("DELETE FROM purged_file WHERE path = ?", [.text(path)])
                }
            }
        }
    }

    /// "2026-12-02T18-48-23Z", for folders under `damaged/`.
    static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date()).replacingOccurrences(of: ":", with: "-")
    }
}

/// Collects the changes one ``CatalogBackend/record(_:whenDecided:whenDurable:_:)`` step makes, applying each to the
/// index at once so the step's later reads see it.
final class ChangeRecorder {
    let index: CatalogIndex
    private(set) var changes: [CatalogChange] = []
    private(set) var purged: [String] = []

    init(index: CatalogIndex) { self.index = index }

    var db: Database { index.db }

    func record(_ change: CatalogChange) throws {
        purged += try index.apply(change)
        changes.append(change)
    }
}

extension SQLiteError {
    /// The file this connection opened was replaced (`SQLITE_READONLY_DBMOVED`).
    var meansReplaced: Bool { code == Code.readOnly | (4 << 8) }

    /// The index's file is damaged (a page fails its checksum, garbled structure): rebuilt.
    var meansDamage: Bool {
        code == Code.ioErrorData || primaryCode == Code.corrupt || primaryCode == Code.notADatabase
    }
}
