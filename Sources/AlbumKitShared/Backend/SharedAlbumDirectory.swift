#if os(Linux)
    import AlbumKitCore
    import Foundation

    /// The resolution rule's lookups, answered inside the shared library's transaction B: from
    /// ``factsQuery``'s row when it was read (one round trip for the whole rule), else one query each.
    /// As an ``AlbumStore`` (the rule's find-or-create, ``AlbumRequest/findOrCreate(in:)``) it
    /// creates and remembers albums in the caller's transaction, at once or, given `queued`, as
    /// statements the caller sends with its other changes.
    struct SharedAlbumDirectory: AlbumDirectory {
        let db: PostgresConnection
        /// ``factsQuery``'s row for the title resolved, if read.
        var facts: [String?] = []
        /// Where album changes wait to be sent with the transaction's other changes; `nil`: sent at once.
        var queued: Queue?

        /// For title key `$1` and requested album id `$2` (or NULL): the remembered album, whether
        /// it exists, whether the requested one exists, the oldest album of the title.
        static let factsQuery = """
            SELECT r.album_id,
                EXISTS (SELECT 1 FROM album WHERE id = r.album_id AND deleted_at IS NULL),
                EXISTS (SELECT 1 FROM album WHERE id = $2 AND deleted_at IS NULL),
                (SELECT id FROM album WHERE title_key = $1 AND deleted_at IS NULL ORDER BY created_at, sequence LIMIT 1),
                $2
            FROM (SELECT (SELECT album_id FROM remembered_album WHERE title_key = $1) AS album_id) r
            """

        /// ``factsQuery`` read again under the title's lock, in a transaction whose album changes were
        /// made from `guess` (its row read earlier, without the lock, for no requested album): fails
        /// the transaction, before its `COMMIT`, unless the rule's answers are still the same. As
        /// ``SharedBackend/checkedForgetting(_:)`` does, by a cast of a text
        /// ``SharedBackend/refusedCommit(_:)`` knows, which depends on the row read (never folded
        /// while planning).
        ///
        /// ```swift
        /// let check = SharedAlbumDirectory.checkedFacts(guess, titleKey: title.key)  // sent before the changes
        /// ```
        static func checkedFacts(_ guess: [String?], titleKey: String) -> (sql: String, parameters: [String?]) {
            (
                """
                SELECT CASE WHEN (f.remembered, f.remembered_exists, f.oldest)
                        IS NOT DISTINCT FROM ($3::text, $4::boolean, $5::text) THEN 1
                    ELSE ('\(SharedBackend.albumChangedMark) ' || coalesce(f.oldest, '-'))::int END
                FROM (\(factsQuery)) AS f(remembered, remembered_exists, requested_exists, oldest, requested)
                """,
                [titleKey, nil, guess[0], guess[1], guess[3]]
            )
        }

        func rememberedAlbumID(for title: AlbumTitle) throws -> String? {
            if facts.count == 5 { return facts[0] }
            return try db.value("SELECT album_id FROM remembered_album WHERE title_key = $1", [title.key])
        }

        func albumExists(id: String) throws -> Bool {
            if facts.count == 5, id == facts[0] { return facts[1] == "t" }
            if facts.count == 5, id == facts[4] { return facts[2] == "t" }
            return try db.value("SELECT 1 FROM album WHERE id = $1 AND deleted_at IS NULL", [id]) != nil
        }

        func oldestAlbum(titled title: AlbumTitle) throws -> String? {
            if facts.count == 5 { return facts[3] }
            return try db.value(
                "SELECT id FROM album WHERE title_key = $1 AND deleted_at IS NULL ORDER BY created_at, sequence LIMIT 1",
                [title.key])
        }

        /// Statements kept in order to be sent later in one round trip (``PostgresConnection/pipeline(_:)``).
        final class Queue {
            private(set) var statements: [(sql: String, parameters: [String?])] = []

            func append(_ sql: String, _ parameters: [String?]) { statements.append((sql, parameters)) }
        }
    }

    /// Albums made and remembered inside the caller's transaction (after the title's lock), for
    /// ``AlbumRequest/findOrCreate(in:)``: `createAlbum`, `renameAlbum` and a save's transaction B.
    extension SharedAlbumDirectory: AlbumStore {
        func createAlbum(titled title: AlbumTitle) throws -> String {
            let id = UUID().uuidString.lowercased()
            try run(
                "INSERT INTO album (id, title, title_key, created_at) VALUES ($1, $2, $3, extract(epoch FROM clock_timestamp()))",
                [id, title.text, title.key])
            return id
        }

        func remember(_ id: String, for title: AlbumTitle) throws {
            try run(
                """
                INSERT INTO remembered_album (title_key, album_id) VALUES ($1, $2)
                ON CONFLICT (title_key) DO UPDATE SET album_id = excluded.album_id
                """, [title.key, id])
        }

        /// Runs the change now, or queues it when the caller sends its changes together.
        private func run(_ sql: String, _ parameters: [String?]) throws {
            if let queued { return queued.append(sql, parameters) }
            try db.execute(sql, parameters)
        }
    }
#endif
