import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Listing the whole catalog, moving assets between albums, deleting and restoring assets: each
/// change one record of the journal.
extension CatalogBackend: AssetDeleting, PermanentDeleting, RecentlyDeletedKeeping {
    package func addAssets(_ ids: [String], toAlbumWithID albumID: String) async throws -> [String] {
        try await Blocking.run {
            try self.record("add to the album") { recorder in
                try Self.requireAlbum(recorder.db, albumID)
                try Self.requireAssets(recorder.db, ids)
                var seen = Set<String>()
                let missing = try ids.filter { id in
                    try seen.insert(id).inserted
                        && recorder.db.row(
                            "SELECT 1 FROM album_asset WHERE album_id = ? AND asset_id = ?",
                            [.text(albumID), .text(id)])
                            == nil
                }
                if !missing.isEmpty {
                    try recorder.record(
                        .addToAlbum(album: albumID, assets: missing, at: LibraryClock.now().timeIntervalSince1970))
                }
            }
            return ids
        }
    }

    package func removeAssets(_ ids: [String], fromAlbumWithID albumID: String) async throws {
        try await Blocking.run {
            try self.record("remove from the album") { recorder in
                try Self.requireAlbum(recorder.db, albumID)
                for id in ids
                where try recorder.db.row(
                    "SELECT 1 FROM album_asset WHERE album_id = ? AND asset_id = ?", [.text(albumID), .text(id)]) == nil
                {
                    // Nothing is removed when one of them is not there.
                    throw AlbumError(.assetNotFound, "The asset \(id) is not in the album.")
                }
                try recorder.record(.removeFromAlbum(album: albumID, assets: ids))
            }
        }
    }

    /// Moves the assets to the library's recently deleted: they leave every listing at once, their
    /// files stay, and ``restoreAssets(_:)`` brings them back into the albums they were in.
    package func deleteAssets(_ ids: [String]) async throws -> [AssetDeletion] {
        try await deleteAssets(ids, permanently: false)
    }

    package func deleteAssetsPermanently(_ ids: [String]) async throws -> [AssetDeletion] {
        try await deleteAssets(ids, permanently: true)
    }

    /// Deletes the assets: into recently deleted, or (`permanently`) for good — the record first,
    /// then the files.
    ///
    /// - Throws: `.assetNotFound` naming the first unknown id (nothing deleted).
    package func deleteAssets(_ ids: [String], permanently: Bool) async throws -> [AssetDeletion] {
        try await Blocking.run {
            try self.record("delete the assets") { recorder in
                try Self.requireAssets(recorder.db, ids, includingDeleted: permanently)
                let unique = Array(NSOrderedSet(array: ids)) as? [String] ?? ids
                let now = LibraryClock.now().timeIntervalSince1970
                guard permanently else { return try recorder.record(.deleteAssets(unique, at: now)) }
                // A purge removes only what is in recently deleted (``CatalogIndex/apply(_:at:)``):
                // the others go there first, in the same commit.
                let shown = try unique.filter { id in
                    try recorder.db.row("SELECT 1 FROM asset WHERE id = ? AND state = 'ready'", [.text(id)]) != nil
                }
                if !shown.isEmpty { try recorder.record(.deleteAssets(shown, at: now)) }
                try recorder.record(.purgeAssets(unique))
            }
            return ids.map { AssetDeletion(id: $0) }
        }
    }

    /// Brings recently deleted assets back, into the albums they were in.
    ///
    /// - Throws: `.assetNotFound` for an id that is not recently deleted (nothing restored).
    package func restoreAssets(_ ids: [String]) async throws {
        try await Blocking.run {
            try self.record("restore the assets") { recorder in
                for id in ids
                where try recorder.db.row("SELECT 1 FROM asset WHERE id = ? AND state = 'deleted'", [.text(id)]) == nil
                {
                    throw AlbumError(.assetNotFound, "There is no recently deleted asset with the identifier \(id).")
                }
                try recorder.record(.restoreAssets(ids))
            }
        }
    }

    /// The recently deleted assets, most recently deleted first, with when each was deleted.
    package func recentlyDeletedAssets() async throws -> [RecentlyDeletedAsset] {
        try await Blocking.run {
            try self.withIndex("list recently deleted") { connection in
                try connection.index!.db.rows(
                    """
                    SELECT s.id, s.original_name, s.kind, s.byte_size, s.added_at, s.sha256, s.path, s.metadata, s.favorite, s.companions, s.deleted_at,
                    (SELECT json_group_array(a.title) FROM album_asset m JOIN album a ON a.id = m.album_id
                     WHERE m.asset_id = s.id)
                    FROM asset s WHERE s.state = 'deleted' ORDER BY s.deleted_at DESC, s.id
                    """
                ).map { row in
                    var item = RecentlyDeletedAsset(
                        asset: try self.assetInfo(row), deletedAt: Date(timeIntervalSince1970: row.real(10) ?? 0))
                    // The albums it keeps its place in (restoring puts it back there).
                    let titles = row.text(11).map { Data($0.utf8) }
                    // A damaged list of titles only loses where the photo came from, never the photo.
                    item.albumTitles = titles.flatMap { try? JSONDecoder().decode([String].self, from: $0) } ?? []
                    return item
                }
            }
        }
    }

    /// Deletes for good the recently deleted assets deleted before `date` (`Date.distantFuture`:
    /// all of them). A deletion time in the future (a clock set ahead) counts as now; one before
    /// ``LibraryClock/earliestBelievable`` (a clock set back) is not believed, and only emptying
    /// all empties it.
    ///
    /// - Returns: how many were deleted.
    package func purgeRecentlyDeleted(before date: Date) async throws -> Int {
        let everything = date == .distantFuture
        let now = LibraryClock.now().timeIntervalSince1970
        return try await Blocking.run {
            try self.record("empty recently deleted") { recorder in
                let ids = try recorder.db.rows(
                    everything
                        ? "SELECT id FROM asset WHERE state = 'deleted' ORDER BY id"
                        : """
                        SELECT id FROM asset WHERE state = 'deleted' AND min(deleted_at, ?) < ? AND deleted_at >= ?
                        ORDER BY id
                        """,
                    everything
                        ? []
                        : [
                            .real(now), .real(date.timeIntervalSince1970),
                            .real(LibraryClock.earliestBelievable.timeIntervalSince1970),
                        ]
                ).compactMap { $0.text(0) }
                if !ids.isEmpty { try recorder.record(.purgeAssets(ids)) }
                return ids.count
            }
        }
    }

    private static func requireAlbum(_ db: Database, _ id: String) throws {
        guard try db.row("SELECT 1 FROM album WHERE id = ?", [.text(id)]) != nil else {
            throw AlbumError(.albumNotFound, "There is no album with the identifier \(id).")
        }
    }

    private static func requireAssets(_ db: Database, _ ids: [String], includingDeleted: Bool = false) throws {
        let sql =
            includingDeleted
            ? "SELECT 1 FROM asset WHERE id = ?" : "SELECT 1 FROM asset WHERE id = ? AND state = 'ready'"
        for id in ids where try db.row(sql, [.text(id)]) == nil {
            throw AlbumError(.assetNotFound, "There is no asset with the identifier \(id) in the library.")
        }
    }
}
