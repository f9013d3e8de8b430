import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Rebuilding the index from the snapshot and the journal when it cannot be used.
extension CatalogBackend {
    /// Builds the index anew from the snapshot and the journal (under the journal's lock) and puts
    /// it in place; the old file, when there was one that is not merely stale, is kept under
    /// `damaged/`. `fromJournalAlone` (a rebuild tried again) leaves the snapshot out.
    func rebuild(
        _ connection: inout Connection, because unusable: CatalogIndex.Unusable?, force: Bool = false,
        fromJournalAlone: Bool = false
    ) throws {
        // The file found unusable (or none): a different one in its place once the lock is taken is
        // another process's rebuild, used as it is (unless `force`: `album repair`).
        let unusableFile = FileSystem.fileID(atPath: catalogPath)
        var unusable = unusable
        // The file this process built a moment ago, damaged again: made from what is kept (the
        // journal, a snapshot set aside if it was the cause), so no copy of it is kept.
        if unusableFile != nil, unusableFile == connection.builtFile { unusable?.keepsOldFile = false }
        connection.index = nil
        connection.indexFile = nil
        if isReadOnly {
            connection.index = try openReadOnly(journalID: nil, recordsStart: 0, forceMemory: true)
            return
        }
        try lockJournal(&connection)
        defer { if let file = connection.journalFile { FileSystem.unlock(file) } }
        let identity = try journal.identity()
        let journalID = identity.id
        // Another process may have rebuilt it while this one waited for the lock.
        if !force, misplacedIndexFile() == nil, let replaced = FileSystem.fileID(atPath: catalogPath),
            replaced != unusableFile,
            // An index that cannot be opened, or is not of this journal, is rebuilt below.
            let index = try? CatalogIndex.open(
                at: catalogPath, journalID: journalID, create: false, busyTimeout: busyTimeout),
            // Any failure to prove it a prefix of this journal means: rebuilt below, never believed.
            (try? index.checkPrefix(of: journal, recordsStart: identity.recordsStart)) != nil
        {
            connection.index = index
            connection.indexFile = replaced
            return
        }
        let damaged = DamagedFolder(root: root.path)
        let temporary = root.path + "/catalog.rebuild.sqlite"
        // A rebuild's own leftovers (a rebuild killed before it finished); anything but a file there
        // is set aside, never followed.
        for suffix in ["", "-journal"] { try removeOwnFile(temporary + suffix, damaged: damaged) }
        let (fromSnapshot, refusedSnapshot) = try startFromSnapshot(
            temporary, journalID: journalID, recordsStart: identity.recordsStart, damaged: damaged,
            use: !fromJournalAlone)
        if !fromSnapshot { for suffix in ["", "-journal"] { try removeOwnFile(temporary + suffix, damaged: damaged) } }
        do {
            let index = try CatalogIndex.open(
                at: temporary, journalID: journalID, create: true, busyTimeout: busyTimeout)
            try index.db.immediateTransaction {
                try index.catchUp(with: journal)
                // Built from this very file (read under its lock).
                try index.noteJournalFile(of: journal)
            }
        }
        // Another program's transaction on the old file (the `sqlite3` shell) finishes first, and
        // none starts until the new file is in place: its rollback journal, named after the path,
        // would otherwise be taken for a hot journal of the new file and played into it. Only a
        // file is opened (a FIFO is never waited on, a link never followed).
        var guardConnection =
            misplacedIndexFile() == nil
            // No database to open there: no other program's transaction to wait for.
            ? try? Database(path: catalogPath, mode: .readWrite(create: false), verifyingPages: false) : nil
        if let guardConnection {
            guardConnection.setBusyTimeout(milliseconds: busyTimeout)
            // A file SQLite cannot lock (not a database at all) has no transaction to wait for.
            try? guardConnection.execute("BEGIN EXCLUSIVE")
        }
        defer { guardConnection = nil }  // closing it ends the (empty) transaction and its lock
        var keptCatalogIn: String?
        if let unusable, FileSystem.fileStatus(atPath: catalogPath, following: false) != nil {
            keptCatalogIn = try setAside(unusable, damaged: damaged)
        }
        // SQLite's own files of the old index go; anything else in their place is set aside.
        for suffix in ["-journal", "-wal", "-shm"] { try removeOwnFile(catalogPath + suffix, damaged: damaged) }
        try FileSystem.unlink(temporary + "-journal")
        // The journal may lack records the old index or the snapshot held: what dead savers listed
        // is no proof that a file was never recorded (their lists are set aside, and nothing of
        // them is removed).
        let mayHaveLostRecords = unusable?.mayHaveLostRecords == true || refusedSnapshot?.mayHaveLostRecords == true
        if mayHaveLostRecords { try setAsideDeadSaversLists(damaged: damaged) }
        try FileSystem.rename(temporary, to: catalogPath)
        connection.index = try CatalogIndex.open(
            at: catalogPath, journalID: journalID, create: false, busyTimeout: busyTimeout)
        connection.indexFile = FileSystem.fileID(atPath: catalogPath)
        connection.builtFile = connection.indexFile
        var parts: [String] = []
        if let unusable, unusable.isWorthANotice {
            parts.append(unusable.reason.trimmingCharacters(in: CharacterSet(charactersIn: ". ")))
        }
        if let refusedSnapshot, refusedSnapshot.keepsOldFile {
            parts.append("its snapshot was not used: \(refusedSnapshot.reason)")
        }
        guard !parts.isEmpty else { return }
        let kept =
            keptCatalogIn.map { "; the old catalog is kept in \($0)" }
            ?? damaged.made.map { "; what was set aside is kept in \($0)" } ?? ""
        let outcome =
            mayHaveLostRecords
            ? " The journal may lack records the catalog held: photos saved since are not shown, and no file was removed; `album repair` adds the files under originals/ that no record names to the album \"\(CatalogRepair.recoveredAlbumTitle)\"."
            : " Nothing was lost."
        notice(
            "The library's catalog was rebuilt from its journal (\(parts.joined(separator: "; ")))\(kept).\(outcome)")
    }

