import Foundation

/// Detecting a catalog that lost saves, and cleaning up after crashed savers.
extension CatalogBackend {
    /// Refuses a catalog that lacks saves its journal records (reset, restored from an older copy,
    /// its WAL lost): `libraryCorrupt`, before anything is written.
    ///
    /// Every journal record is appended after its save committed, so a healthy catalog holds every
    /// asset the journal names. Only the records after the length the catalog remembers are read
    /// (the last saves), in a read transaction started after reading them.
    func checkAgainstJournal() throws {
        let journal = self.journal
        let remembered = try withDatabase("read the catalog") { db in
            try Self.rememberedJournalLength(db)
        }
        let records: [SaveJournal.Record]
        do { records = try journal.records(from: remembered) } catch {
            throw error.libraryError("read the library's journal")
        }
        let saved = SaveJournal.savedAssets(in: records)
        guard !saved.isEmpty else { return }
        let missing = try withDatabase("read the catalog") { db -> Int in
            var missing = 0
            for id in saved where try db.row("SELECT 1 FROM asset WHERE id = ? AND state = 'ready'", [.text(id)]) == nil
            {
                missing += 1
            }
            return missing
        }
        if missing > 0 {
            throw AlbumError.catalogDamaged(
                catalogPath,
                detail:
                    "it lacks \(missing) saved photo(s) that the library's journal records: it was reset, replaced by an older copy, or lost its -wal file"
            )
        }
    }

    /// How much of the journal this catalog is known to hold (0 for catalogs without the record).
    static func rememberedJournalLength(_ db: Database) throws -> Int64 {
        let hasTable = try db.row("SELECT 1 FROM sqlite_schema WHERE name = 'library_state'") != nil
        guard hasTable else { return 0 }
        return try db.row(
            "SELECT value FROM library_state WHERE key = ?", [.text(CatalogSchema.StateKey.journalLength)])?
            .integer(0) ?? 0
    }

    /// Records `count` committed saves in `library_state`: towards the next snapshot and, unless
    /// `journalLength` is `nil`, that the catalog holds every journal record before that length.
    static func recordSaves(_ count: Int64, journalLength: Int64?, in db: Database) throws {
        if let journalLength {
            try db.run(
                "INSERT OR REPLACE INTO library_state (key, value) VALUES (?, ?)",
                [.text(CatalogSchema.StateKey.journalLength), .integer(journalLength)])
        }
        try db.run(
            """
            INSERT INTO library_state (key, value) VALUES (?, ?)
            ON CONFLICT (key) DO UPDATE SET value = value + excluded.value
            """, [.text(CatalogSchema.StateKey.savesSinceSnapshot), .integer(count)])
    }

    /// The pending rows (id and file) whose owner is proved dead; each owner is asked once.
    func deadPendingRows() throws -> [(id: String, path: String)] {
        let owners = ownersPath
        var alive: [String: Bool] = [:]
        return try withDatabase("recover the library") { db in
            try db.rows("SELECT id, path, owner FROM asset WHERE state = 'pending'").compactMap { row in
                guard let id = row.text(0), let path = row.text(1) else { return nil }
                let owner = row.text(2) ?? ""
                if alive[owner] == nil { alive[owner] = ProcessOwner.isAlive(owner, in: owners) }
                return alive[owner]! ? nil : (id, path)
            }
        }
    }

