#if os(Linux)
    import AlbumKitCore
    import Foundation

    /// The assets a reference on a command line may name, chosen on the server in one round trip:
    /// the assets are never sent here to be looked through.
    extension SharedBackend: AssetNaming {
        package func assets(possiblyNamedBy reference: String, inAlbumWithID albumID: String?, limit: Int)
            async throws -> [AssetInfo]
        {
            guard !reference.isEmpty, limit >= 1 else { return [] }
            return try await Blocking.run {
                try self.withDatabase("look for the assets named \"\(reference)\"") { db in
                    try db.execute(Self.possiblyNamedSQL, [reference, albumID, String(limit)]).map(Self.assetInfo)
                }
            }
        }

        /// The asset whose id is `$1` (the primary key), those originally named `$1` with A–Z in
        /// either case (`asset_by_name_key`; the caller keeps the exact ones), and those whose id
        /// starts with it (a range of `asset_by_id_bytes`: PostgreSQL seeks `starts_with` in an index
        /// in the C collation, whatever the database's own).
        static let possiblyNamedSQL = """
            SELECT s.id, s.original_name, s.kind, s.byte_size, s.added_at, s.sha256, s.metadata, s.saved_host,
                s.saved_user, s.saved_role, s.favorite, \(companionsColumn("s"))
            FROM asset s
            WHERE s.deleted_at IS NULL
                AND (s.id = $1 OR lower(s.original_name COLLATE "C") = lower($1 COLLATE "C")
                    OR (length($1) >= 4 AND starts_with(s.id, $1)))
                AND ($2::text IS NULL
                    OR EXISTS (SELECT 1 FROM album_asset m WHERE m.album_id = $2 AND m.asset_id = s.id))
            LIMIT $3::int
            """
    }
#endif
