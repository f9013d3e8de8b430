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
        """,
        // 2: same bytes, same asset (lookup by content); the library's own bookkeeping (how much of
        // the save journal this catalog is known to hold, snapshot progress).
        """
        CREATE INDEX asset_by_content ON asset(sha256, byte_size) WHERE state = 'ready';
        CREATE TABLE library_state (
            key TEXT PRIMARY KEY,
            value INTEGER NOT NULL
        ) STRICT;
        """,
    ]

    /// `library_state` keys.
    enum StateKey {
        /// The journal's length when the last save committed: every record before it is in here.
        static let journalLength = "journal_length"
        /// Saves committed since the last snapshot.
        static let savesSinceSnapshot = "saves_since_snapshot"
        /// Present when the catalog was created with its journal: the journal holds every save.
        static let journalFromStart = "journal_from_start"
    }
}

extension CatalogSchema {
    /// Checks that the file is ours (or new), that it is not damaged, then configures and migrates
    /// it. Nothing is written before every check passed.
    ///
    /// - Parameter mustHoldData: why the catalog cannot be new (the library's journal or files
    ///   prove it held saves); a catalog without a schema is then refused as damaged.
    static func prepare(
        _ db: Database, path: String, busyTimeout: Int32, readOnly: Bool = false, mustHoldData: String? = nil
    ) throws {
        db.setBusyTimeout(milliseconds: busyTimeout)
        // Before any check: a connection closed after refusing a damaged catalog must not fold
        // the WAL into it.
        db.keepWALOnClose()
        // Read-only checks first, in one statement so they see one snapshot even while another
        // process is creating the schema: a file that is not ours must not be written to.
        let probe = try db.row(
            "SELECT (SELECT application_id FROM pragma_application_id), "
                + "(SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_schema)")
        let foundID = probe?.integer(0) ?? 0
        let version = probe?.integer(1) ?? 0
        let objects = probe?.integer(2) ?? 0
        let isFresh = foundID == 0 && version == 0 && objects == 0
        guard isFresh || foundID == applicationID else {
            throw AlbumError(
                .libraryCorrupt,
                "\(path) is not an AlbumKit catalog (another application's database); nothing was changed.")
        }
        guard version <= migrations.count else {
            throw AlbumError(
                .libraryCorrupt,
                "\(path) was written by a newer AlbumKit (schema \(version)); update AlbumKit to open it. Nothing was changed."
            )
        }
        if isFresh, let mustHoldData {
            throw AlbumError.catalogDamaged(path, detail: "the catalog is new or reset but \(mustHoldData)")
        }
        if !isFresh { try CatalogIntegrity.check(db, path: path) }
        if readOnly {
            guard !isFresh else {
                throw AlbumError(.libraryCorrupt, "The catalog \(path) is empty; nothing was changed.")
            }
            guard version == migrations.count else {
                throw AlbumError(
                    .libraryUnwritable,
                    "\(path) needs a schema upgrade, which cannot be written on read-only media; open it once where it is writable."
                )
            }
            try db.execute("PRAGMA foreign_keys = ON")
            return
        }
        // A new catalog is built without SQLite's own flushes (seven of them: the rollback journal,
        // its folder, the first page, the WAL and its folder, the schema) and flushed once when it
        // is complete, below: nothing in it needs to survive a crash before then, and a crash
        // leaves a catalog that opens as new again (or as damaged, for `album repair`, if its
        // first page was torn), never one holding saves.
        if isFresh { try db.execute("PRAGMA synchronous = OFF") }
        // Page checksums: a new catalog reserves their bytes before its first page is written.
        if isFresh { try db.reserveBytesPerPage() }
        // fullfsync: on Darwin, SQLite's syncs use F_FULLFSYNC too (no effect elsewhere).
        try db.execute(
            "PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; "
                + "PRAGMA fullfsync = ON; PRAGMA checkpoint_fullfsync = ON; "
                + "PRAGMA wal_autocheckpoint = \(CatalogIntegrity.walFrameLimit);")
        if !isFresh { try db.execute("PRAGMA synchronous = FULL") }
        if version < migrations.count {
            try db.immediateTransaction {
                let current = try db.row("PRAGMA user_version")?.integer(0) ?? 0  // another process may have migrated
                for index in Int(current)..<migrations.count {
                    try db.execute(migrations[index])
                }
                // Created here: the save journal holds this catalog's whole history.
                if current == 0 {
                    try db.run(
                        "INSERT OR REPLACE INTO library_state (key, value) VALUES (?, 1)",
                        [.text(StateKey.journalFromStart)])
                }
                try db.execute(
                    "PRAGMA application_id = \(applicationID); PRAGMA user_version = \(migrations.count);")
            }
        }
        if isFresh {
            try flushNewCatalog(db, at: path)
            try db.execute("PRAGMA synchronous = FULL")
        }
        try addPageChecksums(db)
    }

    /// Makes a catalog built without flushes durable: its file (header and schema pages written
    /// in rollback mode) and its name. Its WAL, with the schema, is flushed (with its folder entry,
    /// which SQLite syncs on a new WAL's first flush) by the first commit of a save, before any
    /// save is acknowledged.
    private static func flushNewCatalog(_ db: Database, at path: String) throws {
        // Through SQLite's handle: closing a descriptor of our own on the file would drop SQLite's locks.
        try db.syncMainFile()
        let folder = try FileSystem.openDirectory(String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]))
        defer { FileSystem.close(folder) }
        try FileSystem.fsync(folder)
    }

    /// A catalog written before page checksums existed gets them once, by rewriting every page
    /// (`VACUUM`, one transaction: a crash leaves the catalog as it was). On read-only media it
    /// stays as it is and is read unchecked, by `quick_check` on open only, until opened where it
    /// is writable.
    private static func addPageChecksums(_ db: Database) throws {
        guard db.reservedBytesPerPage != Int(Database.checksumBytes) else { return }
        try db.reserveBytesPerPage()
        try db.execute("VACUUM")
    }
}