    /// Removes what crashed savers left, and only that: pending rows (and the files they name) of
    /// owners proved dead, and hidden `.partial` staging files of owners proved dead. A file no row
    /// names is never removed here (`verify` reports it, ``repair()`` adopts it).
    func recover() throws {
        let owners = ownersPath
        let dead = try deadPendingRows()
        if !dead.isEmpty {
            // Between the read above and now, an owner may have committed its row as ready and then
            // exited (so it looked dead): remove a file only when its row is still pending, inside the
            // write transaction, so no saver can make it ready meanwhile. A crash before COMMIT leaves
            // the row pending without its file, which the next recovery removes.
            try withDatabase("recover the library") { db in
                try db.immediateTransaction {
                    for item in dead
                    where try db.run("DELETE FROM asset WHERE id = ? AND state = 'pending'", [.text(item.id)]) == 1 {
                        try FileSystem.unlink(root.appendingPathComponent(item.path).path)
                    }
                }
            }
        }
        // Hidden staging files of dead owners, looked for only when an owner may have left some
        // (``ProcessOwner``): listing every shard folder cost every opening ~1.3 ms per 1 000
        // photos. A leftover that cannot be removed now stays hidden and harmless, and its owner
        // file stays, so the next open retries.
        let deadOwners = ProcessOwner.owners(in: owners).filter { !ProcessOwner.isAlive($0, in: owners) }
        let mayHaveLeftovers = Set(deadOwners.filter { ProcessOwner.mayHaveStagedHiddenFiles($0, in: owners) })
        let uncleaned = mayHaveLeftovers.isEmpty ? [] : removeStagedLeftovers(of: mayHaveLeftovers)
        // A saver killed after its catalog commit and before its journal record, or a deletion
        // killed after its record and before it marked its rows: the journal, which rebuilds a lost
        // catalog, must hold those photos as the catalog does.
        if !deadOwners.isEmpty && !isReadOnly { _ = try appendJournalGaps(afterACrashOf: Set(deadOwners)) }
        // Owner files of processes proved dead above that left nothing behind (one that died since
        // is forgotten at a later open, after its leftovers were looked for).
        let pendingOwners = try withDatabase("recover the library") { db in
            Set(try db.rows("SELECT DISTINCT owner FROM asset WHERE state = 'pending'").compactMap { $0.text(0) })
        }
        for owner in deadOwners where !pendingOwners.contains(owner) && !uncleaned.contains(owner) {
            ProcessOwner.forget(owner, in: owners)
        }
    }

    /// Removes the hidden staging files of dead owners (only those of `deadOwners`, proved dead,
    /// when given); returns the owners some of whose files could not be removed. `album repair`
    /// looks for all of them.
    @discardableResult
    func removeStagedLeftovers(of deadOwners: Set<String>? = nil) -> Set<String> {
        var uncleaned = Set<String>()
        for leftover in stagedLeftovers(of: deadOwners) {
            do { try FileSystem.unlink(originalsPath + "/" + leftover.path) } catch { uncleaned.insert(leftover.owner) }
        }
        return uncleaned
    }

    /// Hidden staging files (`xx/.<owner>.<id>.partial`, as paths below `originals/`) whose owner is
    /// proved dead; when `deadOwners` is given, only theirs (proved dead already, and a dead owner
    /// stays dead).
    func stagedLeftovers(of deadOwners: Set<String>? = nil) -> [(path: String, owner: String)] {
        var found: [(path: String, owner: String)] = []
        var alive: [String: Bool] = [:]
        for shard in ((try? FileSystem.names(inDirectoryAt: originalsPath)) ?? []).sorted() {
            for name in ((try? FileSystem.names(inDirectoryAt: originalsPath + "/" + shard)) ?? []).sorted()
            where name.hasPrefix(".") {
                guard let staged = StagingName(parsing: name) else { continue }
                let isDead: Bool
                if let deadOwners {
                    isDead = deadOwners.contains(staged.owner)
                } else {
                    if alive[staged.owner] == nil {
                        alive[staged.owner] = ProcessOwner.isAlive(staged.owner, in: ownersPath)
                    }
                    isDead = alive[staged.owner] == false
                }
                if isDead { found.append((shard + "/" + name, staged.owner)) }
            }
        }
        return found
    }

    /// Files under `originals/` that no asset row names, hidden staging files excluded.
    func strayFiles() throws -> [String] {
        // List the files first, then read the rows: a saver inserts its pending row before it
        // publishes a file, so every listed file that belongs to a live save has a row by now.
        var listed: [String] = []
        for shard in ((try? FileSystem.names(inDirectoryAt: originalsPath)) ?? []).sorted() {
            for name in ((try? FileSystem.names(inDirectoryAt: originalsPath + "/" + shard)) ?? []).sorted()
            where !name.hasPrefix(".") {
                listed.append("originals/\(shard)/\(name)")
            }
        }
        let known = Set(
            try withDatabase("read the catalog") { db in
                try db.rows("SELECT path FROM asset").compactMap { $0.text(0) }
            })
        return listed.filter { !known.contains($0) }
    }
}
