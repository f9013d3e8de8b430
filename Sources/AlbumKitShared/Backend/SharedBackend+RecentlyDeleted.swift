#if os(Linux)
    import AlbumKitCore
    import Foundation

    extension SharedBackend: SharedRecentlyDeleted {
        /// Everything in recently deleted, most recently deleted first.
        package func recentlyDeleted() async throws -> [RecentlyDeletedItem] {
            try await Blocking.run {
                try self.withDatabase("list recently deleted") { db in
                    let days = Double(try Self.retentionDays(db))
                    let assets = try db.execute(
                        """
                        SELECT s.id, s.original_name, s.deleted_at, s.byte_size, coalesce((
                            SELECT string_agg(a.title, E'\\x1f' ORDER BY a.created_at, a.sequence)
                            FROM album_asset m JOIN album a ON a.id = m.album_id
                            WHERE m.asset_id = s.id AND a.deleted_at IS NULL), '')
                        FROM asset s WHERE s.deleted_at IS NOT NULL
                        """
                    ).map { row in
                        let deleted = Double(row[2] ?? "") ?? 0
                        return RecentlyDeletedItem(
                            kind: .asset, id: row[0]!, name: row[1], deletedAt: Date(timeIntervalSince1970: deleted),
                            removedAfter: Date(timeIntervalSince1970: deleted + days * 86_400),
                            byteSize: Int64(row[3] ?? ""),
                            albums: (row[4] ?? "").split(separator: "\u{1f}").map(String.init), count: nil)
                    }
                    let albums = try db.execute(
                        """
                        SELECT a.id, a.title, a.deleted_at, (
                            SELECT count(*) FROM album_asset m JOIN asset s ON s.id = m.asset_id
                            WHERE m.album_id = a.id AND s.deleted_at IS NULL)
                        FROM album a WHERE a.deleted_at IS NOT NULL
                        """
                    ).map { row in
                        let deleted = Double(row[2] ?? "") ?? 0
                        return RecentlyDeletedItem(
                            kind: .album, id: row[0]!, name: row[1], deletedAt: Date(timeIntervalSince1970: deleted),
                            removedAfter: Date(timeIntervalSince1970: deleted + days * 86_400), byteSize: nil,
                            albums: [], count: Int(row[3] ?? ""))
                    }
                    return (assets + albums).sorted { ($0.deletedAt, $0.id) > ($1.deletedAt, $1.id) }
                }
            }
        }

        /// Brings assets (into their albums) and albums (with their photos) back from recently
        /// deleted. All or nothing: an id that is not there fails with `.assetNotFound`.
        package func restoreDeleted(_ ids: [String]) async throws -> [RecentlyDeletedItem] {
            let before = try await recentlyDeleted()
            return try await Blocking.run {
                try self.withDatabase("restore from recently deleted") { db in
                    try db.transaction {
                        let assets = try db.execute(
                            "UPDATE asset SET deleted_at = NULL WHERE id = ANY($1::text[]) AND deleted_at IS NOT NULL RETURNING id",
                            [Self.arrayLiteral(ids)]
                        ).compactMap { $0[0] }
                        let albums = try db.execute(
                            "UPDATE album SET deleted_at = NULL WHERE id = ANY($1::text[]) AND deleted_at IS NOT NULL RETURNING id",
                            [Self.arrayLiteral(ids)]
                        ).compactMap { $0[0] }
                        let restored = Set(assets + albums)
                        if let missing = ids.first(where: { !restored.contains($0) }) {
                            throw AlbumError(
                                .assetNotFound,
                                "\(missing) is not in recently deleted (`album deleted` lists what is); nothing was restored."
                            )
                        }
                        return before.filter { restored.contains($0.id) }
                    }
                }
            }
        }

        /// Removes assets and albums from recently deleted for good — those in `ids`, or all of
        /// them when `ids` is `nil` — then the originals no asset needs any more.
        ///
        /// - Throws: `.assetNotFound` when an id is not in recently deleted (nothing removed).
        package func removeDeleted(_ ids: [String]?) async throws -> GarbageReport {
            try await Blocking.run {
                let purged = try self.withDatabase("empty recently deleted") { db in
                    try db.transaction { () throws -> Purged in
                        let filter = ids == nil ? "" : " AND id = ANY($1::text[])"
                        let parameters = ids.map { [Self.arrayLiteral($0)] } ?? []
                        let purged = try Self.purge(db, where: "deleted_at IS NOT NULL" + filter, parameters)
                        if let ids {
                            let removed = Set(purged.assets.map(\.id) + purged.albums)
                            if let missing = ids.first(where: { !removed.contains($0) }) {
                                throw AlbumError(
                                    .assetNotFound,
                                    "\(missing) is not in recently deleted (`album deleted` lists what is); nothing was removed."
                                )
                            }
                        }
                        return purged
                    }
                }
                var report = try self.removeUnreferenced(
                    purged.assets.map { ($0.sha256, UInt64($0.size)) } + purged.companions)
                report.removedAssets = purged.assets.count
                report.removedAlbums = purged.albums.count
                return report
            }
        }

        /// What one purge removed from the tables.
        struct Purged {
            var assets: [(id: String, sha256: String, size: Int64)] = []
            var albums: [String] = []
            /// The objects of their companions (SHA-256, size).
            var companions: [(sha256: String, size: UInt64)] = []
        }

        /// Deletes the rows of trashed assets and albums matching `condition` (on `deleted_at` and
        /// `id`); memberships go with them. Their objects are left for ``removeUnreferenced(_:)``.
        static func purge(_ db: PostgresConnection, where condition: String, _ parameters: [String?]) throws -> Purged {
            var purged = Purged()
            purged.companions = try db.execute(
                "DELETE FROM asset_companion WHERE asset_id IN (SELECT id FROM asset WHERE \(condition)) RETURNING sha256, byte_size",
                parameters
            ).map { ($0[0]!, UInt64($0[1] ?? "") ?? 0) }
            purged.assets = try db.execute(
                "DELETE FROM asset WHERE \(condition) RETURNING id, sha256, byte_size", parameters
            ).map { ($0[0]!, $0[1]!, Int64($0[2] ?? "") ?? 0) }
            purged.albums = try db.execute("DELETE FROM album WHERE \(condition) RETURNING id", parameters)
                .compactMap { $0[0] }
            if !purged.albums.isEmpty {
                try db.execute(
                    "DELETE FROM remembered_album WHERE album_id = ANY($1::text[])", [arrayLiteral(purged.albums)])
            }
            return purged
        }

        /// The library's retention of recently deleted, in days.
        static func retentionDays(_ db: PostgresConnection) throws -> Int {
            try db.value("SELECT value FROM albumkit_setting WHERE name = 'retention_days'").flatMap { Int($0) }
                ?? SharedSchema.defaultRetentionDays
        }
    }
#endif
