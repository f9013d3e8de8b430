import AlbumKitCore
import Foundation

/// Recognising files the catalog already holds before they are copied (``RecognitionCheck``): by
/// the original name, size and modification time it records (the name and size in the index, the
/// time on its copy of the file, which keeps the source's, as `cp -p` and rsync do), or by the
/// SHA-256 it records. The library's copy is looked at (`stat`): one missing or of another size is
/// not "already there", and the save puts it back. It is read (hashed) before "already there" is
/// answered when there is reason to doubt it: with `--checksum` (a content check), when its time
/// differs from the file's, or when it changed after it was saved (its status-change time later
/// than the save): a damaged copy is then saved again, which restores it.
extension CatalogBackend: FileRecognition {
    package func recognise(_ probes: [FileProbe?], in album: AlbumRequest?) async throws -> [RecognisedFile?] {
        guard probes.contains(where: { $0 != nil }) else { return probes.map { _ in nil } }
        return try await Blocking.run {
            try self.withIndex("look for the photos in the library") { connection in
                try self.recognise(probes, in: album, db: connection.index!.db)
            }
        }
    }

    /// The assets saved from files named as in the JSON list `?1`, A–Z in either case (the fold of
    /// `asset_by_name`; the caller keeps the exact names): a seek per name in `asset_by_name`.
    static let byNameSQL = """
        SELECT id, path, original_name, byte_size, companions, sha256, added_at FROM asset
        WHERE state = 'ready' AND original_name COLLATE NOCASE IN (SELECT value FROM json_each(?1))
        """

    private func recognise(_ probes: [FileProbe?], in album: AlbumRequest?, db: Database) throws -> [RecognisedFile?] {
        // One read transaction for every query: SQLite locks and checks the file once, not per query.
        try db.execute("BEGIN")
        // The transaction only read: its COMMIT only releases the shared lock and cannot fail for
        // want of one (SQLITE_BUSY concerns writers), so there is no failure here to report.
        defer { try? db.execute("COMMIT") }
        // The album a save would use, when it exists (a save into an id that is gone fails then).
        let albumID = album.flatMap { try? $0.find(in: CatalogAlbumDirectory(db: db)) }
        var found = [RecognisedFile?](repeating: nil, count: probes.count)
        // Whether the album holds it: one seek per file recognised, not a read of the whole album.
        func recognised(_ id: String, isDeleted: Bool = false) throws -> RecognisedFile {
            let isMember =
                try albumID.map { album in
                    try db.row(
                        "SELECT 1 FROM album_asset WHERE album_id = ? AND asset_id = ?", [.text(album), .text(id)])
                        != nil
                } ?? false
            return RecognisedFile(assetID: id, albumID: albumID, isMember: isMember, isDeleted: isDeleted)
        }
        // By name: the candidates of every probe in one pass over the index.
        let names = Set(probes.compactMap { $0.flatMap { $0.comparesContent ? nil : $0.name } })
        var byName:
            [String: [(id: String, path: String, size: Int64, companions: String?, sha256: String?, added: Double)]] =
                [:]
        if !names.isEmpty {
            let list = String(decoding: try JSONEncoder().encode(names.sorted()), as: UTF8.self)
            for row in try db.rows(Self.byNameSQL, [.text(list)]) {
                guard let id = row.text(0), let path = row.text(1), let name = row.text(2), let size = row.integer(3)
                else { throw Self.damagedRow(catalogPath) }
                byName[name, default: []].append((id, path, size, row.text(4), row.text(5), row.real(6) ?? 0))
            }
        }
        for index in probes.indices {
            guard let probe = probes[index] else { continue }
            if let sha256 = probe.sha256 {
                guard
                    let row = try db.row(
                        "SELECT id, path, state, companions FROM asset WHERE sha256 = ? AND byte_size = ? ORDER BY state = 'deleted' LIMIT 1",
                        [.text(sha256), .integer(probe.size)]),
                    let id = row.text(0), let path = row.text(1)
                else { continue }
                let isDeleted = row.text(2) == "deleted"
                // A copy missing or cut short is put back by the save (not "already there").
                guard isDeleted || libraryFile(path)?.size == probe.size else { continue }
                // A content check reads the library's copy too: a damaged one is saved again.
                guard isDeleted || hasIntactFile(path, size: probe.size, sha256: sha256) else { continue }
                found[index] = try recognised(id, isDeleted: isDeleted)
                found[index]?.companionsToUpdate = companionsToUpdate(probe, held: row.text(3))
            } else {
                var sourceSHA256: String??  // read once, when a time differs
                for candidate in byName[probe.name] ?? [] where candidate.size == probe.size {
                    guard let file = libraryFile(candidate.path), file.size == probe.size else { continue }
                    if file.modified != probe.modified {
                        // Same name and size, another time: a copy saved by the previous release,
                        // which kept the time of the save. The source is read (never the library's
                        // copy) and compared with the SHA-256 the journal records.
                        if sourceSHA256 == nil { sourceSHA256 = .some(probe.path.flatMap(Self.sha256(of:))) }
                        guard let sha256 = sourceSHA256 ?? nil, sha256 == candidate.sha256 else { continue }
                    }
                    // A copy whose time differs, or that changed after it was saved (a minute's
                    // grace for the save's own renames), is read before it is believed.
                    if file.modified != probe.modified || Double(file.changed.seconds) > candidate.added + 60 {
                        guard let sha256 = candidate.sha256,
                            hasIntactFile(candidate.path, size: probe.size, sha256: sha256)
                        else { continue }
                    }
                    found[index] = try recognised(candidate.id)
                    found[index]?.companionsToUpdate = companionsToUpdate(probe, held: candidate.companions)
                    break
                }
            }
        }
        return found
    }

