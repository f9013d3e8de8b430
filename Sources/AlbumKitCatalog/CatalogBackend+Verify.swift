import AlbumKitCore
import Foundation

/// Checking the library, one way: every file against the index, the index against the journal.
extension CatalogBackend: LibraryVerifying {
    package func verify() async throws -> VerificationReport {
        try await verify(.standard, progress: nil)
    }

    package func verify(progress: (@Sendable (VerificationProgress) -> Void)?) async throws -> VerificationReport {
        try await verify(.standard, progress: progress)
    }

    package func verify(
        _ depth: VerificationDepth, progress: (@Sendable (VerificationProgress) -> Void)?
    ) async throws -> VerificationReport {
        try SHA256Hasher.requireAvailable(to: "verify the library \(root.path)")
        // The index and the journal checked beside the files (a thread of their own while the
        // files are read on every core); the thorough comparison holds the index throughout, so
        // it goes first.
        let thorough = depth == .thorough ? try await Blocking.run { try self.indexDisagreements() } : nil
        async let standard = thorough == nil ? Blocking.run { try self.catalogProblems() } : []
        // What `originals/` holds that no record accounts for: listed beside the files too.
        async let unaccounted = Blocking.run { () throws -> [String] in
            var problems: [String] = []
            let unaccounted = try self.unaccountedFiles()
            for stray in unaccounted.strays {
                problems.append("stray file \(stray): no record names it (`album repair` adds it to the library)")
            }
            for leftover in unaccounted.leftovers {
                problems.append(
                    "leftover originals/\(leftover.path) from a save that crashed (`album repair` removes it)")
            }
            for folder in unaccounted.unlisted {
                problems.append(
                    "a folder of the library cannot be listed, so stray files and leftovers in it are not checked: \(folder)"
                )
            }
            return problems
        }
        let counter = try await Blocking.run { () throws -> VerificationCounter in
            // Files and bytes to read, as the index records them (a companion list that cannot be
            // read counts nothing: it is reported below); summed by SQLite, only the companion
            // lists read here.
            let (files, bytes) = try self.withIndex("read the catalog") { connection -> (Int, Int64) in
                let db = connection.index!.db
                let totals = try db.row("SELECT count(*), coalesce(sum(byte_size), 0) FROM asset")
                var files = Int(totals?.integer(0) ?? 0)
                var bytes = totals?.integer(1) ?? 0
                try db.forEachRow("SELECT companions FROM asset WHERE companions IS NOT NULL") { row in
                    let companions = row.text(0).flatMap(CatalogCompanion.list(fromJSON:)) ?? []
                    files += companions.count
                    bytes += companions.reduce(0) { $0 + $1.size }
                }
                return (files, bytes)
            }
            return VerificationCounter(total: files, totalBytes: bytes, report: progress)
        }
        // The assets a page at a time, in the order of their paths (a seek per page, the index
        // not held while files are read): memory bounded whatever the library's size. The files
        // of a page are read and hashed on every core, their problems told in the page's order;
        // the folders they are in opened once for the whole check.
        // Half a share of the process's open files for folders kept open; the rest for the files
        // read at once (one a core) and what SQLite opens.
        let share = DescriptorShares.process.take(upTo: 512)
        let folders = OpenedFolders(gate: gate, keeping: share / 2)
        defer {
            folders.closeAll()
            DescriptorShares.process.giveBack(share)
        }
        var problems: [String] = []
        var checked = 0
        var after = ""
        while true {
            let page = after
            let assets = try await Blocking.run {
                try self.withIndex("read the catalog") { connection in
                    try connection.index!.db.rows(Self.verifyPageSQL, [.text(page)])
                }
            }
            guard let last = assets.last?.text(0) else { break }
            after = last
            checked += assets.count
            let found = Locked([Result<[String], any Error>](repeating: .success([]), count: assets.count))
            await Blocking.forEach(assets.count) { index in
                let result = Result { try self.problems(of: assets[index], counter: counter, folders: folders) }
                found.withLock { $0[index] = result }
            }
            for result in found.withLock({ $0 }) { problems += try result.get() }
        }
        let catalog = try await standard
        let more = try await unaccounted
        return VerificationReport(checkedAssets: checked, problems: (thorough ?? catalog) + problems + more)
    }

