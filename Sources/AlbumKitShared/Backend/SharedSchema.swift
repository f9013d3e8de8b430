#if os(Linux)
    import AlbumKitCore

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
        /// 5: the server guards what `gc` believes (``guards``): deletion times are the server's,
        /// an asset's `sha256` never changes, new rows name their objects by SHA-256 only; what
        /// was in recently deleted at the upgrade starts its retention again, and an endpoint
        /// recorded with credentials in it loses them.
        /// 6: share links (`share_link`: an album shown to guests of `album serve`, kept as hashes).
        /// 7: original names indexed with A–Z in either case (`asset_by_name_key`, ``OriginalNameKey``):
        /// a save into an album finds its earlier versions by name instead of reading the album.
        /// 8: ids indexed byte by byte (`asset_by_id_bytes`, `COLLATE "C"`): an asset named by the start
        /// of its id is sought, where the primary key's order (the database's collation) need not keep
        /// ids sharing a start together.
        static let version = 8

        /// The oldest version a member who may not change tables uses as it is, without the upgrade
        /// (which they cannot make): every version since adds indexes only (8: `asset_by_id_bytes`).
        /// Older ones are refused until the owner runs `album init` once.
        static let usableWithoutUpgradeSince = 7

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
            CREATE INDEX IF NOT EXISTS asset_by_name_key ON asset (lower(original_name COLLATE "C"));
            CREATE INDEX IF NOT EXISTS asset_by_id_bytes ON asset ((id COLLATE "C"));
            CREATE TABLE IF NOT EXISTS share_link (
                id text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{10}$'),
                album_id text NOT NULL REFERENCES album (id) ON DELETE CASCADE,
                token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
                rights text NOT NULL CHECK (rights IN ('view', 'add')),
                created_at double precision NOT NULL,
                expires_at double precision,
                pin_hash text,
                failed_pins integer NOT NULL DEFAULT 0 CHECK (failed_pins >= 0)
            );
            """

        /// The server's own checks, created (or brought up to date) by `init` and by every upgrade,
        /// as often as they run. They hold for every database role, the tables' owner included,
        /// whatever client writes the rows:
        ///
        /// - `deleted_at` (recently deleted) is the server's clock: a row inserted deleted, or whose
        ///   `deleted_at` changes to any time, gets `now()` instead of the time sent; clearing it
        ///   (restoring) is left as is. A member cannot date a deletion back so that `gc` removes it
        ///   before the retention has passed.
        /// - An asset's `sha256` names its original and never changes: such an update is refused
        ///   (SQLSTATE 42501), so a member cannot point a row elsewhere and leave the original to `gc`.
        /// - New rows name objects by a SHA-256 in lowercase hex only (`CHECK … NOT VALID`: rows
        ///   already there are not rejected; AlbumKit treats those as damaged when it reads them).
        /// - A member who may change `asset` and `album` may update only the columns AlbumKit's own
        ///   changes need (`asset.deleted_at`; `album.title`, `title_key`, `deleted_at`): a right given
        ///   on a whole table before version 5 is narrowed to them.
        /// - A companion (the raw of a pair, a sidecar) whose row a member deletes or points at other
        ///   bytes leaves its object in `released_object`, with the server's time: `gc` keeps it for
        ///   the retention, as it keeps a deleted photo's. (The owner's own changes, `purge` among
        ///   them, release at once.)
        ///
        /// The trigger functions run with `search_path = pg_catalog` and name the one table they
        /// write by its schema, so that nothing a member creates (a temporary table) can stand in
        /// for what they use. An endpoint recorded with a user name or password in it (before
        /// AlbumKit refused them) loses them here: the table is readable by every member.
        static let guards = """
            CREATE OR REPLACE FUNCTION albumkit_guard_row() RETURNS trigger LANGUAGE plpgsql
                SET search_path = pg_catalog AS $guard$
            BEGIN
                IF TG_TABLE_NAME = 'asset' AND TG_OP = 'UPDATE' THEN
                    IF NEW.sha256 IS DISTINCT FROM OLD.sha256 THEN
                        RAISE EXCEPTION 'the original an asset names never changes (asset %)', OLD.id
                            USING ERRCODE = 'insufficient_privilege';
                    END IF;
                END IF;
                IF NEW.deleted_at IS NOT NULL THEN
                    IF TG_OP = 'INSERT' THEN
                        NEW.deleted_at := extract(epoch FROM pg_catalog.now());
                    ELSIF NEW.deleted_at IS DISTINCT FROM OLD.deleted_at THEN
                        NEW.deleted_at := extract(epoch FROM pg_catalog.now());
                    END IF;
                END IF;
                RETURN NEW;
            END $guard$;
            DROP TRIGGER IF EXISTS albumkit_guard ON asset;
            CREATE TRIGGER albumkit_guard BEFORE INSERT OR UPDATE ON asset
                FOR EACH ROW EXECUTE FUNCTION albumkit_guard_row();
            DROP TRIGGER IF EXISTS albumkit_guard ON album;
            CREATE TRIGGER albumkit_guard BEFORE INSERT OR UPDATE ON album
                FOR EACH ROW EXECUTE FUNCTION albumkit_guard_row();
            DO $$ BEGIN
                IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'asset_sha256_form'
                               AND conrelid = 'asset'::regclass) THEN
                    ALTER TABLE asset ADD CONSTRAINT asset_sha256_form CHECK (sha256 ~ '^[0-9a-f]{64}$') NOT VALID;
                END IF;
                IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'asset_companion_sha256_form'
                               AND conrelid = 'asset_companion'::regclass) THEN
                    ALTER TABLE asset_companion ADD CONSTRAINT asset_companion_sha256_form
                        CHECK (sha256 ~ '^[0-9a-f]{64}$') NOT VALID;
                END IF;
                IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'upload_intent_sha256_form'
                               AND conrelid = 'upload_intent'::regclass) THEN
                    ALTER TABLE upload_intent ADD CONSTRAINT upload_intent_sha256_form
                        CHECK (sha256 ~ '^[0-9a-f]{64}$') NOT VALID;
                END IF;
            END $$;
            DO $$ DECLARE member record; BEGIN
                FOR member IN SELECT DISTINCT grantee, table_name FROM information_schema.role_table_grants
                    WHERE table_schema = current_schema() AND table_name IN ('asset', 'album')
                        AND grantee <> current_user AND privilege_type = 'UPDATE' LOOP
                    EXECUTE format('REVOKE UPDATE ON %I FROM %s', member.table_name,
                        CASE WHEN member.grantee = 'PUBLIC' THEN 'PUBLIC' ELSE quote_ident(member.grantee) END);
                    EXECUTE format('GRANT UPDATE (%s) ON %I TO %s',
                        CASE WHEN member.table_name = 'asset' THEN 'deleted_at' ELSE 'title, title_key, deleted_at' END,
                        member.table_name,
                        CASE WHEN member.grantee = 'PUBLIC' THEN 'PUBLIC' ELSE quote_ident(member.grantee) END);
                END LOOP;
            END $$;
            CREATE TABLE IF NOT EXISTS released_object (
                sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
                released_at double precision NOT NULL DEFAULT extract(epoch FROM now())
            );
            CREATE INDEX IF NOT EXISTS released_object_by_object ON released_object (sha256);
            DO $$ DECLARE member record; BEGIN
                EXECUTE format($release$
                    CREATE OR REPLACE FUNCTION albumkit_release_object() RETURNS trigger LANGUAGE plpgsql
                        SET search_path = pg_catalog AS $body$
                    BEGIN
                        IF TG_OP = 'UPDATE' THEN
                            IF NEW.sha256 IS NOT DISTINCT FROM OLD.sha256 THEN RETURN NULL; END IF;
                        END IF;
                        IF NOT pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = TG_RELID), 'MEMBER')
                            AND OLD.sha256 ~ '^[0-9a-f]{64}$' THEN
                            INSERT INTO %I.released_object (sha256) VALUES (OLD.sha256);
                        END IF;
                        RETURN NULL;
                    END $body$
                $release$, current_schema());
                FOR member IN SELECT DISTINCT grantee, privilege_type FROM information_schema.role_table_grants
                    WHERE table_schema = current_schema() AND table_name = 'asset' AND grantee <> current_user
                        AND privilege_type IN ('SELECT', 'INSERT') LOOP
                    EXECUTE format('GRANT %s (sha256) ON released_object TO %s', member.privilege_type,
                        CASE WHEN member.grantee = 'PUBLIC' THEN 'PUBLIC' ELSE quote_ident(member.grantee) END);
                    IF member.privilege_type = 'SELECT' THEN
                        EXECUTE format('GRANT SELECT ON released_object TO %s',
                            CASE WHEN member.grantee = 'PUBLIC' THEN 'PUBLIC' ELSE quote_ident(member.grantee) END);
                    END IF;
                END LOOP;
            END $$;
            DROP TRIGGER IF EXISTS albumkit_release ON asset_companion;
            CREATE TRIGGER albumkit_release AFTER DELETE OR UPDATE OF sha256 ON asset_companion
                FOR EACH ROW EXECUTE FUNCTION albumkit_release_object();
            UPDATE albumkit_setting SET value = regexp_replace(value, '^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@', '\\1')
            WHERE name = 'endpoint' AND value ~ '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*@';
            """

        /// A library before version 5 took deletion times from its clients, and a member could have
        /// dated one back: everything in recently deleted starts its retention again at the upgrade
        /// (kept longer, never removed sooner). Runs after ``guards``, before the version is raised.
        static let upgradeFromVersion4 = """
            DO $$ BEGIN
                IF (SELECT value::int FROM albumkit_setting WHERE name = 'schema_version') < 5 THEN
                    UPDATE asset SET deleted_at = extract(epoch FROM now()) WHERE deleted_at IS NOT NULL;
                    UPDATE album SET deleted_at = extract(epoch FROM now()) WHERE deleted_at IS NOT NULL;
                END IF;
            END $$;
            """

        /// Version 6's share links for the member roles an older library's owner made: whoever may read
        /// `asset` reads `share_link`, whoever may insert into `asset` makes, revokes and counts wrong
        /// PINs of links. Runs after ``create``, as often as it likes.
        static let upgradeFromVersion5 = """
            DO $$ DECLARE member record; BEGIN
                FOR member IN SELECT DISTINCT grantee, privilege_type FROM information_schema.role_table_grants
                    WHERE table_schema = current_schema() AND table_name = 'asset' AND grantee <> current_user
                        AND privilege_type IN ('SELECT', 'INSERT') LOOP
                    IF member.privilege_type = 'SELECT' THEN
                        EXECUTE format('GRANT SELECT ON share_link TO %I', member.grantee);
                    ELSE
                        EXECUTE format('GRANT INSERT, DELETE, UPDATE (failed_pins) ON share_link TO %I', member.grantee);
                    END IF;
                END LOOP;
            END $$;
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
            "released_object", "share_link",
        ]

        /// The library's retention in seconds, in SQL (the setting, else the default).
        static let retentionSeconds =
            "(86400 * coalesce((SELECT value::double precision FROM albumkit_setting WHERE name = 'retention_days'), \(defaultRetentionDays)))"

        /// In SQL: the object `sha` (an SQL expression) was released by a member less than the
        /// retention ago (``guards``).
        static func recentlyReleased(_ sha: String) -> String {
            "EXISTS (SELECT 1 FROM released_object r WHERE r.sha256 = \(sha) AND r.released_at > extract(epoch FROM now()) - \(retentionSeconds))"
        }

        /// The SQL that creates the library's two member roles (when missing) and gives them their
        /// rights on the tables of `schema` in `database`: `reader` may read everything (list, show,
        /// export, verify); `writer` may also save, make and change albums and move photos to
        /// recently deleted, but not remove anything for good (`purge`, `gc`) nor change the settings:
        /// those stay with the owner of the tables. A writer updates only the columns those changes
        /// need (``guards`` keep the deletion times the server's). A member is a login role in one
        /// of them.
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
                GRANT INSERT ON \(tables(["album", "asset"])) TO \(identifier(writer));
                REVOKE UPDATE ON \(tables(["album", "asset"])) FROM \(identifier(writer));
                GRANT UPDATE (deleted_at) ON \(tables(["asset"])) TO \(identifier(writer));
                GRANT UPDATE (title, title_key, deleted_at) ON \(tables(["album"])) TO \(identifier(writer));
                GRANT INSERT, UPDATE, DELETE ON \(tables(["album_asset", "remembered_album", "upload_intent", "asset_companion"])) TO \(identifier(writer));
                GRANT INSERT (sha256) ON \(tables(["released_object"])) TO \(identifier(writer));
                GRANT INSERT, DELETE, UPDATE (failed_pins) ON \(tables(["share_link"])) TO \(identifier(writer));
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

        /// Whether `text` is a SHA-256 as the library writes it: 64 lowercase hexadecimal digits.
        static func isDigest(_ text: String) -> Bool {
            text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }

        /// The object key of an original or companion, under the store's prefix: the one gate from a
        /// row to an object. A row whose `sha256` is not a SHA-256 (a path, another form) is
        /// damaged: no object is read, written or deleted through it.
        ///
        /// - Throws: `.libraryCorrupt` naming the row's value (`what`: which row, for the message).
        static func objectName(sha256: String, of what: String = "a record") throws -> String {
            guard isDigest(sha256) else { throw damagedRow(sha256, of: what) }
            return "originals/\(sha256.prefix(2))/\(sha256)"
        }

        /// The error of a row naming its object by something other than a SHA-256.
        static func damagedRow(_ sha256: String, of what: String) -> AlbumError {
            let shown = sha256.count > 90 ? String(sha256.prefix(90)) + "…" : sha256
            return AlbumError(
                .libraryCorrupt,
                "\(what) is damaged: it names its original as \"\(shown)\", which is not a SHA-256; AlbumKit neither reads nor deletes anything through it (`album verify` lists such rows)."
            )
        }
    }
#endif
