import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The SQLite catalog as an index of the journal: the one place a ``CatalogChange`` becomes rows
/// (``apply(_:)``), used alike by a live change, by an opening that catches up with other
/// processes' changes, and by a rebuild.
///
/// It is written without flushes of its own (`synchronous = OFF`, a rollback journal that a
/// reader such as the `sqlite3` shell never writes back): the journal is what is durable. Each
/// write records the boot session, so an index a power loss may have torn is rebuilt.
///
/// ```swift
/// let index = try CatalogIndex.open(at: root + "/catalog.sqlite", journalID: reading.id)
/// try index.db.immediateTransaction { try index.catchUp(with: journal) }
/// ```
struct CatalogIndex {
    let db: Database
    let path: String

    /// Why an existing index cannot be used as it is (it is rebuilt from the journal).
    struct Unusable: Error {
        var reason: String
        /// It is a catalog of the previous release (kept under `previous-release/`).
        var isPreviousRelease = false
        /// Whether the old file is worth keeping (under `damaged/`): not when it is empty, or only
        /// untrusted (written before a restart), which this library's own journal reproduces.
        var keepsOldFile = true
        /// Whether the user hears of the rebuild: not of the routine one after a restart.
        var isWorthANotice = true
        /// Whether the journal may lack records the index held (the index is ahead of it, or does
        /// not match it): what a dead saver listed as being published is then no proof that a
        /// file was never recorded, so recovery removes none of it.
        var mayHaveLostRecords = false

        /// An index that claims more of the journal than the journal holds, or whose last record
        /// is not the journal's record at that place: built from another copy of the library, or
        /// the journal lost records (restored from an older copy, cut short).
        static func notThisJournal(_ what: String = "it") -> Unusable {
            Unusable(
                reason:
                    "\(what) does not match the library's journal (it was made from another copy of the library, or the journal lost records)",
                mayHaveLostRecords: true)
        }

        /// An index of an earlier version, which did not record the proof that it is a prefix of
        /// its journal: rebuilt once, silently (it is this library's own derived file).
        static let unproven = Unusable(
            reason: "it was written by an earlier version", keepsOldFile: false, isWorthANotice: false)
    }

    /// Opens the index at `path` and checks that it is this journal's and current; `create` makes
    /// a new, empty one when the file is new. `checking` runs further checks of an existing index
    /// (``checkPrefix(of:recordsStart:inFull:what:)``) in the same read transaction as these.
    ///
    /// - Throws: ``Unusable`` when the index must be rebuilt; an `SQLiteError` or `AlbumError`
    ///   when it cannot be opened at all (missing folder, permissions, busy).
    static func open(
        at path: String, journalID: String?, create: Bool, busyTimeout: Int32,
        checking check: ((CatalogIndex) throws -> Void)? = nil
    ) throws -> CatalogIndex {
        let db = try Database(path: path, create: create)
        db.setBusyTimeout(milliseconds: busyTimeout)
        let index = CatalogIndex(db: db, path: path)
        let isEmpty = try db.readTransaction { try index.check(journalID: journalID, create: create, then: check) }
        // Outside the transaction: `foreign_keys` is a no-op inside one.
        try db.execute(
            "PRAGMA journal_mode = TRUNCATE; PRAGMA synchronous = OFF; PRAGMA foreign_keys = ON; "
                + "PRAGMA cache_size = -8000;")
        if isEmpty { try index.makeTables(journalID: journalID) }
        return index
    }