    /// Copies the snapshot to `temporary` for the rebuild to replay only the journal's tail, when it
    /// is there, sound and a prefix of this journal (checked in full). A snapshot that is not (a
    /// damaged page, another copy's, a folder or link in its place) is moved under `damaged/`
    /// once; one of an earlier version, which carries no proof, is only left unused (the next
    /// snapshot replaces it).
    ///
    /// - Returns: whether the snapshot was copied, and why it was refused when it was.
    private func startFromSnapshot(
        _ temporary: String, journalID: String, recordsStart: Int64, damaged: DamagedFolder, use: Bool
    ) throws -> (Bool, CatalogIndex.Unusable?) {
        let folder = root.path + "/snapshots"
        if let status = FileSystem.fileStatus(atPath: folder, following: false), status.kind != .directory {
            try damaged.keep(folder, as: "snapshots")
            return (false, .init(reason: "snapshots is \(Self.describe(status.kind)), not a folder"))
        }
        guard let status = FileSystem.fileStatus(atPath: snapshotPath, following: false) else { return (false, nil) }
        guard status.kind == .regular else {
            try damaged.keep(snapshotPath, as: "snapshot-index.sqlite")
            return (false, .init(reason: "snapshots/index.sqlite is \(Self.describe(status.kind)), not a file"))
        }
        guard use else { return (false, nil) }
        do {
            try copySnapshot(to: temporary, journalID: journalID, recordsStart: recordsStart)
            return (true, nil)
        } catch let refusal as CatalogIndex.Unusable {
            if refusal.keepsOldFile { try damaged.keep(snapshotPath, as: "snapshot-index.sqlite") }
            return (false, refusal)
        } catch let error as SQLiteError where error.meansDamage {
            try damaged.keep(snapshotPath, as: "snapshot-index.sqlite")
            return (false, .init(reason: "it is damaged (\(error.message))"))
        } catch {
            // It cannot be read now (no memory, a full disk for the copy): the rebuild reads the
            // whole journal, and the snapshot stays for the next one.
            return (false, nil)
        }
    }

    /// Removes a file SQLite or a rebuild of this library made at `path` (its rollback journal, a
    /// rebuild's leftover); anything else found there (a folder, a FIFO, a link) is moved under
    /// `damaged/`, never removed nor followed.
    private func removeOwnFile(_ path: String, damaged: DamagedFolder) throws {
        guard let status = FileSystem.fileStatus(atPath: path, following: false) else { return }
        if status.kind == .regular {
            try FileSystem.unlink(path)
        } else {
            try damaged.keep(path, as: (path as NSString).lastPathComponent)
        }
    }

