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
        /// 3: who saved each asset in three columns (`saved_host`, `saved_user`, `saved_role`, read from
        /// version 2's `saved_by`) and favourites (`favorite`).
        /// 4: the files kept with an asset (`asset_companion`: its sidecars, the raw of a pair), each
        /// an object like an original.
        static let version = 4

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
            ALTER TABLE asset ADD COLUMN IF NOT EXISTS saved_host text;
            ALTER TABLE asset ADD COLUMN IF NOT EXISTS saved_user text;
            ALTER TABLE asset ADD COLUMN IF NOT EXISTS saved_role text;
            ALTER TABLE asset ADD COLUMN IF NOT EXISTS favorite boolean NOT NULL DEFAULT false;
            ALTER TABLE album ADD COLUMN IF NOT EXISTS deleted_at double precision;
            CREATE INDEX IF NOT EXISTS asset_recently_deleted ON asset (deleted_at) WHERE deleted_at IS NOT NULL;
            CREATE INDEX IF NOT EXISTS album_recently_deleted ON album (deleted_at) WHERE deleted_at IS NOT NULL;
            CREATE TABLE IF NOT EXISTS asset_companion (
                asset_id text NOT NULL REFERENCES asset (id) ON DELETE CASCADE,
                name text NOT NULL,
                role text NOT NULL CHECK (role IN ('sidecar', 'raw')),
                sha256 text NOT NULL,
                byte_size bigint NOT NULL CHECK (byte_size >= 0),
                position integer NOT NULL,
                PRIMARY KEY (asset_id, name)
            );
            CREATE INDEX IF NOT EXISTS asset_companion_by_object ON asset_companion (sha256);
            """

        /// Version 4's table for the member roles an older library's owner made: whoever may read
        /// `asset` reads `asset_companion`, whoever may insert into `asset` writes it. Runs after
        /// ``create``, as often as it likes.
        static let upgradeFromVersion3 = """
            DO $$ DECLARE member record; BEGIN
                FOR member IN SELECT DISTINCT grantee, privilege_type FROM information_schema.role_table_grants
                    WHERE table_schema = current_schema() AND table_name = 'asset' AND grantee <> current_user
                        AND privilege_type IN ('SELECT', 'INSERT') LOOP
                    IF member.privilege_type = 'SELECT' THEN
                        EXECUTE format('GRANT SELECT ON asset_companion TO %I', member.grantee);
                    ELSE
                        EXECUTE format('GRANT INSERT, UPDATE, DELETE ON asset_companion TO %I', member.grantee);
                    END IF;
                END LOOP;
            END $$;
            """

        /// Version 2 kept who saved an asset as one text, `login@host as role`: into the three columns,
        /// then the old column goes. Runs after ``create``, as often as it likes.
        static let upgradeFromVersion2 = """
            DO $$ BEGIN
                IF EXISTS (SELECT 1 FROM information_schema.columns
                           WHERE table_schema = current_schema() AND table_name = 'asset' AND column_name = 'saved_by') THEN
                    UPDATE asset SET saved_user = split_part(saved_by, '@', 1),
                        saved_host = split_part(substr(saved_by, strpos(saved_by, '@') + 1), ' as ', 1),
                        saved_role = nullif(split_part(saved_by, ' as ', 2), '')
                    WHERE saved_by IS NOT NULL AND saved_host IS NULL;
                    ALTER TABLE asset DROP COLUMN saved_by;
                END IF;
            END $$;
            """

        /// The tables of a library, for the members' grants.
        static let tables = [
            "albumkit_setting", "asset", "album", "album_asset", "remembered_album", "upload_intent", "asset_companion",
        ]

        /// The SQL that creates the library's two member roles (when missing) and gives them their
        /// rights on the tables of `schema` in `database`: `reader` may read everything (list, show,
        /// export, verify); `writer` may also save, make and change albums and move photos to
        /// recently deleted, but not remove anything for good (`purge`, `gc`) nor change the settings:
        /// those stay with the owner of the tables. A member is a login role in one of them.
        static func memberRolesSQL(database: String, schema: String, reader: String, writer: String) -> String {
            func tables(_ names: [String]) -> String {
                names.map { identifier(schema) + "." + identifier($0) }.joined(separator: ", ")
            }
            let members = identifier(reader) + ", " + identifier(writer)
            return """
                DO $$ BEGIN
                    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = \(literal(reader))) THEN
                        CREATE ROLE \(identifier(reader)) NOLOGIN;
                    END IF;
                    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = \(literal(writer))) THEN
                        CREATE ROLE \(identifier(writer)) NOLOGIN;
                    END IF;
                END $$;
                GRANT CONNECT ON DATABASE \(identifier(database)) TO \(members);
                GRANT USAGE ON SCHEMA \(identifier(schema)) TO \(members);
                GRANT SELECT ON \(tables(Self.tables)) TO \(members);
                GRANT INSERT, UPDATE ON \(tables(["album", "asset"])) TO \(identifier(writer));
                GRANT INSERT, UPDATE, DELETE ON \(tables(["album_asset", "remembered_album", "upload_intent", "asset_companion"])) TO \(identifier(writer));
                GRANT USAGE ON SEQUENCE \(tables(["album_sequence_seq"])) TO \(identifier(writer));
                """
        }

        /// `name` as an SQL identifier: double-quoted, `"` doubled.
        static func identifier(_ name: String) -> String {
            "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }

        /// `text` as an SQL string literal: single-quoted, `'` doubled.
        static func literal(_ text: String) -> String {
            "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        }

        /// The object key of an original, under the store's prefix.
        static func objectName(sha256: String) -> String {
            "originals/\(sha256.prefix(2))/\(sha256)"
        }
    }
#endif