    /// Checks that the index is an AlbumKit index of this version, of this journal and of this boot
    /// session, then runs `check`; returns whether the file is empty (and `create` allows making it).
    private func check(
        journalID: String?, create: Bool, then check: ((CatalogIndex) throws -> Void)?
    ) throws -> Bool {
        let probe: Row?
        do {
            probe = try db.row(
                "SELECT (SELECT application_id FROM pragma_application_id), "
                    + "(SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_schema)")
        } catch let error as SQLiteError where !error.isBusy && !error.isResourceFailure {
            throw Unusable(reason: "it cannot be read (\(error.message))")
        }
        let foundID = probe?.integer(0) ?? 0
        let version = probe?.integer(1) ?? 0
        let objects = probe?.integer(2) ?? 0
        if foundID == 0 && version == 0 && objects == 0 {
            guard create else { throw Unusable(reason: "it is empty", keepsOldFile: false) }
            return true
        }
        guard foundID == CatalogSchema.applicationID else {
            throw Unusable(reason: "it is not an AlbumKit catalog (another program's database)")
        }
        if version >= CatalogSchema.firstDerivedVersion && version < CatalogSchema.version {
            // An index of an earlier version of this release: derived from this journal, nothing
            // in it to keep; rebuilt with the current schema.
            throw Unusable(reason: "its layout is an earlier version's", keepsOldFile: false)
        }
        guard version == CatalogSchema.version else {
            throw Unusable(
                reason: version < CatalogSchema.version
                    ? "it was written by the previous release"
                    : "it was written by a newer AlbumKit (schema \(version))",
                isPreviousRelease: version < CatalogSchema.version)
        }
        do {
            let recorded = try state(CatalogSchema.StateKey.journalID)?.textValue
            if let journalID, recorded != journalID {
                throw Unusable(reason: "it was built from another journal")
            }
            if let boot = try state(CatalogSchema.StateKey.boot)?.textValue, boot != Self.session(path) {
                throw Unusable(
                    reason: "it was being written when the computer stopped", keepsOldFile: false, isWorthANotice: false
                )
            }
        } catch let error as SQLiteError where !error.isBusy && !error.isResourceFailure {
            throw Unusable(reason: "it is damaged (\(error.message))")
        }
        try check?(self)
        return false
    }

    /// Makes the tables of a new, empty index.
    private func makeTables(journalID: String?) throws {
        if path != ":memory:" { try db.reserveBytesPerPage() }
        try db.immediateTransaction {
            try db.execute(CatalogSchema.tables)
            try db.execute(
                "PRAGMA application_id = \(CatalogSchema.applicationID); PRAGMA user_version = \(CatalogSchema.version);"
            )
            if let journalID { try setState(CatalogSchema.StateKey.journalID, .text(journalID)) }
            try setState(CatalogSchema.StateKey.position, .integer(0))
            try setState(CatalogSchema.StateKey.journalDigest, .integer(JournalDigest().storedValue))
        }
    }

    // MARK: State

    /// The boot and mount session of the index's file, asked once per process and path (a read of
    /// `/proc/self/mountinfo`).
    private static let sessions = Locked<[String: String]>([:])
    static func session(_ path: String) -> String {
        if let known = sessions.withLock({ $0[path] }) { return known }
        let found = BootSession.session(forFileAt: path)
        sessions.withLock { $0[path] = found }
        return found
    }

    func state(_ key: String) throws -> SQLValue? {
        try db.row("SELECT value FROM index_state WHERE key = ?", [.text(key)])?.values.first
    }

    /// Whether `interval` records or more were applied since the last snapshot.
    func isSnapshotDue(every interval: Int) throws -> Bool {
        (try state(CatalogSchema.StateKey.sinceSnapshot)?.integerValue ?? 0) >= Int64(interval)
    }

    func setState(_ key: String, _ value: SQLValue) throws {
        try db.run("INSERT OR REPLACE INTO index_state (key, value) VALUES (?, ?)", [.text(key), value])
    }

    /// The journal position every record before which is applied.
    func position() throws -> Int64 {
        try state(CatalogSchema.StateKey.position)?.integerValue ?? 0
    }

    /// The digest of the journal's bytes up to ``position()``.
    ///
    /// - Throws: ``Unusable/unproven`` for an index of an earlier version, which has none.
    func journalDigest() throws -> JournalDigest {
        guard let value = try state(CatalogSchema.StateKey.journalDigest)?.integerValue else {
            throw Unusable.unproven
        }
        return JournalDigest(continuing: UInt64(bitPattern: value))
    }

