/// The catalog's schema and its migrations, versioned by `PRAGMA user_version`.
enum CatalogSchema {
    /// `PRAGMA application_id`: "ALBK", marks the file as an AlbumKit catalog.
    static let applicationID: Int64 = 0x414C_424B

    /// Migrations in order; `user_version` is the number applied.
    static let migrations: [String] = [
        // 1: assets, albums, membership, remembered album ids.
        """
        CREATE TABLE asset (
            id TEXT PRIMARY KEY,
            state TEXT NOT NULL CHECK (state IN ('pending', 'ready')),
            kind TEXT NOT NULL CHECK (kind IN ('photo', 'video')),
            format TEXT NOT NULL,
            path TEXT NOT NULL UNIQUE,
            original_name TEXT,
            byte_size INTEGER NOT NULL CHECK (byte_size >= 0),
            sha256 TEXT NOT NULL,
            added_at REAL NOT NULL,
            owner TEXT,
            metadata TEXT
        ) STRICT;
        CREATE INDEX asset_pending ON asset(owner) WHERE state = 'pending';
        CREATE TABLE album (
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            title_key TEXT NOT NULL,
            created_at REAL NOT NULL
        ) STRICT;
        CREATE INDEX album_by_title ON album(title_key, created_at);
        CREATE TABLE album_asset (
            album_id TEXT NOT NULL REFERENCES album(id) ON DELETE CASCADE,
            asset_id TEXT NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            added_at REAL NOT NULL,
            PRIMARY KEY (album_id, asset_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX album_asset_order ON album_asset(album_id, position);
        CREATE INDEX album_asset_asset ON album_asset(asset_id);
        CREATE TABLE remembered_album (
            title_key TEXT PRIMARY KEY,
            album_id TEXT NOT NULL
        ) STRICT;
        """
    ]
}
