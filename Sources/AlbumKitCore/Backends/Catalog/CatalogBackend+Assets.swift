import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Listing the whole catalog, moving assets between albums, deleting assets.
///
/// Deleting is crash-safe in steps, reusing the save protocol's `pending` state:
/// 0. the journal records the deletions (so a catalog without these assets is not taken for one
///    that lost saves, and a repair does not bring them back);
/// 1. one transaction marks the rows `pending`, owned by this (registered) process, and removes
///    them from their albums: they vanish from every listing at once;
/// 2. the files are unlinked and their shard directories flushed;
/// 3. one transaction deletes the rows.
/// A crash after 1 or 2 leaves pending rows whose owner is provably gone, which the next opening
/// removes with their files (the recovery every save relies on): at no point is there a ready row
/// without its file, and a file is removed only while its row still exists.
extension CatalogBackend {
    typealias Membership = (album: String, asset: String, position: Int64, addedAt: Double)

    /// The SQL that computes ``AssetOrder/sortKey(of:)`` for a row of `asset s`.
    private static func sortKeySQL(_ order: AssetOrder) -> String {
        switch order {
        case .dateAdded:
            "printf('%017.6f', max(s.added_at, 0))"
        case .captureDate:
            """
            CASE WHEN length(json_extract(s.metadata, '$.captureDate')) >= 19
            THEN substr(json_extract(s.metadata, '$.captureDate'), 1, 19)
            ELSE strftime('%Y-%m-%dT%H:%M:%S', s.added_at, 'unixepoch') END
            """
        }
    }

    package func assets(in order: AssetOrder, after cursor: AssetCursor?, limit: Int) async throws -> AssetPage {
        try await Blocking.run {
            try self.withDatabase("list the library") { db in
                let rows = try db.rows(
                    """
                    SELECT * FROM (
                        SELECT s.id, s.original_name, s.kind, s.byte_size, s.added_at, s.sha256, s.path, s.metadata,
                               \(Self.sortKeySQL(order)) AS sort_key
                        FROM asset s WHERE s.state = 'ready')
                    WHERE ?1 IS NULL OR (sort_key, id) > (?1, ?2)
                    ORDER BY sort_key, id LIMIT ?3
                    """,
                    [cursor.map { .text($0.key) } ?? .null, .text(cursor?.id ?? ""), .integer(Int64(limit) + 1)])
                let page = Array(rows.prefix(limit))
                var next: String?
                if rows.count > limit, let last = page.last, let key = last.text(8), let id = last.text(0) {
                    next = AssetCursor(key: key, id: id).token
                }
                return AssetPage(assets: try page.map(self.assetInfo), nextCursor: next)
            }
        }
    }

    package func addAssets(_ ids: [String], toAlbumWithID albumID: String) async throws -> [String] {
        try checkWritable("add to the album")
        return try await Blocking.run {
            let now = Date().timeIntervalSince1970
            let records = try self.withDatabase("add to the album") { db in
                try db.immediateTransaction {
                    try Self.requireAlbum(db, albumID)
                    try Self.requireReady(db, ids)
                    var position =
                        try db.row(
                            "SELECT coalesce(max(position), 0) FROM album_asset WHERE album_id = ?", [.text(albumID)])?
                        .integer(0) ?? 0
                    var records: [SaveJournal.Record] = []
                    for id in ids
                    where try db.row(
                        "SELECT 1 FROM album_asset WHERE album_id = ? AND asset_id = ?", [.text(albumID), .text(id)])
                        == nil
                    {
                        position += 1
                        try db.run(
                            "INSERT INTO album_asset (album_id, asset_id, position, added_at) VALUES (?, ?, ?, ?)",
                            [.text(albumID), .text(id), .integer(position), .real(now)])
                        if var record = try Self.saveRecord(db, id) {
                            record.album = albumID
                            record.at = now
                            records.append(record)
                        }
                    }
                    return records
                }
            }
            try self.journalChange(records)
            return ids
        }
    }

    package func removeAssets(_ ids: [String], fromAlbumWithID albumID: String) async throws {
        try checkWritable("remove from the album")
        try await Blocking.run {
            try self.withDatabase("remove from the album") { db in
                try db.immediateTransaction {
                    try Self.requireAlbum(db, albumID)
                    for id in ids
                    where try db.run(
                        "DELETE FROM album_asset WHERE album_id = ? AND asset_id = ?", [.text(albumID), .text(id)]) == 0
                    {
                        // Rolled back: nothing is removed when one of them was not there.
                        throw AlbumError(.assetNotFound, "The asset \(id) is not in the album.")
                    }
                }
            }
            let now = Date().timeIntervalSince1970
            try self.journalChange(
                ids.map { SaveJournal.Record(op: .removeFromAlbum, asset: $0, album: albumID, at: now) })
        }
    }

    package func deleteAssets(_ ids: [String]) async throws -> [AssetDeletion] {
        try checkWritable("delete the assets")
        return try await Blocking.run { try self.deleteNow(ids) }
    }