    /// Records that every record before `position` is applied, by this boot session (inside the
    /// caller's write transaction): `digest` is the journal's bytes up to `position`, `lastLine`
    /// the last line among them (kept as it was when `nil`).
    func setPosition(
        _ position: Int64, applied count: Int, digest: JournalDigest,
        lastLine: (start: Int64, digest: JournalDigest)?
    ) throws {
        try setState(CatalogSchema.StateKey.position, .integer(position))
        try setState(CatalogSchema.StateKey.journalDigest, .integer(digest.storedValue))
        if let lastLine {
            try setState(CatalogSchema.StateKey.lastLineStart, .integer(lastLine.start))
            try setState(CatalogSchema.StateKey.lastLineDigest, .integer(lastLine.digest.storedValue))
        }
        try setState(CatalogSchema.StateKey.boot, .text(Self.session(path)))
        if count > 0 {
            try db.run(
                """
                INSERT INTO index_state (key, value) VALUES (?1, ?2)
                ON CONFLICT (key) DO UPDATE SET value = coalesce(value, 0) + ?2
                """, [.text(CatalogSchema.StateKey.sinceSnapshot), .integer(Int64(count))])
        }
    }

    /// Marks the index as holding every record of `journal` (the records it holds were written
    /// from it), with the proof of which bytes those are; inside the caller's write transaction.
    func markApplied(allOf journal: LibraryJournal) throws {
        let total = try journal.forEachRecord { _ in }
        try setPosition(total.end, applied: 0, digest: total.digest, lastLine: total.lastLine)
    }

    // MARK: Proof of the journal

    /// Checks that the index was built from a prefix of `journal`: its position is within the
    /// journal and its last line is the journal's line at that place (one read), or, `inFull`,
    /// that every byte up to its position is (a read of the journal up to there: for a snapshot
    /// before a rebuild trusts it).
    ///
    /// - Throws: ``Unusable/notThisJournal(_:)`` or ``Unusable/unproven``.
    func checkPrefix(of journal: LibraryJournal, recordsStart: Int64, inFull: Bool = false, what: String = "it")
        throws
    {
        let position = try position()
        let digest = try journalDigest()
        // Nothing applied yet (0: not even the header read).
        guard position > 0, position != recordsStart || digest != JournalDigest() else { return }
        guard position > recordsStart, position <= journal.length() else { throw Unusable.notThisJournal(what) }
        // Checked against another journal file before (or never): a copy of the library, whose
        // last records may be the same as this one's though earlier ones differ. Every byte, once.
        let inode = FileSystem.fileID(atPath: journal.path).map { Int64(bitPattern: $0.inode) }
        let checkedAgainst = try state(CatalogSchema.StateKey.journalInode)?.integerValue
        if inFull || (inode != nil && inode != checkedAgainst) {
            guard try journal.digest(from: recordsStart, to: position) == digest else {
                throw Unusable.notThisJournal(what)
            }
            // Recorded with the next write (``noteJournalFile(of:)``), not now: a damaged index
            // found by a later read is then kept as it was found.
            return
        }
        guard let start = try state(CatalogSchema.StateKey.lastLineStart)?.integerValue,
            let stored = try state(CatalogSchema.StateKey.lastLineDigest)?.integerValue
        else { throw Unusable.unproven }
        // A line longer than any record (a damaged value): no proof.
        guard start >= recordsStart, start < position, position - start <= 64 << 20,
            try journal.digest(from: start, to: position) == JournalDigest(continuing: UInt64(bitPattern: stored))
        else { throw Unusable.notThisJournal(what) }
    }

    /// Records `journal`'s file as the one the index's whole prefix was checked against (inside
    /// the caller's write transaction, which checked it: a catch-up or a change under the lock).
    func noteJournalFile(of journal: LibraryJournal) throws {
        guard let file = FileSystem.fileID(atPath: journal.path) else { return }
        let inode = Int64(bitPattern: file.inode)
        guard try state(CatalogSchema.StateKey.journalInode)?.integerValue != inode else { return }
        try setState(CatalogSchema.StateKey.journalInode, .integer(inode))
    }

    // MARK: Catching up

