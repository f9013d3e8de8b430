import Foundation

/// Checking every file against the catalog, and the catalog against the journal.
extension CatalogBackend {
    package func verify() async throws -> VerificationReport {
        try SHA256Hasher.requireAvailable(to: "verify the library \(root.path)")
        return try await Blocking.run { try self.verifyNow() }
    }

    private func verifyNow() throws -> VerificationReport {
        let disagreements = try catalogDisagreements()
        // The journal before the rows: a record is appended only after its save committed, so every
        // save it holds is in the rows read next. Read the other way round, a save committing in
        // between looked like a save the catalog had lost.
        let saved: Set<String>
        do { saved = SaveJournal.savedAssets(in: try journal.records()) } catch {
            throw error.libraryError("read the library's journal")
        }
        let assets = try withDatabase("read the catalog") { db in
            try db.rows("SELECT id, path, byte_size, sha256 FROM asset WHERE state = 'ready' ORDER BY path")
        }
        var problems = disagreements
        var known = Set<String>()
        for row in assets {
            guard let id = row.text(0), let relative = row.text(1) else { throw Self.damagedRow(catalogPath) }
            known.insert(id)
            let path = root.appendingPathComponent(relative).path
            let opened: (FileSystem.Descriptor, size: UInt64)
            do { opened = try FileSystem.openForReading(path) } catch {
                problems.append("asset \(id): missing file \(relative)\(Self.restoreHint(id))")
                continue
            }
            defer { FileSystem.close(opened.0) }
            guard Int64(opened.size) == row.integer(2) else {
                problems.append(
                    "asset \(id): \(relative) is \(opened.size) bytes, the catalog says \(row.integer(2) ?? -1)\(Self.restoreHint(id))"
                )
                continue
            }
            let sha: String
            do { sha = try FileSystem.sha256(of: opened.0) } catch {
                problems.append("asset \(id): \(relative) cannot be read: \(error)")
                continue
            }
            if sha != row.text(3) {
                problems.append(
                    "asset \(id): \(relative) has SHA-256 \(sha), the catalog says \(row.text(3) ?? "")\(Self.restoreHint(id))"
                )
            }
        }
        let strays = try strayFiles()
        for stray in strays {
            problems.append("stray file \(stray): no asset refers to it (`album repair` adds it to the library)")
        }
        for leftover in stagedLeftovers() {
            problems.append(
                "leftover originals/\(leftover.path) from a save that crashed (`album repair` removes it)")
        }
        if try journalHoldsWholeHistory() {
            var gaps = try journalGaps()
            if !gaps.records.isEmpty {
                // A save journals just after its catalog commit: one between the two is not a gap.
                // What is still missing a moment later is.
                Thread.sleep(forTimeInterval: 0.3)
                let again = try journalGaps()
                func key(_ record: SaveJournal.Record) -> [String?] {
                    [record.op.rawValue, record.album, record.asset, record.title]
                }
                let before = Set(gaps.records.map(key))
                gaps = (
                    gaps.missingAssets.intersection(again.missingAssets),
                    again.records.filter { before.contains(key($0)) }
                )
            }
            if !gaps.records.isEmpty {
                problems.append(
                    "the library's journal (journal/saves.jsonl) lacks \(gaps.missingAssets.count) of the catalog's \(known.count) saved photo(s), and \(max(0, gaps.records.count - gaps.missingAssets.count)) record(s) of albums and what they hold (it was removed, cut short or overwritten): should the catalog be lost, a repair could not rebuild them; `album repair` records them again"
                )
            }
        }
        let lost = saved.subtracting(known)
        if !lost.isEmpty {
            problems.append(
                "the catalog lacks \(lost.count) saved photo(s) that the library's journal records (it was reset or replaced by an older copy); run `album repair`"
            )
        }
        return VerificationReport(checkedAssets: assets.count, problems: problems)
    }

    /// What restores an asset whose file is missing or damaged: `album repair` cannot (the library
    /// holds no other copy), saving the same photo again does.
    static func restoreHint(_ id: String) -> String {
        "; save the photo again to restore it (or remove the asset: `album delete-asset \(id)`)"
    }

