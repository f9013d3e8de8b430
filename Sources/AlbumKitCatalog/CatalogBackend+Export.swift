import AlbumKitCore
import Foundation

/// Everything a catalog library holds, for copying it into another library.
package struct CatalogExport: Sendable {
    package struct Asset: Sendable {
        package let id: String
        package let fileURL: URL
        package let originalName: String?
        package let kind: String
        package let format: String
        package let byteSize: Int64
        package let sha256: String
        package let addedAt: Double
        package let metadata: String?
        package let isFavorite: Bool
        /// The files kept with it (sidecars, the raw of a pair), their paths below ``CatalogExport/root``.
        package var companions: [CatalogCompanion] = []
    }

    package struct Album: Sendable {
        package let id: String
        package let title: String
        package let titleKey: String
        package let createdAt: Double
    }

    package struct Membership: Sendable {
        package let albumID: String
        package let assetID: String
        package let position: Int64
        package let addedAt: Double
    }

    /// The library's folder.
    package var root: URL
    package var assets: [Asset]
    package var albums: [Album]
    package var memberships: [Membership]
}

extension CatalogBackend {
    /// The committed assets, the albums (oldest first) and their memberships, read in one snapshot.
    package func exportContents() async throws -> CatalogExport {
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
                    CatalogExport.Asset(
                        id: $0.text(0)!, fileURL: self.root.appendingPathComponent($0.text(1)!),
                        originalName: $0.text(2),
                        kind: $0.text(3)!, format: $0.text(4)!, byteSize: $0.integer(5) ?? 0, sha256: $0.text(6)!,
                        addedAt: $0.real(7) ?? 0, metadata: $0.text(8), isFavorite: $0.integer(9) == 1,
                        companions: $0.text(10).flatMap(CatalogCompanion.list(fromJSON:)) ?? [])
                }
                let albums = try db.rows(
                    "SELECT id, title, title_key, created_at FROM album ORDER BY created_at, rowid"
                )
                .map {
                    CatalogExport.Album(
                        id: $0.text(0)!, title: $0.text(1)!, titleKey: $0.text(2)!, createdAt: $0.real(3) ?? 0)
                }
                let memberships = try db.rows(
                    """
                    SELECT m.album_id, m.asset_id, m.position, m.added_at FROM album_asset m
                    JOIN asset s ON s.id = m.asset_id WHERE s.state = 'ready' ORDER BY m.album_id, m.position
                    """
                ).map {
                    CatalogExport.Membership(
                        albumID: $0.text(0)!, assetID: $0.text(1)!, position: $0.integer(2) ?? 0,
                        addedAt: $0.real(3) ?? 0)
                }
                return CatalogExport(root: self.root, assets: assets, albums: albums, memberships: memberships)
            }
        }
    }
}