    /// Applies the journal's records after this index's position (inside the caller's write
    /// transaction). Damaged records are noted in `journal_damage` and skipped.
    ///
    /// - Returns: the files of purged assets that may still be there (the caller removes them
    ///   after the commit), how many records were applied, where they end, how many bytes after
    ///   them are not a whole record, the digest of the journal up to their end, and the damaged
    ///   records read.
    @discardableResult
    func catchUp(
        with journal: LibraryJournal, through open: FileSystem.Descriptor? = nil
    ) throws -> (
        purged: [String], applied: Int, end: Int64, tornBytes: Int64, digest: JournalDigest,
        damaged: [LibraryJournal.DamagedRecord]
    ) {
        var purged: [String] = []
        var applied = 0
        let start = try position()
        let digest = try journalDigest()
        // Nothing after this index's position: no need to read the journal.
        let length = try open.map { descriptor throws in try FileSystem.size(of: descriptor) } ?? journal.length()
        // A position past the journal's end: the index was changed since it was checked (a program
        // writing the catalog file), or the journal lost records. Rebuilt, never caught up from.
        guard start <= length else { throw Unusable.notThisJournal() }
        if start != 0, start == length { return ([], 0, start, 0, digest, []) }
        let total = try journal.forEachRecord(from: start == 0 ? nil : start, through: open, continuing: digest) {
            reading in
            for entry in reading.entries { purged += try apply(entry.change, at: entry.offset) }
            for damage in reading.damaged {
                try db.run(
                    "INSERT OR REPLACE INTO journal_damage (offset, affects) VALUES (?, ?)",
                    [.integer(damage.offset), SQLValue(damage.affects)])
            }
            applied += reading.entries.count
        }
        if total.end != start || applied > 0 {
            try setPosition(total.end, applied: applied, digest: total.digest, lastLine: total.lastLine)
            try noteJournalFile(of: journal)
        }
        return (purged, applied, total.end, total.tornBytes, total.digest, total.damaged)
    }

    // MARK: Applying

