import AlbumKitCore
import Foundation

/// Listing, creating, renaming and deleting albums: each change is one record of the journal.
extension CatalogBackend: AlbumBrowsing, AlbumEditing {
    package func albums() async throws -> [AlbumInfo] {
        try await Blocking.run {
            try self.withIndex("list the albums") { connection in
                try Self.albums(in: connection.index!.db, path: self.catalogPath)
            }
        }
    }

    package func album(withID id: String) async throws -> AlbumInfo? {
        try await Blocking.run {
            try self.withIndex("look the album up") { connection in
                try Self.albums(in: connection.index!.db, path: self.catalogPath, id: id).first
            }
        }
    }

    /// The albums, oldest first, or only `id`, with how many assets (not recently deleted) each
    /// holds: the count the index keeps as memberships and deletions change.
    static func albums(in db: Database, path: String, id: String? = nil) throws -> [AlbumInfo] {
        let rows =
            try id == nil
            ? db.rows("SELECT id, title, created_at, ready_count FROM album ORDER BY created_at, rowid")
            : db.rows("SELECT id, title, created_at, ready_count FROM album WHERE id = ?", [SQLValue(id)])
        return try rows.map { row in
            guard let id = row.text(0), let title = row.text(1) else { throw damagedRow(path) }
            return AlbumInfo(
                id: id, title: title, count: Int(row.integer(3) ?? 0),
                createdAt: Date(timeIntervalSince1970: row.real(2) ?? 0))
        }
    }

    package func albumTitles() async throws -> [String] {
        try await Blocking.run {
            try self.withIndex("list the albums") { connection in
                try connection.index!.db.rows("SELECT title FROM album ORDER BY created_at, rowid").compactMap {
                    $0.text(0)
                }
            }
        }
    }

    package func findAlbum(titled title: AlbumTitle) async throws -> String? {
        try await Blocking.run {
            try self.withIndex("find the album") { connection in
                try AlbumRequest(title: title).find(in: CatalogAlbumDirectory(db: connection.index!.db))
            }
        }
    }

    package func assets(inAlbumWithID id: String) async throws -> [AssetInfo] {
        try await Blocking.run {
            try self.withIndex("list the album") { connection in
                try connection.index!.db.rows(
                    """
                    SELECT s.id, s.original_name, s.kind, s.byte_size, m.added_at, s.sha256, s.path, s.metadata, s.favorite,
                        s.companions
                    FROM album_asset m JOIN asset s ON s.id = m.asset_id
                    WHERE m.album_id = ? AND s.state = 'ready' ORDER BY m.position
                    """, [.text(id)]
                ).map(self.assetInfo)
            }
        }
    }

    /// A seek per name in `asset_by_name` (A–Z in either case: `NOCASE` is that fold), then one in
    /// the membership's key per asset found: the album's other members are never read.
    package func assets(inAlbumWithID id: String, originallyNamed keys: [String]) async throws -> [AssetInfo] {
        guard !keys.isEmpty else { return [] }
        let list = String(decoding: try JSONEncoder().encode(keys), as: UTF8.self)
        return try await Blocking.run {
            try self.withIndex("look for the album's photos by name") { connection in
                try connection.index!.db.rows(Self.albumAssetsByNameSQL, [.text(id), .text(list)]).map(self.assetInfo)
            }
        }
    }

    /// The assets of album `?1` named as in the JSON list `?2`: the names first (`CROSS JOIN` keeps
    /// SQLite from reading the album's memberships instead).
    static let albumAssetsByNameSQL = """
        SELECT s.id, s.original_name, s.kind, s.byte_size, m.added_at, s.sha256, s.path, s.metadata, s.favorite,
            s.companions
        FROM asset s CROSS JOIN album_asset m
        WHERE s.original_name COLLATE NOCASE IN (SELECT value FROM json_each(?2)) AND s.state = 'ready'
            AND m.album_id = ?1 AND m.asset_id = s.id
        """