    /// The assets after path `?1` in the order of their paths, a page of them: a seek in the
    /// index of `path`. What names an asset to its user is read only for one with a problem.
    static let verifyPageSQL =
        "SELECT path, byte_size, sha256, companions FROM asset WHERE path > ?1 ORDER BY path LIMIT 500"

    /// What is wrong with the files of the asset `row` (a row of `path, byte_size, sha256,
    /// companions`), each as a line of the report.
    private func problems(of row: Row, counter: VerificationCounter, folders: OpenedFolders) throws -> [String] {
        var problems: [String] = []
        guard let relative = row.text(0) else { throw Self.damagedRow(catalogPath) }
        // The asset's id and original name, read for its first problem (the path is unique).
        var named: (id: String, originalName: String?)?
        func asset() throws -> (id: String, originalName: String?) {
            if let named { return named }
            let found = try withIndex("read the catalog") { connection in
                try connection.index!.db.row("SELECT id, original_name FROM asset WHERE path = ?", [.text(relative)])
            }
            guard let id = found?.text(0) else { throw Self.damagedRow(catalogPath) }
            named = (id, found?.text(1))
            return (id, found?.text(1))
        }
        if let problem = fileProblem(relative, size: row.integer(1) ?? -1, sha256: row.text(2) ?? "", folders: folders)
        {
            let (id, originalName) = try asset()
            let known = try whatTheUserKnows(id, originalName: originalName)
            problems.append("asset \(id)\(known): \(problem)\(Self.restoreHint(id))")
        }
        counter.checked(size: row.integer(1) ?? 0)
        guard let text = row.text(3) else { return problems }
        guard let companions = CatalogCompanion.list(fromJSON: text) else {
            problems.append("asset \(try asset().id): its record of the files kept with it cannot be read")
            return problems
        }
        for companion in companions {
            defer { counter.checked(size: companion.size) }
            if let problem = fileProblem(
                companion.path, size: companion.size, sha256: companion.sha256, folders: folders)
            {
                let (id, originalName) = try asset()
                let known = try whatTheUserKnows(id, originalName: originalName)
                problems.append(
                    "asset \(id)\(known): its \(companion.role) \(companion.name): \(problem) (saving the photo again with it does not replace it; copy \(companion.name) back to \(companion.path) from a backup)"
                )
            }
        }
        return problems
    }

    /// The asset as its user knows it, for a problem's line: ` (IMG_0001.JPG in "Trips", "Best")`,
    /// ` (IMG_0001.JPG, in no album)`, ` (recently deleted)`.
    private func whatTheUserKnows(_ id: String, originalName: String?) throws -> String {
        let (titles, deleted) = try withIndex("read the catalog") { connection in
            let db = connection.index!.db
            let titles = try db.rows(
                "SELECT al.title FROM album_asset m JOIN album al ON al.id = m.album_id WHERE m.asset_id = ? ORDER BY al.title_key",
                [.text(id)]
            ).compactMap { $0.text(0) }
            let deleted = try db.rows("SELECT state FROM asset WHERE id = ?", [.text(id)]).first?.text(0) == "deleted"
            return (titles, deleted)
        }
        let albums =
            deleted
            ? "recently deleted"
            : titles.isEmpty ? "in no album" : "in " + titles.map { "\"\($0)\"" }.joined(separator: ", ")
        return " (" + (originalName.map { $0 + (titles.isEmpty || deleted ? ", " : " ") } ?? "") + albums + ")"
    }