    /// Makes `change` rows. Idempotent where a replay could meet a change twice; a change naming
    /// an album or asset that is not there (its record was damaged) changes what it can. A purge
    /// removes only assets in recently deleted: one naming an asset that is not is refused for
    /// that asset, and noted in `journal_damage` at `offset` (the record's place in the journal)
    /// when it comes from the journal, as a damaged record is.
    ///
    /// - Returns: the library files of assets purged (to remove once committed).
    @discardableResult
    func apply(_ change: CatalogChange, at offset: Int64? = nil) throws -> [String] {
        switch change {
        case .save(let asset):
            let inserted = try db.run(
                """
                INSERT OR IGNORE INTO asset (id, state, kind, format, path, original_name, byte_size, sha256, added_at, metadata, favorite, companions, added_key, taken_key)
                VALUES (?3, 'ready', ?4, ?5, ?6, ?7, ?8, ?9, ?1, ?2, ?10, ?11, \(CatalogSchema.addedKeySQL), \(CatalogSchema.takenKeySQL))
                """,
                [
                    .real(asset.addedAt), SQLValue(asset.metadata), .text(asset.id),
                    .text(asset.kind == "video" ? "video" : "photo"), .text(asset.format), .text(asset.path),
                    SQLValue(asset.originalName), .integer(asset.byteSize), .text(asset.sha256),
                    .integer(asset.isFavorite ? 1 : 0), SQLValue(CatalogCompanion.jsonText(asset.companions)),
                ])
            if inserted == 1 { try recordCompanionFiles(of: asset.id, asset.companions) }
        case .createAlbum(let id, let title, let createdAt):
            try db.run(
                "INSERT OR IGNORE INTO album (id, title, title_key, created_at) VALUES (?, ?, ?, ?)",
                [.text(id), .text(title), .text(AlbumTitle.key(of: title)), .real(createdAt)])
        case .renameAlbum(let id, let title):
            guard
                try db.run(
                    "UPDATE album SET title = ?, title_key = ? WHERE id = ?",
                    [.text(title), .text(AlbumTitle.key(of: title)), .text(id)]) == 1
            else { return [] }
            // The rename frees the old title; the new one leads here.
            try db.run("DELETE FROM remembered_album WHERE album_id = ?", [.text(id)])
            try remember(id, title: title)
        case .deleteAlbum(let id):
            try db.run("DELETE FROM album WHERE id = ?", [.text(id)])
        case .rememberAlbum(let id, let title):
            try remember(id, title: title)
        case .addToAlbum(let album, let assets, let at):
            var position =
                try db.row("SELECT coalesce(max(position), 0) FROM album_asset WHERE album_id = ?", [.text(album)])?
                .integer(0) ?? 0
            for asset in assets {
                // The asset's capture key goes with the membership (an asset's metadata never
                // changes): an album's first and last capture dates are seeks.
                let added = try db.run(
                    """
                    INSERT OR IGNORE INTO album_asset (album_id, asset_id, position, added_at, taken_key)
                    SELECT ?1, ?2, ?3, ?4, s.taken_key FROM asset s
                    WHERE s.id = ?2 AND EXISTS (SELECT 1 FROM album WHERE id = ?1)
                    """, [.text(album), .text(asset), .integer(position + 1), .real(at)])
                position += Int64(added)
                if added == 1 {
                    let counted = try db.run(
                        """
                        UPDATE album SET ready_count = ready_count + 1,
                            ready_bytes = ready_bytes + (SELECT byte_size FROM asset WHERE id = ?2)
                        WHERE id = ?1 AND EXISTS (SELECT 1 FROM asset WHERE id = ?2 AND state = 'ready')
                        """, [.text(album), .text(asset)])
                    if counted == 1 { try countInBlock(album: album, position: position, by: 1) }
                }
            }
        case .removeFromAlbum(let album, let assets):
            for asset in assets {
                let place = try db.row(
                    """
                    SELECT m.position FROM album_asset m JOIN asset s ON s.id = m.asset_id
                    WHERE m.album_id = ?1 AND m.asset_id = ?2 AND s.state = 'ready'
                    """, [.text(album), .text(asset)])?
                    .integer(0)
                if let place { try countInBlock(album: album, position: place, by: -1) }
                try db.run(
                    """
                    UPDATE album SET ready_count = ready_count - 1,
                        ready_bytes = ready_bytes - (SELECT byte_size FROM asset WHERE id = ?2)
                    WHERE id = ?1 AND EXISTS (SELECT 1 FROM album_asset m JOIN asset s ON s.id = m.asset_id
                        WHERE m.album_id = ?1 AND m.asset_id = ?2 AND s.state = 'ready')
                    """, [.text(album), .text(asset)])
                try db.run("DELETE FROM album_asset WHERE album_id = ? AND asset_id = ?", [.text(album), .text(asset)])
            }
        case .deleteAssets(let assets, let at):
            for asset in assets {
                let deleted = try db.run(
                    "UPDATE asset SET state = 'deleted', deleted_at = ? WHERE id = ? AND state = 'ready'",
                    [.real(at), .text(asset)])
                if deleted == 1 { try countInAlbums(of: asset, by: -1) }
            }
        case .restoreAssets(let assets):
            for asset in assets {
                let restored = try db.run(
                    "UPDATE asset SET state = 'ready', deleted_at = NULL WHERE id = ? AND state = 'deleted'",
                    [.text(asset)])
                if restored == 1 { try countInAlbums(of: asset, by: 1) }
            }
        case .setCompanions(let asset, let companions):
            guard let row = try db.row("SELECT companions FROM asset WHERE id = ?", [.text(asset)]) else { return [] }
            let earlier = row.text(0).flatMap(CatalogCompanion.list(fromJSON:)) ?? []
            try db.run(
                "UPDATE asset SET companions = ? WHERE id = ?",
                [SQLValue(CatalogCompanion.jsonText(companions)), .text(asset)])
            try db.run("DELETE FROM companion_file WHERE asset_id = ?", [.text(asset)])
            try recordCompanionFiles(of: asset, companions)
            // The earlier files no longer listed go once this is committed, as a purge's do; a
            // replay that meets this record again finds nothing more to remove.
            let kept = Set(companions.map(\.path))
            var files: [String] = []
            for path in earlier.map(\.path) where !kept.contains(path) {
                // A file another asset still names (its own file or a companion: a record someone
                // else wrote naming it) is that asset's, never removed with this one's companions.
                guard try db.row(CatalogSchema.isRecordedFileSQL, [.text(path)]) == nil else { continue }
                try db.run("INSERT OR IGNORE INTO purged_file (path) VALUES (?)", [.text(path)])
                files.append(path)
            }
            return files
        case .acknowledgeDamage(let offset):
            try db.run("INSERT OR IGNORE INTO acknowledged_damage (offset) VALUES (?)", [.integer(offset)])
        case .purgeAssets(let assets):
            var files: [String] = []
            var live: [String] = []
            for asset in assets {
                guard let row = try db.row("SELECT path, companions, state FROM asset WHERE id = ?", [.text(asset)]),
                    let path = row.text(0)
                else {
                    continue
                }
                // Only what is in recently deleted goes for good (a permanent deletion records the
                // deletion first): a purge of a photo still shown is forged or garbled, and refused.
                guard row.text(2) == "deleted" else {
                    live.append(asset)
                    continue
                }
                try db.run("DELETE FROM asset WHERE id = ?", [.text(asset)])
                // Its companions go first: the asset's own file goes last, so a purge interrupted
                // before it is done still leaves the photo.
                let paths = (row.text(1).flatMap(CatalogCompanion.list(fromJSON:)) ?? []).map(\.path) + [path]
                for path in paths {
                    // (As for companions: a file another asset names stays with it.)
                    guard try db.row(CatalogSchema.isRecordedFileSQL, [.text(path)]) == nil else { continue }
                    // Until its file is removed (``CatalogBackend/removeFiles(_:)``): not a stray file.
                    try db.run("INSERT OR IGNORE INTO purged_file (path) VALUES (?)", [.text(path)])
                    files.append(path)
                }
            }
            if !live.isEmpty, let offset {
                try db.run(
                    "INSERT OR REPLACE INTO journal_damage (offset, affects) VALUES (?, ?)",
                    [
                        .integer(offset),
                        .text(
                            "the permanent deletion of \(live.count) photo(s) not in recently deleted (\(live.joined(separator: ", "))), refused: they are kept"
                        ),
                    ])
            }
            return files
        }
        return []
    }