    /// Where the catalog is damaged or disagrees with the journal, one sentence each (empty when
    /// neither): SQLite's full `PRAGMA integrity_check` (structure, and every index against its
    /// table), then every journaled asset's file, size, SHA-256 and original name against its row —
    /// which catches garbled bytes inside values that the structure check cannot see.
    func catalogDisagreements() throws -> [String] {
        var problems: [String] = []
        let integrity = try withDatabase("check the catalog") { db in
            try db.rows("PRAGMA integrity_check(5)").compactMap { $0.text(0) }
        }
        if integrity != ["ok"] {
            problems.append(
                "the catalog is damaged (\(integrity.prefix(3).joined(separator: "; "))); run `album repair`")
        }
        let records: [SaveJournal.Record]
        do { records = try journal.records() } catch { throw error.libraryError("read the library's journal") }
        let current = SaveJournal.savedAssets(in: records)
        var latest: [String: SaveJournal.Record] = [:]
        for record in records where record.op == .save { if let id = record.asset { latest[id] = record } }
        var differing = 0
        var example: String?
        try withDatabase("read the catalog") { db in
            for (id, record) in latest where current.contains(id) {
                guard
                    let row = try db.row(
                        "SELECT path, byte_size, sha256, original_name FROM asset WHERE id = ? AND state = 'ready'",
                        [.text(id)])
                else { continue }  // missing rows are reported below
                var fields: [String] = []
                if let path = record.path, row.text(0) != path { fields.append("file") }
                if let size = record.size, row.integer(1) != size { fields.append("size") }
                if let sha = record.sha256, row.text(2) != sha { fields.append("SHA-256") }
                if let name = record.name, row.text(3) != name { fields.append("original name") }
                if !fields.isEmpty {
                    differing += 1
                    example = example ?? "asset \(id): \(fields.joined(separator: ", "))"
                }
            }
        }
        if differing > 0 {
            problems.append(
                "\(differing) asset row(s) differ from the library's journal (the catalog is damaged; e.g. \(example ?? "")); run `album repair`"
            )
        }
        return problems
    }

    // MARK: Snapshots

    /// Saves between two snapshots of the catalog.
    static let snapshotInterval: Int64 = 1000

    /// Copies the catalog to `snapshots/catalog.sqlite` (`VACUUM INTO`, then a rename) once
    /// ``snapshotInterval`` saves were committed since the last copy, or when there is none yet and
    /// the journal does not hold the catalog's whole history (a catalog older than its journal). A
    /// catalog created with its journal gets its first copy after ``snapshotInterval`` saves: a copy
    /// after the first save held nothing the journal does not, and cost every new library's first
    /// save a `VACUUM INTO` and five flushes.
    ///
    /// A failed snapshot does not fail the save that triggered it (the save is committed and
    /// journaled already); the count stays, so the next save tries again, and `repair` relies on the
    /// journal, which holds everything a snapshot does.
    func takeSnapshot(whenDue state: SnapshotState) {
        guard
            state.savesSinceSnapshot >= Self.snapshotInterval
                || (!state.journalHoldsAll && !FileManager.default.fileExists(atPath: snapshotPath))
        else { return }
        try? takeSnapshot()
    }

    /// The catalog's snapshot bookkeeping, read by transaction B after it counted its saves.
    struct SnapshotState {
        /// Saves committed since the last snapshot.
        var savesSinceSnapshot: Int64
        /// The journal holds the catalog's whole history (the catalog was created with it).
        var journalHoldsAll: Bool

        init(in db: Database) throws {
            func value(_ key: String) throws -> Int64? {
                try db.row("SELECT value FROM library_state WHERE key = ?", [.text(key)])?.integer(0)
            }
            savesSinceSnapshot = try value(CatalogSchema.StateKey.savesSinceSnapshot) ?? 0
            journalHoldsAll = try value(CatalogSchema.StateKey.journalFromStart) != nil
        }
    }

    /// Writes a consistent copy of the catalog to `snapshots/catalog.sqlite`.
    func takeSnapshot() throws {
        let directory = (snapshotPath as NSString).deletingLastPathComponent
        try FileSystem.makeDirectory(atPath: directory)
        let temporary = directory + "/" + StagingName(kind: "snapshot").fileName
        defer { try? FileSystem.unlink(temporary) }
        try withDatabase("snapshot the catalog") { db in
            try db.run("VACUUM INTO ?", [.text(temporary)])
            try db.run(
                "INSERT OR REPLACE INTO library_state (key, value) VALUES (?, 0)",
                [.text(CatalogSchema.StateKey.savesSinceSnapshot)])
        }
        let file = try FileSystem.openForAppending(temporary)
        defer { FileSystem.close(file) }
        try FileSystem.fsync(file)
        try FileSystem.rename(temporary, to: snapshotPath)
    }
}
