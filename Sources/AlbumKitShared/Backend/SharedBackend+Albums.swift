#if os(Linux)
    import AlbumKitCore
    import Foundation

    extension SharedBackend {
        package func albums() async throws -> [AlbumInfo] {
            try await Blocking.run {
                try self.withDatabase("list the albums") { db in
                    try db.execute(
                        """
                        SELECT a.id, a.title, a.created_at, (
                            SELECT count(*) FROM album_asset m JOIN asset s ON s.id = m.asset_id
                            WHERE m.album_id = a.id AND s.deleted_at IS NULL)
                        FROM album a WHERE a.deleted_at IS NULL ORDER BY a.created_at, a.sequence
                        """
                    ).map {
                        AlbumInfo(
                            id: $0[0]!, title: $0[1]!, count: Int($0[3] ?? "0") ?? 0,
                            createdAt: Date(timeIntervalSince1970: Double($0[2] ?? "0") ?? 0))
                    }
                }
            }
        }

        package func findAlbum(titled title: AlbumTitle) async throws -> String? {
            try await Blocking.run {
                try self.withDatabase("find the album") { db in
                    if case .existing(let id) = try AlbumRequest(title: title).resolve(in: SharedAlbumDirectory(db: db))
                    {
                        return id
                    }
                    return nil
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

        package func createAlbum(titled title: AlbumTitle) async throws -> (id: String, outcome: AlbumOutcome) {
            try await Blocking.run {
                try self.withDatabase("create the album") { db in
                    try db.transaction {
                        try db.execute(
                            "SELECT pg_advisory_xact_lock(\(SharedSchema.titleLock), hashtext($1))", [title.key])
                        let id: String
                        let outcome: AlbumOutcome
                        switch try AlbumRequest(title: title).resolve(in: SharedAlbumDirectory(db: db)) {
                        case .existing(let existing): (id, outcome) = (existing, .found)
                        case .create(let created): (id, outcome) = (try Self.insertAlbum(db, title), created)
                        }
                        try Self.remember(db, title, id)
                        return (id, outcome)
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
                        try Self.remember(db, title, id)
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