    /// The companions' paths of `asset` as rows of `companion_file` (a seek tells whether a file is
    /// one; the asset's row goes with them, a purge's delete taking them).
    private func recordCompanionFiles(of asset: String, _ companions: [CatalogCompanion]) throws {
        for companion in companions {
            try db.run(
                "INSERT OR IGNORE INTO companion_file (path, asset_id) VALUES (?, ?)",
                [.text(companion.path), .text(asset)])
        }
    }

    /// Moves the kept count (`ready_count`) of every album holding `asset` by `change`, and its
    /// kept size (`ready_bytes`) by the asset's size as much: the asset left or came back into
    /// the albums' listings (deleted, restored); the counts of the blocks holding it move with them.
    private func countInAlbums(of asset: String, by change: Int64) throws {
        try db.run(
            """
            UPDATE album SET ready_count = ready_count + ?1,
                ready_bytes = ready_bytes + ?1 * (SELECT byte_size FROM asset WHERE id = ?2)
            WHERE id IN (SELECT album_id FROM album_asset WHERE asset_id = ?2)
            """,
            [.integer(change), .text(asset)])
        try db.run(
            """
            INSERT INTO album_block (album_id, block, ready_count)
            SELECT album_id, position / \(CatalogSchema.albumBlockSize), ?1 FROM album_asset WHERE asset_id = ?2
            ON CONFLICT (album_id, block) DO UPDATE SET ready_count = ready_count + excluded.ready_count
            """, [.integer(change), .text(asset)])
    }

    /// Moves the kept count of the block of `album` holding `position` by `change`: an asset not
    /// recently deleted came into that place, or left it.
    private func countInBlock(album: String, position: Int64, by change: Int64) throws {
        try db.run(
            """
            INSERT INTO album_block (album_id, block, ready_count) VALUES (?1, ?2, ?3)
            ON CONFLICT (album_id, block) DO UPDATE SET ready_count = ready_count + excluded.ready_count
            """, [.text(album), .integer(position / CatalogSchema.albumBlockSize), .integer(change)])
    }

    private func remember(_ id: String, title: String) throws {
        try db.run(
            "INSERT OR REPLACE INTO remembered_album (title_key, album_id) VALUES (?, ?)",
            [.text(AlbumTitle.key(of: title)), .text(id)])
    }
}

extension SQLValue {
    var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    var integerValue: Int64? {
        switch self {
        case .integer(let value): return value
        case .real(let value): return Int64(exactly: value)
        default: return nil
        }
    }
}

extension SQLiteError {
    /// A failure of the machine, not of the file (no memory, no descriptors, a full disk, an I/O
    /// error with an operating-system reason): rebuilding would not help.
    var isResourceFailure: Bool {
        code != Code.ioErrorData && (systemErrno != 0 || primaryCode == Code.full || primaryCode == 7)
    }
}