    /// Moves the publishing lists of dead savers under `damaged/` (called under the journal's
    /// lock when the journal may have lost records): recovery then removes none of their files,
    /// which stay in `originals/` for `album repair` to adopt. Their owner files stay for recovery
    /// to forget.
    private func setAsideDeadSaversLists(damaged: DamagedFolder) throws {
        for owner in ProcessOwner.owners(in: ownersPath) where !ProcessOwner.isAlive(owner, in: ownersPath) {
            let list = ownersPath + "/" + owner + ".publishing"
            guard FileSystem.fileStatus(atPath: list, following: false) != nil else { continue }
            try damaged.keep(list, as: owner + ".publishing")
        }
    }

    /// Moves the unusable catalog (and its rollback journal or WAL) aside: into `damaged/DATE/`,
    /// or, for one of the previous release, `previous-release/`. An index merely written before a
    /// restart (not damaged, only untrusted) is removed: it is this library's own derived file.
    /// Anything but a file in its place (a folder, FIFO or link) is always moved, never removed.
    ///
    /// - Returns: the folder it was kept in.
    private func setAside(_ unusable: CatalogIndex.Unusable, damaged: DamagedFolder) throws -> String? {
        let isFile = FileSystem.fileStatus(atPath: catalogPath, following: false)?.kind == .regular
        if !unusable.keepsOldFile, isFile {
            try FileSystem.unlink(catalogPath)
            return nil
        }
        let target = unusable.isPreviousRelease ? DamagedFolder(root: root.path, previousRelease: true) : damaged
        for suffix in ["", "-wal", "-shm", "-journal", "-checked"] {
            // Gone meanwhile (another program's rollback journal, say): nothing to keep.
            try target.keep(catalogPath + suffix, as: "catalog.sqlite" + suffix)
        }
        return target.made
    }

    /// Copies the snapshot to `path` when it is sound (every page read and checked) and a prefix
    /// of this journal (every byte up to its position), for a rebuild to replay only the
    /// journal's tail.
    ///
    /// - Throws: ``CatalogIndex/Unusable`` when it is not; an `SQLiteError` when it is damaged.
    private func copySnapshot(to path: String, journalID: String, recordsStart: Int64) throws {
        let (source, size) = try FileSystem.openForReading(snapshotPath)
        defer { FileSystem.close(source) }
        let target = try FileSystem.openForAppending(path)
        do {
            defer { FileSystem.close(target) }
            var offset: UInt64 = 0
            while offset < size {
                let end = min(size, offset + (8 << 20))
                try FileSystem.write(target, try FileSystem.readAll(source, from: offset, size: end))
                offset = end
            }
        }
        let db = try Database(path: path, create: false)
        let index = CatalogIndex(db: db, path: path)
        guard try db.row("PRAGMA user_version")?.integer(0) == CatalogSchema.version else {
            throw CatalogIndex.Unusable(reason: "it is of another index schema")
        }
        let check = try db.rows("PRAGMA quick_check(3)").compactMap { $0.text(0) }
        guard check == ["ok"] else {
            // One line: SQLite's report spans several ("*** in database main ***", a line a page).
            let lines = check.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("***") }
            throw CatalogIndex.Unusable(reason: "it is damaged (\(lines.prefix(3).joined(separator: "; ")))")
        }
        guard try index.state(CatalogSchema.StateKey.journalID)?.textValue == journalID else {
            throw CatalogIndex.Unusable(reason: "it is of another library's journal")
        }
        try index.checkPrefix(of: journal, recordsStart: recordsStart, inFull: true, what: "it")
        try db.run("DELETE FROM index_state WHERE key = ?", [.text(CatalogSchema.StateKey.boot)])
    }

    /// An index for a library on read-only media: the file when it is current and of this journal,
    /// else one built in memory from the journal.
    func openReadOnly(journalID: String?, recordsStart: Int64, forceMemory: Bool = false) throws
        -> CatalogIndex
    {
        // Only a file is opened: a FIFO is never waited on, a link never followed.
        if !forceMemory, let journalID, misplacedIndexFile() == nil,
            FileSystem.fileStatus(atPath: catalogPath, following: false) != nil
        {
            for mode in [Database.OpenMode.readOnly, .immutable] {
                // A file that cannot be opened or read, or that is not current, is replaced by one in memory.
                guard let db = try? Database(path: catalogPath, mode: mode) else { continue }
                let index = CatalogIndex(db: db, path: catalogPath)
                // Unreadable (as above): not current, built in memory.
                if (try? db.row("PRAGMA user_version")?.integer(0)) == CatalogSchema.version,
                    (try? index.state(CatalogSchema.StateKey.journalID)?.textValue) == journalID,
                    (try? index.position()) == journal.length(),
                    (try? index.checkPrefix(of: journal, recordsStart: recordsStart)) != nil
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
}
