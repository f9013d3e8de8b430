import Foundation

/// Listing, creating, renaming and deleting albums. Album changes are journaled after they commit,
/// so ``CatalogBackend/repair()`` restores them too.
extension CatalogBackend {
    package func albums() async throws -> [AlbumInfo] {
        try await Blocking.run {
            try self.withDatabase("list the albums") { db in
                try db.rows(
                    """
                    SELECT a.id, a.title, a.created_at, (SELECT count(*) FROM album_asset m WHERE m.album_id = a.id)
                    FROM album a ORDER BY a.created_at, a.rowid
                    """
                ).map { row in
                    guard let id = row.text(0), let title = row.text(1) else { throw Self.damagedRow(self.catalogPath) }
                    return AlbumInfo(
                        id: id, title: title, count: Int(row.integer(3) ?? 0),
                        createdAt: Date(timeIntervalSince1970: row.real(2) ?? 0))
                }
            }
        }
    }

    package func findAlbum(titled title: AlbumTitle) async throws -> String? {
        try await Blocking.run {
            try self.withDatabase("find the album") { db in
                try AlbumRequest(title: title).find(in: CatalogAlbumStore(db: db))
            }
        }
    }

    package func assets(inAlbumWithID id: String) async throws -> [AssetInfo] {
        try await Blocking.run {
            try self.withDatabase("list the album") { db in
                try db.rows(
                    """
                    SELECT s.id, s.original_name, s.kind, s.byte_size, m.added_at, s.sha256, s.path, s.metadata
                    FROM album_asset m JOIN asset s ON s.id = m.asset_id
                    WHERE m.album_id = ? AND s.state = 'ready' ORDER BY m.position
                    """, [.text(id)]
                ).map(self.assetInfo)
            }
        }
    }

    func assetInfo(_ row: Row) throws -> AssetInfo {
        guard let id = row.text(0), let path = row.text(6) else { throw Self.damagedRow(catalogPath) }
        let metadata = row.text(7).flatMap { try? JSONDecoder().decode(MediaMetadata.self, from: Data($0.utf8)) }
        return AssetInfo(
            id: id, originalFilename: row.text(1), kind: MediaKind(rawValue: row.text(2) ?? "") ?? .photo,
            byteSize: row.integer(3) ?? 0, addedAt: Date(timeIntervalSince1970: row.real(4) ?? 0),
            sha256: row.text(5), fileURL: root.appendingPathComponent(path), metadata: metadata)
    }

    /// A row missing a value the schema requires: the catalog is damaged.
    static func damagedRow(_ path: String) -> AlbumError {
        AlbumError.catalogDamaged(path, detail: "a row lacks a required value")
    }

    package func createAlbum(titled title: AlbumTitle) async throws -> (id: String, outcome: AlbumOutcome) {
        try await Blocking.run {
            let now = Date().timeIntervalSince1970
            let found = try self.withDatabase("create the album") { db in
                try db.immediateTransaction {
                    try AlbumRequest(title: title).findOrCreate(in: CatalogAlbumStore(db: db, now: now))
                }
            }
            if found.outcome != .found {
                try self.journalAlbumChange(.init(op: .createAlbum, album: found.id, title: title.text, at: now))
            }
            return found
        }
    }

    package func renameAlbum(id: String, to title: AlbumTitle) async throws {
        try await Blocking.run {
            try self.withDatabase("rename the album") { db in
                try db.immediateTransaction {
                    guard
                        try db.run(
                            "UPDATE album SET title = ?, title_key = ? WHERE id = ?",
                            [.text(title.text), .text(title.key), .text(id)]) == 1
                    else { throw AlbumError(.albumNotFound, "The album was deleted while renaming it.") }
                    // Our own rename frees the old title; the new one leads here.
                    try db.run("DELETE FROM remembered_album WHERE album_id = ?", [.text(id)])
                    try CatalogAlbumStore(db: db).remember(id, for: title)
                }
            }
            try self.journalAlbumChange(
                .init(op: .renameAlbum, album: id, title: title.text, at: Date().timeIntervalSince1970))
        }
    }

    package func deleteAlbum(id: String, force: Bool) async throws {
        try await Blocking.run {
            try self.withDatabase("delete the album") { db in
                try db.immediateTransaction {
                    // The assets stay in the library, as in Photos.
                    _ = try db.run("DELETE FROM album WHERE id = ?", [.text(id)])
                }
            }
            try self.journalAlbumChange(.init(op: .deleteAlbum, album: id, at: Date().timeIntervalSince1970))
        }
    }

    private func journalAlbumChange(_ record: SaveJournal.Record) throws {
        do { try journal.append([record]) } catch { throw error.libraryError("record the album change in the journal") }
    }
}

/// The resolution rule's lookups and album creation, answered inside the catalog's transaction.
struct CatalogAlbumStore: AlbumStore {
    let db: Database
    var now: TimeInterval = 0

    func rememberedAlbumID(for title: AlbumTitle) throws -> String? {
        try db.row("SELECT album_id FROM remembered_album WHERE title_key = ?", [.text(title.key)])?.text(0)
    }

    func albumExists(id: String) throws -> Bool {
        try db.row("SELECT 1 FROM album WHERE id = ?", [.text(id)]) != nil
    }

    func oldestAlbum(titled title: AlbumTitle) throws -> String? {
        try db.row(
            "SELECT id FROM album WHERE title_key = ? ORDER BY created_at, rowid LIMIT 1", [.text(title.key)])?.text(0)
    }

    func createAlbum(titled title: AlbumTitle) throws -> String {
        let id = UUID().uuidString.lowercased()
        try insertAlbum(id: id, title: title, createdAt: now)
        return id
    }

    func insertAlbum(id: String, title: AlbumTitle, createdAt: TimeInterval) throws {
        try db.run(
            "INSERT INTO album (id, title, title_key, created_at) VALUES (?, ?, ?, ?)",
            [.text(id), .text(title.text), .text(title.key), .real(createdAt)])
    }

    func remember(_ id: String, for title: AlbumTitle) throws {
        try db.run(
            "INSERT OR REPLACE INTO remembered_album (title_key, album_id) VALUES (?, ?)",
            [.text(title.key), .text(id)])
    }

    /// The highest position in the album (0 when empty).
    func lastPosition(inAlbum id: String) throws -> Int64 {
        try db.row("SELECT coalesce(max(position), 0) FROM album_asset WHERE album_id = ?", [.text(id)])?.integer(0)
            ?? 0
    }

    /// Adds the asset at `position` unless it is in the album already; whether it was added.
    func addIfMissing(_ asset: String, toAlbum album: String, position: Int64, at now: TimeInterval) throws -> Bool {
        try db.run(
            "INSERT OR IGNORE INTO album_asset (album_id, asset_id, position, added_at) VALUES (?, ?, ?, ?)",
            [.text(album), .text(asset), .integer(position), .real(now)]) == 1
    }

    /// The ready asset with these bytes (same SHA-256 and size), if the library has one.
    func asset(withContent media: StagedMedia) throws -> (id: String, path: String)? {
        guard
            let row = try db.row(
                "SELECT id, path FROM asset WHERE sha256 = ? AND byte_size = ? AND state = 'ready' LIMIT 1",
                [.text(media.sha256), .integer(media.byteSize)]),
            let id = row.text(0), let path = row.text(1)
        else { return nil }
        return (id, path)
    }
}