    /// What is wrong with the library's file `relative`, if anything. It is read through the
    /// library's gate (``RemovalGate``): a link, a FIFO or a folder in its place, or a link on the
    /// way, is not the library's file.
    private func fileProblem(_ relative: String, size: Int64, sha256: String, folders: OpenedFolders) -> String? {
        guard let offset = Self.lastSlashOfAFileUnderOriginals(relative) else {
            return "\(relative) is not a file under originals/"
        }
        let slash = relative.utf8.index(relative.utf8.startIndex, offsetBy: offset)
        let opened: (file: FileSystem.Descriptor, size: UInt64)
        do {
            let folder = try folders.folder(String(relative[..<slash]))
            opened = try FileSystem.openFileWithSize(String(relative[relative.index(after: slash)...]), in: folder)
        } catch {
            switch error.errno {
            case ENOENT: return "missing file \(relative)"
            case ELOOP, ENOTDIR, EXDEV:
                return "\(relative) is not a regular file inside the library: a symbolic link (or lies beyond one)"
            case EISDIR: return "\(relative) is not a regular file inside the library: it is a folder"
            case EINVAL:
                return
                    "\(relative) is not a regular file inside the library (a FIFO, socket or device, or not a path under originals/)"
            default: return "\(relative) is not a regular file inside the library (\(error))"
            }
        }
        defer { FileSystem.close(opened.0) }
        guard Int64(opened.size) == size else { return "\(relative) is \(opened.size) bytes, the journal says \(size)" }
        let found: String
        do { found = try FileSystem.sha256(of: opened.0) } catch { return "\(relative) cannot be read: \(error)" }
        return found == sha256 ? nil : "\(relative) has SHA-256 \(found), the journal says \(sha256)"
    }

