import AlbumKitCore
import Foundation

extension CatalogBackend {
    /// The committed assets, the albums (oldest first) and their memberships, read in one snapshot.
    package func exportContents() async throws -> LibraryContents {
        try await Blocking.run {
            try self.withIndex("read the catalog") { connection in
                let db = connection.index!.db
                try db.execute("BEGIN")
                defer { try? db.execute("COMMIT") }  // a read transaction: ending it cannot lose anything
                let assets = try db.rows(
                    """
                    SELECT id, path, original_name, kind, format, byte_size, sha256, added_at, metadata, favorite,
                        companions
                    FROM asset WHERE state = 'ready' ORDER BY added_at, rowid
                    """
                ).map {
                    LibraryContents.Asset(
                        id: $0.text(0)!, fileURL: self.root.appendingFilePath($0.text(1)!),
                        originalName: $0.text(2),
                        kind: $0.text(3)!, format: $0.text(4)!, byteSize: $0.integer(5) ?? 0, sha256: $0.text(6)!,
                        addedAt: $0.real(7) ?? 0, metadata: $0.text(8), isFavorite: $0.integer(9) == 1,
                        companions: ($0.text(10).flatMap(CatalogCompanion.list(fromJSON:)) ?? []).map {
                            LibraryContents.Companion(
                                role: $0.role, name: $0.name, path: $0.path, size: $0.size, sha256: $0.sha256)
                        })
                }
                let albums = try db.rows(
                    "SELECT id, title, title_key, created_at FROM album ORDER BY created_at, rowid"
                )
                .map {
                    LibraryContents.Album(
                        id: $0.text(0)!, title: $0.text(1)!, titleKey: $0.text(2)!, createdAt: $0.real(3) ?? 0)
                }
                let memberships = try db.rows(
                    """
                    SELECT m.album_id, m.asset_id, m.position, m.added_at FROM album_asset m
                    JOIN asset s ON s.id = m.asset_id WHERE s.state = 'ready' ORDER BY m.album_id, m.position
                    """
                ).map {
                    LibraryContents.Membership(
                        albumID: $0.text(0)!, assetID: $0.text(1)!, position: $0.integer(2) ?? 0,
                        addedAt: $0.real(3) ?? 0)
                }
                return LibraryContents(root: self.root, assets: assets, albums: albums, memberships: memberships)
            }
        }
    }
}
