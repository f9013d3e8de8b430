import Foundation

/// Checking every file against the catalog, and the catalog against the journal.
extension CatalogBackend {
    package func verify() async throws -> VerificationReport {
        try await Blocking.run { try self.verifyNow() }
    }

    private func verifyNow() throws -> VerificationReport {
        let assets = try withDatabase("read the catalog") { db in
            try db.execute("PRAGMA foreign_keys = ON")
            let integrity = try db.rows("PRAGMA quick_check").compactMap { $0.text(0) }
            guard integrity == ["ok"] else {
                throw AlbumError.catalogDamaged(catalogPath, detail: integrity.prefix(3).joined(separator: "; "))
            }
            return try db.rows("SELECT id, path, byte_size, sha256 FROM asset WHERE state = 'ready' ORDER BY path")
        }
        var problems: [String] = []
        var known = Set<String>()
        for row in assets {
            guard let id = row.text(0), let relative = row.text(1) else { throw Self.damagedRow(catalogPath) }
            known.insert(id)
            let path = root.appendingPathComponent(relative).path
            let opened: (FileSystem.Descriptor, size: UInt64)
            do { opened = try FileSystem.openForReading(path) } catch {
                problems.append("asset \(id): missing file \(relative)")
                continue
            }
            defer { FileSystem.close(opened.0) }
            guard Int64(opened.size) == row.integer(2) else {
                problems.append(
                    "asset \(id): \(relative) is \(opened.size) bytes, the catalog says \(row.integer(2) ?? -1)")
                continue
            }
            let sha: String
            do { sha = try FileSystem.sha256(of: opened.0) } catch {
                problems.append("asset \(id): \(relative) cannot be read: \(error)")
                continue
            }
            if sha != row.text(3) {
                problems.append("asset \(id): \(relative) has SHA-256 \(sha), the catalog says \(row.text(3) ?? "")")
            }
        }
        let strays = try strayFiles()
        for stray in strays {
            problems.append("stray file \(stray): no asset refers to it (`album repair` adds it to the library)")
        }
        for leftover in stagedLeftovers() {
            problems.append(
                "leftover originals/\(leftover) from a save that crashed (removed when the library is next opened)")
        }
        let saved: Set<String>
        do { saved = SaveJournal.savedAssets(in: try journal.records()) } catch {
            throw error.libraryError("read the library's journal")
        }
        let lost = saved.subtracting(known)
        if !lost.isEmpty {
            problems.append(
                "the catalog lacks \(lost.count) saved photo(s) that the library's journal records (it was reset or replaced by an older copy); run `album repair`"
            )
        }
        return VerificationReport(checkedAssets: assets.count, problems: problems)
    }

    // MARK: Snapshots

    /// Saves between two snapshots of the catalog.
    static let snapshotInterval: Int64 = 1000

    /// Copies the catalog to `snapshots/catalog.sqlite` (`VACUUM INTO`, then a rename) once
    /// ``snapshotInterval`` saves were committed since the last copy, or when there is none yet.
    ///
    /// A failed snapshot does not fail the save that triggered it (the save is committed and
    /// journaled already); the count stays, so the next save tries again, and `repair` relies on the
    /// journal, which holds everything a snapshot does.
    func takeSnapshotIfDue(after saves: Int) {
        let due =
            (try? withDatabase("read the catalog") { db in
                (try db.row(
                    "SELECT value FROM library_state WHERE key = ?", [.text(CatalogSchema.StateKey.savesSinceSnapshot)])?
                    .integer(0) ?? 0) >= Self.snapshotInterval
            }) ?? false
        guard due || !FileManager.default.fileExists(atPath: snapshotPath) else { return }
        try? takeSnapshot()
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
