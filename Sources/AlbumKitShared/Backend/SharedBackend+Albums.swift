#if os(Linux)
    import AlbumKitCore
    import Foundation

    extension SharedBackend: AlbumBrowsing, AlbumEditing, AlbumLookupDeferring {
        package func albums() async throws -> [AlbumInfo] {
            try await Blocking.run {
                try self.withDatabase("list the albums") { db in
                    try db.execute(Self.albumQuery + " ORDER BY a.created_at, a.sequence").map(Self.albumInfo)
                }
            }
        }

        /// The one album, by its primary key.
        package func album(withID id: String) async throws -> AlbumInfo? {
            try await Blocking.run {
                try self.withDatabase("find the album") { db in
                    try db.execute(Self.albumQuery + " AND a.id = $1", [id]).first.map(Self.albumInfo)
                }
            }
        }

        /// The albums' descriptions, each with the count of its assets not deleted.
        private static let albumQuery = """
            SELECT a.id, a.title, a.created_at, (
                SELECT count(*) FROM album_asset m JOIN asset s ON s.id = m.asset_id
                WHERE m.album_id = a.id AND s.deleted_at IS NULL)
            FROM album a WHERE a.deleted_at IS NULL
            """

        private static func albumInfo(_ row: [String?]) -> AlbumInfo {
            AlbumInfo(
                id: row[0]!, title: row[1]!, count: Int(row[3] ?? "0") ?? 0,
                createdAt: Date(timeIntervalSince1970: Double(row[2] ?? "0") ?? 0))
        }

        /// What the resolution rule asks, read in one query (one round trip, not one per question),
        /// and kept as the next save's guess of them (``albumFacts``).
        package func findAlbum(titled title: AlbumTitle) async throws -> String? {
            try await Blocking.run {
                try self.withDatabase("find the album") { db in
                    let facts = try db.execute(SharedAlbumDirectory.factsQuery, [title.key, nil]).first ?? []
                    // A save into the album usually follows: its transaction starts from these facts.
                    self.albumFacts.keep(facts, forTitleKey: title.key)
                    return try AlbumRequest(title: title).find(in: SharedAlbumDirectory(db: db, facts: facts))
                }
            }
        }

        package func assets(inAlbumWithID id: String) async throws -> [AssetInfo] {
            try await Blocking.run {
                try self.withDatabase("list the album") { db in
                    try db.execute(
                        """
                        SELECT s.id, s.original_name, s.kind, s.byte_size, m.added_at, s.sha256, s.metadata, s.saved_host,
                            s.saved_user, s.saved_role, s.favorite, \(Self.companionsColumn("s"))
                        FROM album_asset m JOIN asset s ON s.id = m.asset_id
                        WHERE m.album_id = $1 AND s.deleted_at IS NULL ORDER BY m.position
                        """, [id]
                    ).map(Self.assetInfo)
                }
            }
        }

        /// One query: a seek per name in `asset_by_name_key` (`lower()` under the `C` collation folds
        /// A–Z only, as ``OriginalNameKey`` does), then one in the membership's key per asset found.
        package func assets(inAlbumWithID id: String, originallyNamed keys: [String]) async throws -> [AssetInfo] {
            guard !keys.isEmpty else { return [] }
            let list = String(decoding: try JSONEncoder().encode(keys), as: UTF8.self)
            return try await Blocking.run {
                try self.withDatabase("look for the album's photos by name") { db in
                    try db.execute(Self.albumAssetsByNameSQL, [id, list]).map(Self.assetInfo)
                }
            }
        }

        /// The album `title` resolves to and its assets of `keys`, in one round trip: the rule's facts
        /// (kept as the next save's guess, as ``findAlbum(titled:)`` keeps them) and the assets of
        /// those names in the albums the rule may name (the remembered one, the oldest of the title),
        /// of which the rule then picks one.
        package func album(titled title: AlbumTitle, assetsOriginallyNamed keys: [String]) async throws
            -> (id: String, assets: [AssetInfo])?
        {
            try await albumLater(titled: title, assetsOriginallyNamed: keys)()
        }

        /// As ``album(titled:assetsOriginallyNamed:)``, asked for now and sent with the next use of
        /// the database (``PendingLookup``): the save that usually follows sends it in the round
        /// trip of its transaction A, whose transaction B it then gives the album's facts. Awaiting
        /// the answer first sends it alone if nothing has yet; either way it is answered before
        /// anything this library does next, so it never sees this process's later changes.
        package func albumLater(titled title: AlbumTitle, assetsOriginallyNamed keys: [String])
            -> @Sendable () async throws -> (id: String, assets: [AssetInfo])?
        {
            let lookup = PendingLookup(title: title, keys: keys)
            pendingLookups.withLock { $0.append(lookup) }
            return {
                try await Blocking.run {
                    // Sends it, unless a use of the database took it (and then waits for that one).
                    try self.withDatabase("look for the album's photos by name") { _ in }
                    return try lookup.wait().get()
                }
            }
        }

        /// The album `title` resolves to from its `facts` (``SharedAlbumDirectory/factsQuery``'s
        /// rows, kept as the next save's guess of them) with its photos of `assets`
        /// (``titledAlbumAssetsByNameSQL``'s rows).
        func found(_ facts: [[String?]], _ assets: [[String?]], title: AlbumTitle, on db: PostgresConnection) throws
            -> (id: String, assets: [AssetInfo])?
        {
            let facts = facts.first ?? []
            albumFacts.keep(facts, forTitleKey: title.key)
            guard let id = try AlbumRequest(title: title).find(in: SharedAlbumDirectory(db: db, facts: facts)) else {
                return nil
            }
            return (id, assets.filter { $0[0] == id }.map { Self.assetInfo(Array($0.dropFirst())) })
        }

        /// ``albumAssetsByNameSQL`` for each album title key `$1` may resolve to (the remembered one,
        /// the oldest of the title), each row led by its album's id.
        static let titledAlbumAssetsByNameSQL = """
            SELECT c.id, x.* FROM (
                SELECT album_id AS id FROM remembered_album WHERE title_key = $1
                UNION (SELECT id FROM album WHERE title_key = $1 AND deleted_at IS NULL ORDER BY created_at, sequence LIMIT 1)
            ) c, LATERAL (\(albumAssetsByNameSQL.replacingOccurrences(of: "$1", with: "c.id"))) x
            """

        /// The assets of album `$1` named as in the JSON list `$2` (keys of ``OriginalNameKey``); none
        /// once the album is in recently deleted.
        static let albumAssetsByNameSQL = """
            SELECT s.id, s.original_name, s.kind, s.byte_size, m.added_at, s.sha256, s.metadata, s.saved_host,
                s.saved_user, s.saved_role, s.favorite, \(companionsColumn("s"))
            FROM asset s JOIN album_asset m ON m.asset_id = s.id AND m.album_id = $1
            WHERE lower(s.original_name COLLATE "C") = ANY (ARRAY(SELECT json_array_elements_text($2::json)))
                AND s.deleted_at IS NULL
                AND EXISTS (SELECT 1 FROM album a WHERE a.id = $1 AND a.deleted_at IS NULL)
            """

        /// A place in the album's own order: the count and the rows after the place in one
        /// transaction, the rows read through `album_asset_order` (PostgreSQL steps over the place's
        /// predecessors in the index, reading no asset for them beyond its state); by date taken, the
        /// album's listing sorted.
        package func assets(inAlbumWithID id: String, orderedBy order: AssetOrder, at position: Int, limit: Int)
            async throws -> AlbumSlice
        {
            guard order == .dateAdded else {
                return try await listedSlice(inAlbumWithID: id, orderedBy: order, at: position, limit: limit)
            }
            return try await Blocking.run {
                try self.withDatabase("list the album") { db in
                    try db.transaction {
                        guard
                            let info = try db.execute(Self.albumQuery + " AND a.id = $1", [id]).first.map(
                                Self.albumInfo)
                        else {
                            throw AlbumError(.albumNotFound, "There is no album with the identifier \(id).")
                        }
                        let rows = try db.execute(
                            """
                            SELECT s.id, s.original_name, s.kind, s.byte_size, m.added_at, s.sha256, s.metadata, s.saved_host,
                                s.saved_user, s.saved_role, s.favorite, \(Self.companionsColumn("s"))
                            FROM album_asset m JOIN asset s ON s.id = m.asset_id
                            WHERE m.album_id = $1 AND s.deleted_at IS NULL ORDER BY m.position OFFSET $2 LIMIT $3
                            """, [id, String(max(0, position)), String(max(1, limit))])
                        return AlbumSlice(assets: rows.map(Self.assetInfo), position: position, albumCount: info.count)
                    }
                }
            }
        }

        package func createAlbum(titled title: AlbumTitle) async throws -> (id: String, outcome: AlbumOutcome) {
            try await Blocking.run {
                try self.withDatabase("create the album") { db in
                    try db.transaction {
                        try db.execute(
                            "SELECT pg_advisory_xact_lock(\(SharedSchema.titleLock), hashtext($1))", [title.key])
                        return try AlbumRequest(title: title).findOrCreate(in: SharedAlbumDirectory(db: db))
                    }
                }
            }
        }

        package func renameAlbum(id: String, to title: AlbumTitle) async throws {
            try await Blocking.run {
                try self.withDatabase("rename the album") { db in
                    try db.transaction {
                        try db.execute(
                            "SELECT pg_advisory_xact_lock(\(SharedSchema.titleLock), hashtext($1))", [title.key])
                        guard
                            try db.value(
                                "WITH renamed AS (UPDATE album SET title = $1, title_key = $2 WHERE id = $3 AND deleted_at IS NULL RETURNING 1) SELECT count(*) FROM renamed",
                                [title.text, title.key, id]) == "1"
                        else { throw AlbumError(.albumNotFound, "The album was deleted while renaming it.") }
                        try db.execute("DELETE FROM remembered_album WHERE album_id = $1", [id])
                        try SharedAlbumDirectory(db: db).remember(id, for: title)
                    }
                }
            }
        }

        /// Moves the album to recently deleted (its assets stay in the library, as in Photos); it can
        /// be restored with its photos until the retention has passed.
        package func deleteAlbum(id: String, force: Bool) async throws {
            _ = try await Blocking.run {
                try self.withDatabase("delete the album") { db in
                    try db.execute(
                        "UPDATE album SET deleted_at = extract(epoch FROM now()) WHERE id = $1 AND deleted_at IS NULL",
                        [id])
                }
            }
        }
    }
#endif
