import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Listing the whole catalog, moving assets between albums, deleting assets.
///
/// Deleting is crash-safe in three steps, reusing the save protocol's `pending` state:
/// 1. one transaction marks the rows `pending`, owned by this process, and removes them from
///    their albums (they vanish from every listing at once);
/// 2. the files are unlinked and their shard directories flushed;
/// 3. one transaction deletes the rows.
/// A crash after 1 or 2 leaves pending rows whose owner is gone, which the next opening removes
/// with their files (the recovery every save already relies on): at no point is there a ready row
/// without its file, and a file is removed only while its row still exists.
extension CatalogBackend {
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
                let page = rows.prefix(limit)
                let next =
                    rows.count > limit ? page.last.map { AssetCursor(key: $0.text(8)!, id: $0.text(0)!).token } : nil
                return AssetPage(assets: page.map(self.assetInfo), nextCursor: next)
            }
        }
    }

    package func addAssets(_ ids: [String], toAlbumWithID albumID: String) async throws -> [String] {
        try checkWritable("add to the album")
        return try await Blocking.run {
            try self.withDatabase("add to the album") { db in
                try db.immediateTransaction {
                    try Self.requireAlbum(db, albumID)
                    try Self.requireReady(db, ids)
                    var position =
                        try db.row(
                            "SELECT coalesce(max(position), 0) FROM album_asset WHERE album_id = ?", [.text(albumID)])?
                        .integer(0) ?? 0
                    let now = Date().timeIntervalSince1970
                    for id in ids
                    where try db.row(
                        "SELECT 1 FROM album_asset WHERE album_id = ? AND asset_id = ?", [.text(albumID), .text(id)])
                        == nil
                    {
                        position += 1
                        try db.run(
                            "INSERT INTO album_asset (album_id, asset_id, position, added_at) VALUES (?, ?, ?, ?)",
                            [.text(albumID), .text(id), .integer(position), .real(now)])
                    }
                    return ids
                }
            }
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
        }
    }

    package func deleteAssets(_ ids: [String]) async throws -> [AssetDeletion] {
        try checkWritable("delete the assets")
        return try await Blocking.run { try self.deleteNow(ids) }
    }

    private func deleteNow(_ ids: [String]) throws -> [AssetDeletion] {
        let owner = ProcessToken.current
        typealias Membership = (album: String, asset: String, position: Int64, addedAt: Double)
        // 1. Out of every listing, owned by this process until the files are gone.
        let (paths, memberships): ([String: String], [Membership]) = try withDatabase("delete the assets") { db in
            try db.immediateTransaction {
                try Self.requireReady(db, ids)
                var paths: [String: String] = [:]
                var memberships: [Membership] = []
                for id in ids {
                    paths[id] = try db.row("SELECT path FROM asset WHERE id = ?", [.text(id)])?.text(0)
                    memberships += try db.rows(
                        "SELECT album_id, position, added_at FROM album_asset WHERE asset_id = ?", [.text(id)]
                    ).map { ($0.text(0)!, id, $0.integer(1) ?? 0, $0.real(2) ?? 0) }
                    try db.run("DELETE FROM album_asset WHERE asset_id = ?", [.text(id)])
                    try db.run(
                        "UPDATE asset SET state = 'pending', owner = ? WHERE id = ? AND state = 'ready'",
                        [.text(owner), .text(id)])
                }
                return (paths, memberships)
            }
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
                    } catch
                        where error.errno == ENOENT
                    { continue }
                }
                try FileSystem.unlink((relative as NSString).lastPathComponent, in: directories[shard]!)
            }
            for directory in directories.values { try FileSystem.fsync(directory) }
        } catch {
            // Nothing was lost yet for the files still there: give those back their rows and albums.
            restore(ids, memberships: memberships, owner: owner)
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

    /// Undoes step 1 for the assets whose file is still there; those already unlinked stay
    /// pending, for the recovery to finish.
    private func restore(
        _ ids: [String], memberships: [(album: String, asset: String, position: Int64, addedAt: Double)], owner: String
    ) {
        try? withDatabase("undo the deletion") { db in
            try db.immediateTransaction {
                for id in ids {
                    guard let path = try db.row("SELECT path FROM asset WHERE id = ?", [.text(id)])?.text(0),
                        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
                    else { continue }
                    try db.run(
                        "UPDATE asset SET state = 'ready', owner = NULL WHERE id = ? AND state = 'pending' AND owner = ?",
                        [.text(id), .text(owner)])
                    for item in memberships where item.asset == id {
                        try db.run(
                            "INSERT OR IGNORE INTO album_asset (album_id, asset_id, position, added_at) SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM album WHERE id = ?)",
                            [
                                .text(item.album), .text(id), .integer(item.position), .real(item.addedAt),
                                .text(item.album),
                            ])
                    }
                }
            }
        }
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
