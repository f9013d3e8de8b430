#if os(Linux)
    /// The shared library's tables in PostgreSQL, versioned in `albumkit_setting`.
    ///
    /// An asset or album deleted by a user stays in its table with `deleted_at` set (recently deleted,
    /// restorable with its memberships) until `gc` finds it older than the retention, or until it is
    /// removed for good on request; only then do the rows go, and the object with them.
    ///
    /// Originals are objects keyed by SHA-256 (`originals/ab/<sha256>` under the store's prefix), so
    /// identical bytes are stored once and an asset row names its object by `sha256`.
    enum SharedSchema {
        /// 2: recently deleted (`deleted_at` on assets and albums) and who saved each asset (`saved_by`).
        static let version = 2

        /// Days an asset or album stays in recently deleted when the library sets none.
        static let defaultRetentionDays = 30

        /// Advisory lock namespaces (the first key of `pg_advisory_xact_lock(int, int)`).
        static let titleLock = 0x414C_4231  // serializes find-or-create per album title
        static let objectLock = 0x414C_4232  // serializes an upload's intent against `gc` per object

        static let create = """
            CREATE TABLE IF NOT EXISTS albumkit_setting (name text PRIMARY KEY, value text NOT NULL);
            CREATE TABLE IF NOT EXISTS upload_intent (
                id uuid PRIMARY KEY,
                sha256 text NOT NULL,
                owner_pid integer NOT NULL,
                owner_start timestamptz NOT NULL,
                expires_at timestamptz NOT NULL
            );
            CREATE INDEX IF NOT EXISTS upload_intent_by_object ON upload_intent (sha256);
            CREATE TABLE IF NOT EXISTS asset (
                id text PRIMARY KEY,
                sha256 text NOT NULL UNIQUE,
                kind text NOT NULL CHECK (kind IN ('photo', 'video')),
                format text NOT NULL,
                original_name text,
                byte_size bigint NOT NULL CHECK (byte_size >= 0),
                added_at double precision NOT NULL,
                metadata text
            );
            CREATE TABLE IF NOT EXISTS album (
                id text PRIMARY KEY,
                title text NOT NULL,
                title_key text NOT NULL,
                created_at double precision NOT NULL,
                sequence bigserial NOT NULL
            );
            CREATE INDEX IF NOT EXISTS album_by_title ON album (title_key, created_at, sequence);
            CREATE TABLE IF NOT EXISTS album_asset (
                album_id text NOT NULL REFERENCES album (id) ON DELETE CASCADE,
                asset_id text NOT NULL REFERENCES asset (id) ON DELETE CASCADE,
                position bigint NOT NULL,
                added_at double precision NOT NULL,
                PRIMARY KEY (album_id, asset_id)
            );
            CREATE INDEX IF NOT EXISTS album_asset_order ON album_asset (album_id, position);
            CREATE INDEX IF NOT EXISTS album_asset_by_asset ON album_asset (asset_id);
            CREATE TABLE IF NOT EXISTS remembered_album (title_key text PRIMARY KEY, album_id text NOT NULL);
            ALTER TABLE asset ADD COLUMN IF NOT EXISTS deleted_at double precision;
            ALTER TABLE asset ADD COLUMN IF NOT EXISTS saved_by text;
            ALTER TABLE album ADD COLUMN IF NOT EXISTS deleted_at double precision;
            CREATE INDEX IF NOT EXISTS asset_recently_deleted ON asset (deleted_at) WHERE deleted_at IS NOT NULL;
            CREATE INDEX IF NOT EXISTS album_recently_deleted ON album (deleted_at) WHERE deleted_at IS NOT NULL;
            """

        /// The object key of an original, under the store's prefix.
        static func objectName(sha256: String) -> String {
            "originals/\(sha256.prefix(2))/\(sha256)"
        }
    }
#endif
