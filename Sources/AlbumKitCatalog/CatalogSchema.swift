import AlbumKitCore
/// The catalog's SQLite schema: an index derived from the journal, rebuilt whenever it is
/// missing, damaged, out of date in a way a replay cannot mend, or from another release.
enum CatalogSchema {
    /// `PRAGMA application_id`: "ALBK", marks the file as an AlbumKit catalog.
    static let applicationID = CatalogFormat.applicationID

    /// `PRAGMA user_version` of an index derived from a ``LibraryJournal``. Versions 1 and 2 were
    /// the previous release's catalog, which held the library's truth itself
    /// (``CatalogMigration`` converts such a library); version 4 lacked the listing keys and kept
    /// counts, version 5 the kept byte sizes, the memberships' capture keys (an album's summary
    /// read every membership of the library) and the companions' paths as rows (`companion_file`:
    /// whether a file is recorded read every asset's companions), version 6 the kept counts of the
    /// albums' blocks (`album_block`: a place in an album read every membership before it), version
    /// 7 an index of original names with A–Z in either case (``OriginalNameKey``: a save into an
    /// album looked for earlier versions by reading the whole album); each is rebuilt from the
    /// journal like any index not of this version.
    static let version: Int64 = 8

    /// The oldest `user_version` of an index derived from the journal (older ones held the truth).
    static let firstDerivedVersion: Int64 = 3

    static let tables = """
        CREATE TABLE asset (
            id TEXT PRIMARY KEY,
            state TEXT NOT NULL CHECK (state IN ('ready', 'deleted')),
            kind TEXT NOT NULL CHECK (kind IN ('photo', 'video')),
            format TEXT NOT NULL,
            path TEXT NOT NULL UNIQUE,
            original_name TEXT,
            byte_size INTEGER NOT NULL CHECK (byte_size >= 0),
            sha256 TEXT NOT NULL,
            added_at REAL NOT NULL,
            deleted_at REAL,
            favorite INTEGER NOT NULL DEFAULT 0,
            metadata TEXT,
            companions TEXT,
            added_key INTEGER NOT NULL,
            taken_key TEXT NOT NULL
        ) STRICT;
        CREATE INDEX asset_by_content ON asset(sha256, byte_size);
        CREATE INDEX asset_by_name ON asset(original_name COLLATE NOCASE);
        CREATE INDEX asset_by_added ON asset(kind, added_key, id) WHERE state = 'ready';
        CREATE INDEX asset_by_taken ON asset(kind, taken_key, id) WHERE state = 'ready';
        CREATE TABLE album (
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            title_key TEXT NOT NULL,
            created_at REAL NOT NULL,
            ready_count INTEGER NOT NULL DEFAULT 0,
            ready_bytes INTEGER NOT NULL DEFAULT 0
        ) STRICT;
        CREATE INDEX album_by_title ON album(title_key, created_at);
        CREATE TABLE album_asset (
            album_id TEXT NOT NULL REFERENCES album(id) ON DELETE CASCADE,
            asset_id TEXT NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            added_at REAL NOT NULL,
            taken_key TEXT NOT NULL,
            PRIMARY KEY (album_id, asset_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX album_asset_order ON album_asset(album_id, position);
        CREATE INDEX album_asset_asset ON album_asset(asset_id);
        CREATE INDEX album_asset_taken ON album_asset(album_id, taken_key);
        CREATE TABLE album_block (
            album_id TEXT NOT NULL REFERENCES album(id) ON DELETE CASCADE,
            block INTEGER NOT NULL,
            ready_count INTEGER NOT NULL,
            PRIMARY KEY (album_id, block)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE companion_file (
            path TEXT NOT NULL,
            asset_id TEXT NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
            PRIMARY KEY (path, asset_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX companion_file_asset ON companion_file(asset_id);
        CREATE TABLE remembered_album (
            title_key TEXT PRIMARY KEY,
            album_id TEXT NOT NULL
        ) STRICT;
        CREATE TABLE index_state (
            key TEXT PRIMARY KEY,
            value ANY
        ) STRICT;
        CREATE TABLE purged_file (
            path TEXT PRIMARY KEY
        ) STRICT;
        CREATE TABLE journal_damage (
            offset INTEGER PRIMARY KEY,
            affects TEXT
        ) STRICT;
        CREATE TABLE acknowledged_damage (
            offset INTEGER PRIMARY KEY
        ) STRICT;
        """

    /// How many places of an album's order (`album_asset.position`) one row of `album_block`
    /// counts: the assets not recently deleted whose position divided by this is the row's
    /// `block`. A place in an album is found by adding the blocks' counts (an album of a million
    /// has under a thousand) and then stepping through one block at most.
    static let albumBlockSize: Int64 = 1024

    /// The listing keys of a new `asset` row from its `added_at` (`?1`) and `metadata` (`?2`):
    /// ``AssetOrder/sortKey(of:)`` kept as raw columns, so a page seeks in an index.
    /// `added_key` is the date-added key's microseconds as an integer (`%017.6f` without its
    /// point); `taken_key` is the capture-date key itself.
    static let addedKeySQL = "CAST(replace(printf('%017.6f', max(?1, 0)), '.', '') AS INTEGER)"
    /// Metadata that is not JSON (listed without it) counts as none: the date added.
    static let takenKeySQL = """
        coalesce(CASE WHEN json_valid(?2) THEN
            CASE WHEN length(json_extract(?2, '$.captureDate')) >= 19 THEN substr(json_extract(?2, '$.captureDate'), 1, 19) END
        END, strftime('%Y-%m-%dT%H:%M:%S', max(?1, 0), 'unixepoch'), '1970-01-01T00:00:00')
        """

    /// `1` when the library file `?1` is an asset's own or one of its companions': two seeks.
    static let isRecordedFileSQL = """
        SELECT 1 FROM asset WHERE path = ?1
        UNION ALL SELECT 1 FROM companion_file WHERE path = ?1
        LIMIT 1
        """

    /// `index_state` keys.
    enum StateKey {
        /// The id of the journal this index was built from.
        static let journalID = "journal_id"
        /// The journal position (bytes) up to which every record is applied.
        static let position = "position"
        /// The ``JournalDigest`` of the journal's bytes from its first record to ``position``: the
        /// proof that the index is a prefix of this journal (checked in full when a snapshot is
        /// used for a rebuild).
        static let journalDigest = "journal_digest"
        /// Where the last line applied starts in the journal, and the ``JournalDigest`` of that
        /// line alone: checked against the journal at every opening (one read).
        static let lastLineStart = "last_line_start"
        static let lastLineDigest = "last_line_digest"
        /// The inode of the journal file the whole prefix was last checked against: another file
        /// (a copy of the library, a journal written anew) is checked in full once.
        static let journalInode = "journal_inode"
        /// The boot session of the last write: the index is written without flushes, so after a
        /// power loss (another boot) it may be torn and is rebuilt.
        static let boot = "boot"
        /// Records applied since the last snapshot.
        static let sinceSnapshot = "since_snapshot"
        /// Why the last snapshot failed (reported by `verify`), absent when it succeeded.
        static let snapshotError = "snapshot_error"
    }
}