    /// The names of `probe`'s companions the asset does not hold as they are (`held`: its
    /// companions as the index lists them): by content when the probe was read (a companion of the
    /// same size and SHA-256), else by name, size and the modification time its copy keeps.
    private func companionsToUpdate(_ probe: FileProbe, held: String?) -> [String] {
        guard !probe.companions.isEmpty else { return [] }
        let recorded = held.flatMap(CatalogCompanion.list(fromJSON:)) ?? []
        return probe.companions.filter { companion in
            !recorded.contains { kept in
                if let sha256 = companion.sha256 { return kept.sha256 == sha256 && kept.size == companion.size }
                guard kept.name == companion.name, kept.size == companion.size, let file = libraryFile(kept.path)
                else { return false }
                return file.size == companion.size && file.modified == companion.modified
            }
        }.map(\.name)
    }

    /// The SHA-256 of the file at `path`; `nil` when it cannot be read (then it is saved as usual,
    /// and the save reports why).
    private static func sha256(of path: FileSystemPath) -> String? {
        // Unreadable: not recognised, saved as usual (see above).
        guard let (file, _) = try? FileSystem.openForReading(path) else { return nil }
        defer { FileSystem.close(file) }
        // A read that fails half-way is unreadable too: not recognised, saved as usual.
        return try? FileSystem.sha256(of: file)
    }

    /// The library's file `relative` (an asset's path), when it is a regular file reached beneath
    /// the library's folder without a link (``RemovalGate``).
    private func libraryFile(_ relative: String) -> FileStatus? {
        guard let status = gate.status(of: relative), status.kind == .regular
        else { return nil }
        return status
    }
}

extension CatalogBackend: OriginalReading {
    package func storedSHA256(ofAssetWithID id: String) async throws -> String? {
        try await Blocking.run {
            try self.withOriginalFile(ofAssetWithID: id) { file, _ in try FileSystem.sha256(of: file) }
        }
    }

    /// Reads the asset's file in `originals/`.
    package func readOriginal<T: Sendable>(
        ofAssetWithID id: String, _ body: @escaping @Sendable (any ByteSource) throws -> T
    ) async throws -> T? {
        try await Blocking.run {
            try self.withOriginalFile(ofAssetWithID: id) { file, size in
                try body(FileByteSource(file: file, size: size))
            }
        }
    }

    /// Runs `body` with asset `id`'s file open for reading, and its size; errors name the file.
    private func withOriginalFile<T>(
        ofAssetWithID id: String, _ body: (FileSystem.Descriptor, UInt64) throws -> T
    ) throws -> T {
        let path = try withIndex("find the asset") { connection in
            try connection.index!.db.row(
                "SELECT path FROM asset WHERE id = ? AND state = 'ready'", [.text(id)])?.text(0)
        }
        guard let path else {
            throw AlbumError(.assetNotFound, "There is no asset with the identifier \(id) in \(root.path).")
        }
        do {
            // Beneath the library's folder only: a link in its place or on the way is refused.
            let (file, size) = try gate.openFileForReading(path)
            defer { FileSystem.close(file) }
            return try body(file, size)
        } catch {
            throw AlbumError.wrap(error, file: root.path + "/" + path)
        }
    }

    package func storedCompanionSHA256s(ofAssetWithID id: String) async throws -> Set<String> {
        try await Blocking.run {
            let text = try self.withIndex("find the asset") { connection in
                try connection.index!.db.row(
                    "SELECT companions FROM asset WHERE id = ? AND state = 'ready'", [.text(id)])?.text(0)
            }
            var found = Set<String>()
            for companion in text.flatMap(CatalogCompanion.list(fromJSON:)) ?? [] {
                let path = self.root.path + "/" + companion.path
                do {
                    let (file, _) = try self.gate.openFileForReading(companion.path)
                    defer { FileSystem.close(file) }
                    found.insert(try FileSystem.sha256(of: file))
                } catch {
                    throw AlbumError.wrap(error, file: path)
                }
            }
            return found
        }
    }
}

extension CatalogBackend: StoredCopyReading {
    /// The asset's file in `originals/` and its companions, each opened without following a
    /// symbolic link (one is no copy the library holds) and read back now.
    package func storedCopies(ofAssetWithID id: String) async throws -> StoredCopies? {
        try await Blocking.run {
            let row = try self.withIndex("find the asset") { connection in
                try connection.index!.db.row(
                    "SELECT path, companions FROM asset WHERE id = ? AND state = 'ready'", [.text(id)])
            }
            guard let row, let path = row.text(0) else {
                throw AlbumError(.assetNotFound, "There is no asset with the identifier \(id) in \(self.root.path).")
            }
            let companions = row.text(1).flatMap(CatalogCompanion.list(fromJSON:)) ?? []
            return StoredCopies(
                original: try self.storedCopy(path),
                companions: try companions.map { try self.storedCopy($0.path) }, libraryRoot: self.root.path)
        }
    }

    /// The library's file `relative`, read back now, reached beneath the library's folder without
    /// a link at any level (``RemovalGate``).
    private func storedCopy(_ relative: String) throws -> StoredCopy {
        do {
            let (file, _) = try gate.openFileForReading(relative)
            defer { FileSystem.close(file) }
            let version = try FileSystem.version(of: file)
            return StoredCopy(sha256: try FileSystem.sha256(of: file), file: version.id)
        } catch let error as SystemError {
            throw error.libraryError("read the library's copy back")
        }
    }
}