    private func deleteNow(_ ids: [String]) throws -> [AssetDeletion] {
        let owner = ProcessOwner.token
        // 0. Checked, then recorded; this process proves it is alive before its token is written.
        let kept = try withDatabase("delete the assets") { db in
            try Self.requireReady(db, ids)
            return try ids.compactMap { try Self.saveRecord(db, $0) }
        }
        do { try ProcessOwner.register(in: ownersPath) } catch { throw error.libraryError("delete the assets") }
        let now = Date().timeIntervalSince1970
        try journalChange(ids.map { SaveJournal.Record(op: .deleteAsset, asset: $0, at: now, owner: owner) })

        // 1. Out of every listing, owned by this process until the files are gone.
        let paths: [String: String]
        let memberships: [Membership]
        do {
            (paths, memberships) = try withDatabase("delete the assets") { db in
                try db.immediateTransaction { try Self.markDeleting(db, ids, owner: owner) }
            }
        } catch {
            try? journal.append(kept)  // nothing changed: the journal says so again
            throw error
        }

        // 2. The files, then their directories, durably.
        var directories: [String: FileSystem.Descriptor] = [:]
        defer { for directory in directories.values { FileSystem.close(directory) } }
        do {
            for id in ids {
                guard let relative = paths[id] else { continue }
                let shard = (relative as NSString).deletingLastPathComponent
                if directories[shard] == nil {
                    do {
                        directories[shard] = try FileSystem.openDirectory(root.appendingPathComponent(shard).path)
                    } catch  where error.errno == ENOENT { continue }
                }
                if let directory = directories[shard] {
                    try FileSystem.unlink((relative as NSString).lastPathComponent, in: directory)
                }
            }
            for directory in directories.values { try FileSystem.fsync(directory) }
        } catch {
            // The assets whose file is still there get their rows and albums back.
            let restored = restore(ids, memberships: memberships, owner: owner)
            var records = kept.filter { restored.contains($0.asset ?? "") }
            for membership in memberships where restored.contains(membership.asset) {
                guard var record = kept.first(where: { $0.asset == membership.asset }) else { continue }
                record.album = membership.album
                record.at = membership.addedAt
                records.append(record)
            }
            try? journal.append(records)
            throw error.libraryError("delete the assets")
        }

        // 3. The rows.
        try withDatabase("delete the assets") { db in
            try db.immediateTransaction {
                for id in ids {
                    try db.run(
                        "DELETE FROM asset WHERE id = ? AND state = 'pending' AND owner = ?", [.text(id), .text(owner)])
                }
            }
        }
        return ids.map { AssetDeletion(id: $0) }
    }

    /// Step 1 inside its transaction: every id checked, memberships kept for an undo, rows pending.
    private static func markDeleting(
        _ db: Database, _ ids: [String], owner: String
    ) throws -> ([String: String], [Membership]) {
        try requireReady(db, ids)
        var paths: [String: String] = [:]
        var memberships: [Membership] = []
        for id in ids {
            paths[id] = try db.row("SELECT path FROM asset WHERE id = ?", [.text(id)])?.text(0)
            for row in try db.rows(
                "SELECT album_id, position, added_at FROM album_asset WHERE asset_id = ?", [.text(id)])
            {
                guard let album = row.text(0) else { continue }
                memberships.append((album, id, row.integer(1) ?? 0, row.real(2) ?? 0))
            }
            try db.run("DELETE FROM album_asset WHERE asset_id = ?", [.text(id)])
            try db.run(
                "UPDATE asset SET state = 'pending', owner = ? WHERE id = ? AND state = 'ready'",
                [.text(owner), .text(id)])
        }
        return (paths, memberships)
    }

    /// Undoes step 1 for the assets whose file is still there, and returns them; those already
    /// unlinked stay pending, for the recovery to finish.
    private func restore(_ ids: [String], memberships: [Membership], owner: String) -> Set<String> {
        var restored = Set<String>()
        try? withDatabase("undo the deletion") { db in
            try db.immediateTransaction {
                for id in ids {
                    guard let path = try db.row("SELECT path FROM asset WHERE id = ?", [.text(id)])?.text(0),
                        Self.fileExists(root.appendingPathComponent(path).path),
                        try db.run(
                            "UPDATE asset SET state = 'ready', owner = NULL WHERE id = ? AND state = 'pending' AND owner = ?",
                            [.text(id), .text(owner)]) == 1
                    else { continue }
                    restored.insert(id)
                    for item in memberships where item.asset == id {
                        try db.run(
                            """
                            INSERT OR IGNORE INTO album_asset (album_id, asset_id, position, added_at)
                            SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM album WHERE id = ?1)
                            """, [.text(item.album), .text(id), .integer(item.position), .real(item.addedAt)])
                    }
                }
            }
        }
        return restored
    }

    private static func fileExists(_ path: String) -> Bool {
        guard let (file, _) = try? FileSystem.openForReading(path) else { return false }
        FileSystem.close(file)
        return true
    }

    /// A journal `save` record for asset `id`, as its save wrote it (without an album).
    private static func saveRecord(_ db: Database, _ id: String) throws -> SaveJournal.Record? {
        guard
            let row = try db.row(
                "SELECT path, original_name, byte_size, sha256, added_at FROM asset WHERE id = ?", [.text(id)])
        else { return nil }
        return SaveJournal.Record(
            op: .save, asset: id, path: row.text(0), name: row.text(1), size: row.integer(2), sha256: row.text(3),
            added: row.real(4))
    }

    private func journalChange(_ records: [SaveJournal.Record]) throws {
        do { try journal.append(records) } catch { throw error.libraryError("record the change in the journal") }
    }

    private func checkWritable(_ what: String) throws {
        guard !isReadOnly else {
            throw AlbumError(
                .libraryUnwritable, "Cannot \(what): the library \(root.path) is on read-only media or not writable.")
        }
    }

    private static func requireAlbum(_ db: Database, _ id: String) throws {
        guard try db.row("SELECT 1 FROM album WHERE id = ?", [.text(id)]) != nil else {
            throw AlbumError(.albumNotFound, "There is no album with the identifier \(id).")
        }
    }

    private static func requireReady(_ db: Database, _ ids: [String]) throws {
        for id in ids where try db.row("SELECT 1 FROM asset WHERE id = ? AND state = 'ready'", [.text(id)]) == nil {
            throw AlbumError(.assetNotFound, "There is no asset with the identifier \(id) in the library.")
        }
    }
}