    /// An asset from a row of `id, original_name, kind, byte_size, added_at, sha256, path,
    /// metadata, favorite, companions`.
    func assetInfo(_ row: Row) throws -> AssetInfo {
        guard let id = row.text(0), let path = row.text(6) else { throw Self.damagedRow(catalogPath) }
        // Metadata is an extra: a record whose JSON does not decode is listed without it.
        let metadata = row.text(7).flatMap(MediaMetadata.init(catalogJSON:))
        var info = AssetInfo(
            id: id, originalFilename: row.text(1), kind: MediaKind(rawValue: row.text(2) ?? "") ?? .photo,
            byteSize: row.integer(3) ?? 0, addedAt: Date(timeIntervalSince1970: row.real(4) ?? 0),
            sha256: row.text(5), fileURL: root.appendingFilePath(path), metadata: metadata,
            isFavorite: row.integer(8) == 1)
        // As the metadata: companions whose JSON does not decode are not listed (verify reports the record).
        info.companions = (row.text(9).flatMap(CatalogCompanion.list(fromJSON:)) ?? []).map { $0.info(root: root) }
        // Its files are read beneath the library's folder only (export, copy): never through a link.
        info.libraryFolder = root
        return info
    }

    /// A row missing a value the schema requires: the catalog is damaged.
    static func damagedRow(_ path: String) -> AlbumError {
        AlbumError.catalogDamaged(path, detail: "a row lacks a required value")
    }

    package func createAlbum(titled title: AlbumTitle) async throws -> (id: String, outcome: AlbumOutcome) {
        try await Blocking.run {
            try self.record("create the album") { recorder in
                try AlbumRequest(title: title).findOrCreate(
                    in: CatalogAlbumStore(recorder: recorder, now: LibraryClock.now().timeIntervalSince1970))
            }
        }
    }

    package func renameAlbum(id: String, to title: AlbumTitle) async throws {
        try await Blocking.run {
            try self.record("rename the album") { recorder in
                guard try recorder.db.row("SELECT 1 FROM album WHERE id = ?", [.text(id)]) != nil else {
                    throw AlbumError(.albumNotFound, "The album was deleted while renaming it.")
                }
                try recorder.record(.renameAlbum(id: id, title: title.text))
            }
        }
    }

    package func deleteAlbum(id: String, force: Bool) async throws {
        try await Blocking.run {
            try self.record("delete the album") { recorder in
                // The assets stay in the library, as in Photos.
                guard try recorder.db.row("SELECT 1 FROM album WHERE id = ?", [.text(id)]) != nil else { return }
                try recorder.record(.deleteAlbum(id: id))
            }
        }
    }
}

/// The resolution rule's lookups, answered from the index.
struct CatalogAlbumDirectory: AlbumDirectory {
    let db: Database

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
}

/// The resolution rule's lookups and album creation inside a recorded change: creating and
/// remembering an album are records of the change.
struct CatalogAlbumStore: AlbumStore {
    let recorder: ChangeRecorder
    let now: TimeInterval
    private var directory: CatalogAlbumDirectory { CatalogAlbumDirectory(db: recorder.db) }

    init(recorder: ChangeRecorder, now: TimeInterval) {
        self.recorder = recorder
        self.now = now
    }

    func rememberedAlbumID(for title: AlbumTitle) throws -> String? { try directory.rememberedAlbumID(for: title) }
    func albumExists(id: String) throws -> Bool { try directory.albumExists(id: id) }
    func oldestAlbum(titled title: AlbumTitle) throws -> String? { try directory.oldestAlbum(titled: title) }

    func createAlbum(titled title: AlbumTitle) throws -> String {
        let id = UUID().uuidString.lowercased()
        try recorder.record(.createAlbum(id: id, title: title.text, createdAt: now))
        return id
    }

    func remember(_ id: String, for title: AlbumTitle) throws {
        guard try rememberedAlbumID(for: title) != id else { return }
        try recorder.record(.rememberAlbum(id: id, title: title.text))
    }

    /// The asset with these bytes (same SHA-256 and size), if the library has one, recently
    /// deleted or not.
    func asset(withContent media: StagedMedia) throws -> (id: String, path: String, isDeleted: Bool)? {
        guard
            let row = try recorder.db.row(
                "SELECT id, path, state FROM asset WHERE sha256 = ? AND byte_size = ? ORDER BY state = 'deleted' LIMIT 1",
                [.text(media.sha256), .integer(media.byteSize)]),
            let id = row.text(0), let path = row.text(1)
        else { return nil }
        return (id, path, row.text(2) == "deleted")
    }
}