    /// Where (in UTF-8 bytes) the last `/` of `relative` is when it names a file under
    /// `originals/`: two names or more, the first `originals`, none empty, `.` or `..`; else
    /// `nil`. Read as bytes in one pass (a path's characters need no grapheme breaking, and
    /// `verify` reads a million).
    ///
    /// ```swift
    /// CatalogBackend.lastSlashOfAFileUnderOriginals("originals/3f/a.jpg")   // 12
    /// ```
    static func lastSlashOfAFileUnderOriginals(_ relative: String) -> Int? {
        var relative = relative
        return relative.withUTF8 { bytes in
            let prefix = "originals/".utf8
            guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return nil }
            var start = prefix.count
            var last = prefix.count - 1
            for index in prefix.count...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                let length = index - start
                let dot = UInt8(ascii: ".")
                if length == 0 || (length == 1 && bytes[start] == dot)
                    || (length == 2 && bytes[start] == dot && bytes[start + 1] == dot)
                {
                    return nil
                }
                if index < bytes.count { last = index }
                start = index + 1
            }
            return last
        }
    }

    /// What restores an asset whose file is missing or damaged: saving the same photo again.
    static func restoreHint(_ id: String) -> String {
        "; save the photo again to restore it (`album save --checksum FILE` reads the library's copy before it answers \"already in the library\"), or remove the asset: `album delete-asset \(id)`"
    }

    /// The standard check of the index and the journal, without replaying it (a replay of a
    /// million photos takes minutes; ``indexDisagreements()`` is the thorough one):
    /// - every page of the index read against its checksum, and its b-trees against each other's
    ///   shape (SQLite's `quick_check`, through a connection of its own, so the files are read
    ///   meanwhile): a program other than AlbumKit cannot change the index unseen;
    /// - every record of the journal against its checksum;
    /// - the journal's bytes up to the index's position against the digest the index keeps: the
    ///   journal is the one the index was built from, and unchanged since;
    /// - the records the index noted when it applied them, damaged or refused;
    /// - a snapshot that failed.
    ///
    /// What the index says of each asset is checked by the files' check: a row changed or added is
    /// a file missing or not matching, a row taken away a stray file.
    func catalogProblems() throws -> [String] {
        let held = try withIndex("check the catalog", locked: !isReadOnly) {
            connection -> (
                position: Int64, digest: JournalDigest, snapshotError: String?, acknowledged: Set<Int64>,
                noted: [(offset: Int64, affects: String)], integrity: [String]?
            ) in
            let index = connection.index!
            if !isReadOnly { try index.db.immediateTransaction { try index.catchUp(with: journal) } }
            // An index kept in memory (a library on read-only media) is checked here, on its own
            // connection; one on file through a connection of its own, below.
            return (
                try index.position(), try index.journalDigest(),
                try index.state(CatalogSchema.StateKey.snapshotError)?.textValue,
                Set(try index.db.rows("SELECT offset FROM acknowledged_damage").compactMap { $0.integer(0) }),
                try index.db.rows("SELECT offset, affects FROM journal_damage ORDER BY offset").compactMap { row in
                    row.integer(0).map { ($0, row.text(1) ?? "") }
                },
                index.path == catalogPath ? nil : try Self.quickCheck(index.db)
            )
        }
        var problems: [String] = []
        let integrity: [String]
        do {
            if let found = held.integrity {
                integrity = found
            } else {
                let db = try Database(path: catalogPath, mode: .readOnly)
                db.setBusyTimeout(milliseconds: busyTimeout)
                integrity = try Self.quickCheck(db)
            }
        } catch let error as SQLiteError where error.meansDamage {
            integrity = [error.message]
        }
        if integrity != ["ok"] {
            problems.append(Self.damagedCatalogProblem(integrity))
        }
        // Every record's checksum (read, not parsed), then the bytes the index was built from.
        let (_, recordsStart) = try journal.identity()
        let reading = try journal.forEachRecord(parsing: false) { _ in }
        let damaged = reading.damaged
        for record in damaged where !held.acknowledged.contains(record.offset) {
            problems.append(Self.damagedRecordProblem(record, in: journal))
        }
        // The reading's digest is of the bytes up to where it ended: the index's place, unless
        // records were appended since it caught up (then they are read again up to its place).
        let found =
            reading.end == held.position
            ? reading.digest : try journal.digest(from: recordsStart, to: held.position)
        if held.position > recordsStart, !damaged.contains(where: { $0.offset < held.position }), found != held.digest {
            problems.append(
                "the library's journal (\(journal.path)) is not the one the catalog was built from: its records up to byte \(held.position) changed since the catalog read them; `album repair` rebuilds the catalog from it"
            )
        }
        // The records the index noted as it applied them, each read again: damaged (it names files
        // elsewhere) or refused (a purge of photos not in recently deleted).
        let unreadable = Set(damaged.map(\.offset))
        for (offset, affects) in held.noted where !unreadable.contains(offset) && !held.acknowledged.contains(offset) {
            let reading = try journal.read(from: offset, limit: 64 << 10, parsing: true)
            if let record = reading.damaged.first, record.offset == offset {
                problems.append(Self.damagedRecordProblem(record, in: journal))
            } else if reading.entries.first?.offset == offset {
                problems.append(Self.refusedRecordProblem(at: offset, affects, in: journal))
            }
        }
        if let snapshotError = held.snapshotError {
            problems.append("the last snapshot of the catalog failed: \(snapshotError)")
        }
        return problems
    }

    /// SQLite's `quick_check` of `db`: `["ok"]`, or what it found (at most 5).
    private static func quickCheck(_ db: Database) throws -> [String] {
        try db.rows("PRAGMA quick_check(5)").compactMap { $0.text(0) }
    }

    /// What SQLite's check of the index found, as a line of the report.
    private static func damagedCatalogProblem(_ integrity: [String]) -> String {
        "the catalog is damaged (\(integrity.prefix(3).joined(separator: "; "))); `album repair` rebuilds it"
    }

    /// A whole record of `journal` at `offset` that was not applied (`affects` says what it was),
    /// as a line of the report.
    private static func refusedRecordProblem(at offset: Int64, _ affects: String, in journal: LibraryJournal) -> String
    {
        "the library's journal (\(journal.path)) has a record at byte \(offset) that was not applied: \(affects); every record after it is kept"
    }

    /// A damaged record of `journal`, as a line of the report.
    private static func damagedRecordProblem(_ record: LibraryJournal.DamagedRecord, in journal: LibraryJournal)
        -> String
    {
        "the library's journal (\(journal.path)) has a damaged record at byte \(record.offset)\(record.affects.map { ", about \($0)" } ?? ""); it is skipped, every record after it is kept"
    }

    /// Where the index is damaged or disagrees with the journal, and the journal's own damage:
    /// SQLite's `integrity_check`; the index compared with the journal replayed afresh in memory
    /// (under the journal's lock, so no change lands in between); records that fail their
    /// checksum, with what they affect; a snapshot that failed.
    func indexDisagreements() throws -> [String] {
        var problems: [String] = []
        let (integrity, difference, snapshotError, acknowledged, refused, damage) = try withIndex(
            "check the catalog", locked: !isReadOnly
        ) {
            connection -> (
                [String], CatalogDifference, String?, Set<Int64>, [(Int64, String)], [LibraryJournal.DamagedRecord]
            ) in
            let index = connection.index!
            if !isReadOnly { try index.db.immediateTransaction { try index.catchUp(with: journal) } }
            let integrity = try index.db.rows("PRAGMA integrity_check(5)").compactMap { $0.text(0) }
            // A temporary database (""): kept in SQLite's cache and written to a temporary file
            // beyond it, so replaying a large journal does not hold the whole index in memory.
            // Without a rollback journal: it is thrown away whatever happens, and a rollback
            // journal wrote every page it spilled twice (250 542 writes for 10 000 photos, 3 889
            // without).
            let replayed = try CatalogIndex.open(at: "", journalID: nil, create: true, busyTimeout: busyTimeout)
            try replayed.db.execute("PRAGMA journal_mode = OFF")
            // The damaged records are those this reading of the journal met: the one compared,
            // not a second reading of it (a second parse of every record).
            let damaged = try replayed.db.immediateTransaction { try replayed.catchUp(with: journal).damaged }
            return (
                integrity, try CatalogDifference(index: index.db, journal: replayed.db),
                try index.state(CatalogSchema.StateKey.snapshotError)?.textValue,
                Set(try index.db.rows("SELECT offset FROM acknowledged_damage").compactMap { $0.integer(0) }),
                // Records whole but refused when applied (a purge of photos not in recently
                // deleted), as the journal replayed afresh notes them.
                try replayed.db.rows("SELECT offset, affects FROM journal_damage ORDER BY offset").compactMap { row in
                    row.integer(0).map { ($0, row.text(1) ?? "") }
                },
                damaged
            )
        }
        if integrity != ["ok"] {
            problems.append(Self.damagedCatalogProblem(integrity))
        }
        if difference.lacking > 0 || difference.extra > 0 {
            problems.append(
                "the catalog disagrees with the library's journal (\(difference.lacking) fact(s) missing, \(difference.extra) not in the journal\(difference.example.map { ", e.g. \($0)" } ?? "")); `album repair` rebuilds it from the journal"
            )
        }
        for record in damage where !acknowledged.contains(record.offset) {
            problems.append(Self.damagedRecordProblem(record, in: journal))
        }
        let unreadable = Set(damage.map(\.offset))
        for (offset, affects) in refused where !unreadable.contains(offset) && !acknowledged.contains(offset) {
            problems.append(Self.refusedRecordProblem(at: offset, affects, in: journal))
        }
        if let snapshotError {
            problems.append("the last snapshot of the catalog failed: \(snapshotError)")
        }
        return problems
    }
}
