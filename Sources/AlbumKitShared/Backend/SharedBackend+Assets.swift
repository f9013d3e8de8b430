#if os(Linux)
    import AlbumKitCore
    import Foundation

    extension SharedBackend: AssetDeleting {
        /// Every asset of the library in `order`, paged by ``AssetCursor`` (the rule all backends share).
        package func assets(in order: AssetOrder, after cursor: AssetCursor?, limit: Int) async throws -> AssetPage {
            let all = try await Blocking.run {
                try self.withDatabase("list the library") { db in
                    try db.execute(
                        """
                        SELECT id, original_name, kind, byte_size, added_at, sha256, metadata, saved_host, saved_user, saved_role,
                            favorite, \(Self.companionsColumn("asset"))
                        FROM asset
                        WHERE deleted_at IS NULL
                        """
                    ).map(Self.assetInfo)
                }
            }
            return AssetCursor.page(of: all, in: order, after: cursor, limit: limit)
        }

        /// Adds existing assets after the album's current ones (all or nothing); ids stay the same.
        package func addAssets(_ ids: [String], toAlbumWithID albumID: String) async throws -> [String] {
            try await Blocking.run {
                try self.withDatabase("add to the album") { db in
                    try db.transaction {
                        try Self.lockAlbum(db, albumID)
                        try Self.requireAssets(db, ids)
                        try db.execute(
                            """
                            INSERT INTO album_asset (album_id, asset_id, position, added_at)
                            SELECT $1, asset_id,
                                (SELECT coalesce(max(position), 0) FROM album_asset WHERE album_id = $1) + n,
                                extract(epoch FROM now())
                            FROM unnest($2::text[]) WITH ORDINALITY AS t(asset_id, n)
                            ON CONFLICT DO NOTHING
                            """, [albumID, Self.arrayLiteral(ids)])
                        return ids
                    }
                }
            }
        }

        /// Removes assets from an album; they stay in the library. All or nothing.
        package func removeAssets(_ ids: [String], fromAlbumWithID albumID: String) async throws {
            try await Blocking.run {
                try self.withDatabase("remove from the album") { db in
                    try db.transaction {
                        try Self.lockAlbum(db, albumID)
                        let present = Set(
                            try db.execute(
                                "SELECT asset_id FROM album_asset WHERE album_id = $1 AND asset_id = ANY($2::text[])",
                                [albumID, Self.arrayLiteral(ids)]
                            ).compactMap { $0[0] })
                        if let missing = ids.first(where: { !present.contains($0) }) {
                            throw AlbumError(
                                .assetNotFound, "The asset \(missing) is not in the album; nothing was removed.")
                        }
                        try db.execute(
                            "DELETE FROM album_asset WHERE album_id = $1 AND asset_id = ANY($2::text[])",
                            [albumID, Self.arrayLiteral(ids)])
                    }
                }
            }
        }

        /// Moves assets to recently deleted: out of every album and listing, restorable with their
        /// albums until the library's retention has passed; only then does `album gc` remove them and
        /// their originals (each under its object's lock, so a new save of the same bytes is safe).
        package func deleteAssets(_ ids: [String]) async throws -> [AssetDeletion] {
            try await Blocking.run {
                try self.withDatabase("delete the assets") { db in
                    try db.transaction {
                        try Self.requireAssets(db, ids)
                        let until = try db.value(
                            """
                            WITH moved AS (
                                UPDATE asset SET deleted_at = extract(epoch FROM now())
                                WHERE id = ANY($1::text[]) AND deleted_at IS NULL RETURNING deleted_at)
                            SELECT max(deleted_at) FROM moved
                            """, [Self.arrayLiteral(ids)]
                        ).flatMap(Double.init)
                        let retention = try Self.retentionDays(db)
                        let restorableUntil = until.map {
                            Date(timeIntervalSince1970: $0 + Double(retention) * 86_400)
                        }
                        return ids.map { AssetDeletion(id: $0, restorableUntil: restorableUntil) }
                    }
                }
            }
        }

        /// Locks the album's row for this transaction; `.albumNotFound` when it is gone.
        private static func lockAlbum(_ db: PostgresConnection, _ albumID: String) throws {
            guard try db.value("SELECT 1 FROM album WHERE id = $1 AND deleted_at IS NULL FOR UPDATE", [albumID]) != nil
            else {
                throw AlbumError(.albumNotFound, "The album was deleted; nothing was changed.")
            }
        }

        private static func requireAssets(_ db: PostgresConnection, _ ids: [String]) throws {
            let known = Set(
                try db.execute(
                    "SELECT id FROM asset WHERE id = ANY($1::text[]) AND deleted_at IS NULL", [arrayLiteral(ids)]
                ).compactMap {
                    $0[0]
                })
            if let missing = ids.first(where: { !known.contains($0) }) {
                throw AlbumError(.assetNotFound, "There is no asset \(missing) in the library; nothing was changed.")
            }
        }

        /// An asset row (`id, original_name, kind, byte_size, added_at, sha256, metadata, saved_host,
        /// saved_user, saved_role, favorite`, and its ``companionsColumn(_:)`` when the query has one).
        static func assetInfo(_ row: [String?]) -> AssetInfo {
            var info = AssetInfo(
                id: row[0]!, originalFilename: row[1], kind: MediaKind(rawValue: row[2] ?? "") ?? .photo,
                byteSize: Int64(row[3] ?? "0") ?? 0, addedAt: Date(timeIntervalSince1970: Double(row[4] ?? "0") ?? 0),
                sha256: row[5],
                // Metadata is an extra: a row whose JSON does not decode is listed without it.
                metadata: row[6].flatMap { try? JSONDecoder().decode(MediaMetadata.self, from: Data($0.utf8)) },
                isFavorite: row[10] == "t",
                savedBy: row[7] == nil && row[8] == nil && row[9] == nil
                    ? nil : SaverIdentity(host: row[7], user: row[8], databaseRole: row[9]))
            if row.count > 11 { info.companions = companions(fromJSON: row[11]) }
            return info
        }
    }
#endif
