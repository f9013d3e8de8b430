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
    /// one transaction); the records are appended to the journal and flushed — the commit point —
    /// and the transaction committed (without a flush). Nothing is recorded when `decide` throws.
    ///
    /// ```swift
    /// try record("create the album") { recorder in try recorder.record(.createAlbum(…)) }
    /// ```
    ///
    /// - Returns: what `decide` returned.
    func record<T>(_ what: String, _ decide: (ChangeRecorder) throws -> T) throws -> T {
        try withTransaction(what) { transaction in
            let result = try decide(transaction.recorder)
            try transaction.appendAndFlush()
            transaction.commitIndex()
            return result
        }
    }

    /// Runs `body` with a ``CatalogTransaction`` begun: the journal locked, the index caught up
    /// with it inside a `BEGIN IMMEDIATE` transaction. What `body` leaves undone is finished
    /// here: a transaction not durable rolls back (nothing of it was journaled: the index goes
    /// back to where it was, and the purges it caught up with are applied next time); one durable
    /// but not committed commits. A snapshot due is taken once the lock is released.
    ///
    /// - Returns: what `body` returned.
    func withTransaction<T>(_ what: String, _ body: (CatalogTransaction) throws -> T) throws -> T {
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
            let purgesBefore = connection.purgedFiles.count
            var transaction: CatalogTransaction?
            defer {
                if let transaction, transaction.isDurable {
                    transaction.commitIndex()
                    connection.purgedFiles += transaction.recorder.purged
                } else {
                    // Nothing of it was journaled: the index goes back to where it was, and the
                    // purges it caught up with are applied (their files removed) next time. Safe
                    // to drop: a rollback fails only when SQLite already rolled back.
                    try? index.db.execute("ROLLBACK")
                    connection.purgedFiles.removeSubrange(purgesBefore...)
                }
            }
            // Through the descriptor that holds the lock: one journal descriptor per commit.
            let caughtUp = try index.catchUp(with: journal, through: journalFile)
            connection.purgedFiles += caughtUp.purged
            let end = try endOfRecords(journalFile, caughtUp: caughtUp.end)
            let begun = CatalogTransaction(
                what, recorder: ChangeRecorder(index: index), journal: journal, journalFile: journalFile, end: end,
                digest: caughtUp.digest, snapshotInterval: snapshotInterval.withLock { $0 })
            transaction = begun
            let result = try body(begun)
            snapshotDue = begun.isSnapshotDue
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
        // Shorter than the records read under the lock: the journal was cut by a program that ignores
        // the lock, so the index may hold records the journal lacks: rebuilt from the journal.
        guard size > end else { throw CatalogIndex.Unusable.notThisJournal() }
        // Bytes after the last record: never acknowledged (an append is acknowledged only once it
        // is whole and flushed), kept for inspection, then cut off.
        let tail = try FileSystem.readAll(file, from: UInt64(end), size: UInt64(size))
        try DamagedFolder(root: root.path).keep(tail, as: "journal-tail-at-\(end)")
        try FileSystem.truncate(file, to: end)
        try FileSystem.flushData(file)
        return end
    }

    /// Runs `body` with the index open and up to date with the journal (for reads); `locked`
    /// also takes the journal's lock and leaves catching up to `body` (for ``withTransaction(_:_:)``). An
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
                            // Tried again: from the journal alone (the snapshot may be the cause).
                            try rebuild(&connection, because: reason, fromJournalAlone: rebuilt > 1)
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
            connection.index = try openReadOnly(journalID: reading.id, recordsStart: reading.recordsStart)
            return
        }
        // Never opened through, nor waited on: a folder, FIFO or link where a file of the index goes.
        if let misplaced = misplacedIndexFile() { throw misplaced }
        guard file != nil else {
            // A new library has no index yet; one whose journal holds records lost it.
            let lost = journal.length() > reading.recordsStart
            try rebuild(&connection, because: lost ? .init(reason: "it was missing") : nil)
            return
        }
        let index = try CatalogIndex.open(
            at: catalogPath, journalID: reading.id, create: false, busyTimeout: busyTimeout
        ) { [journal] index in try index.checkPrefix(of: journal, recordsStart: reading.recordsStart) }
        connection.index = index
        connection.indexFile = file
    }

    /// The first of the index's files (the catalog, its rollback journal, WAL, shared memory) that
    /// is there and is not a regular file, as the reason the index is set aside and rebuilt.
    func misplacedIndexFile() -> CatalogIndex.Unusable? {
        for suffix in ["", "-journal", "-wal", "-shm"] {
            let path = catalogPath + suffix
            guard let status = FileSystem.fileStatus(atPath: path, following: false), status.kind != .regular else {
                continue
            }
            return .init(reason: "\((path as NSString).lastPathComponent) is \(Self.describe(status.kind)), not a file")
        }
        return nil
    }

    /// "a folder", "a symbolic link", "a FIFO, socket or device".
    static func describe(_ kind: FileStatus.Kind) -> String {
        switch kind {
        case .regular: return "a file"
        case .directory: return "a folder"
        case .symbolicLink: return "a symbolic link"
        case .other: return "a FIFO, socket or device"
        }
    }

    /// Brings the index up to date with the journal's records (other processes' changes, or
    /// changes whose process died before it applied them).
    private func freshen(_ connection: inout Connection) throws {
        guard let index = connection.index, !isReadOnly else { return }
        let length = journal.length()
        let position = try index.position()
        if position > length { throw CatalogIndex.Unusable.notThisJournal() }
        guard position < length else { return }
        try index.db.immediateTransaction {
            let position = try index.position()
            if position > journal.length() { throw CatalogIndex.Unusable.notThisJournal() }
            // Removed once the connection is released (``withIndex(_:locked:_:)``).
            connection.purgedFiles += try index.catchUp(with: journal).purged
        }
    }

    /// Takes the journal's lock (waiting for another process's change), through the descriptor
    /// this backend keeps open, reopened when the journal was replaced.
    func lockJournal(_ connection: inout Connection) throws {
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

    // MARK: After a change

    /// Removes the files of purged assets (their records are durable) and forgets each one gone;
    /// a file that cannot be removed now stays listed in `purged_file` and is retried at the next
    /// opening (it is not a stray file meanwhile). Only `originals/FOLDER/NAME` files are removed,
    /// through the library's gate (``RemovalGate``); a path of another form, or one the gate
    /// refuses (a link on the way, not a regular file), is forgotten without touching anything.
    func removeFiles(_ relativePaths: [String]) {
        guard !relativePaths.isEmpty else { return }
        var gone: [String] = []
        var folders = Set<String>()
        for path in relativePaths {
            guard LibraryFilePath.isOriginal(path) else {
                gone.append(path)
                continue
            }
            do {
                if try gate.removeFile(path) { folders.insert((path as NSString).deletingLastPathComponent) }
                gone.append(path)
            } catch  where [ELOOP, ENOTDIR, EISDIR, EINVAL, EXDEV].contains(error.errno) {
                gone.append(path)  // not a file of the library: never removed, not tried again
            } catch {
                continue  // retried at the next opening (``recover()``)
            }
        }
        for folder in folders {
            // Best effort: a removal lost with the power is retried, as the path stays listed.
            guard let directory = try? gate.openFolder(folder) else { continue }
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
