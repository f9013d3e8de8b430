#if os(Linux)
    import AlbumKitCore
    import Foundation

    /// Intents and uploads (steps 2 and 3 of the save): the ``UploadPipeline`` of this library,
    /// recording intents, putting objects into the store, waiting for them, and the one statement
    /// that forgets upload records.
    extension SharedBackend {
        /// The pipeline of this library, made at the first save.
        func uploads() -> UploadPipeline {
            pipeline.withLock { pipeline in
                if let pipeline { return pipeline }
                // Weak: the library may be closed while a save is under way; its uploads then fail.
                let made = UploadPipeline(
                    workers: Self.uploadConnections,
                    record: { [weak self] originals in
                        guard let self else { throw AlbumError(.cancelled, "The library was closed.") }
                        return try self.recordIntentsRemembering(originals)
                    },
                    upload: { [weak self] sha256, file, size, present in
                        guard let self else { throw AlbumError(.cancelled, "The library was closed.") }
                        // Test hook only (pid 0 when the server cannot say).
                        TestPause.at("before-upload", pid: (try? self.serverProcessID()) ?? 0)
                        return try self.store(sha256: sha256, file: file, size: size, present: present)
                    })
                pipeline = made
                return made
            }
        }

        /// Step 2: records an intent per object (`intent`, a new UUID) under each object's lock, in
        /// one transaction and one round trip; returns the SHA-256s the library already holds (as
        /// an original or a companion).
        ///
        /// The round trip also carries the album look-ups waiting (``pendingLookups``) and, in a
        /// process's first save, the settings: A then relies on nothing read before it, since the
        /// server checks in A, before A writes, what A needs of them — a library of this AlbumKit's
        /// format and a role that may save (``settingsGuard``) — and fails A otherwise. The PUT
        /// that follows uses the store the settings read here record.
        func recordIntents(_ originals: [(sha256: String, intent: String)]) throws -> Set<String> {
            let shas = Self.arrayLiteral(originals.map(\.sha256))
            let transaction: [(sql: String, parameters: [String?])] = [
                // Each object's lock, in lock-key order so two savers never wait on each other in a cycle.
                (
                    """
                    SELECT pg_advisory_xact_lock(\(SharedSchema.objectLock), key)
                    FROM (SELECT DISTINCT hashtext(s) AS key FROM unnest($1::text[]) s ORDER BY key) k
                    """, [shas]
                ),
                (
                    """
                    INSERT INTO upload_intent (id, sha256, owner_pid, owner_start, expires_at)
                    SELECT t.id, t.sha256, a.pid, a.backend_start, now() + interval '1 day'
                    FROM unnest($1::uuid[], $2::text[]) AS t(id, sha256),
                        (SELECT pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()) a
                    """, [Self.arrayLiteral(originals.map(\.intent)), shas]
                ),
                // An original or a companion: the same object whichever names it.
                (
                    """
                    SELECT sha256 FROM asset WHERE sha256 = ANY($1::text[])
                    UNION SELECT sha256 FROM asset_companion WHERE sha256 = ANY($1::text[])
                    """, [shas]
                ),
                ("COMMIT", []),
            ]
            let recorded = try withDatabase("save the photos", retrying: false, settingsFirst: false) {
                db -> Set<String>? in
                let readsSettings = !areSettingsKnown
                let lookups = pendingLookups.withLock { pending in
                    defer { pending = [] }
                    return pending
                }
                // Read inside A (after its BEGIN, which must come before any statement of the
                // transaction), so that they answer even when the check fails A.
                var statements: [(sql: String, parameters: [String?])] = [("BEGIN ISOLATION LEVEL READ COMMITTED", [])]
                if readsSettings { statements.append((Self.settingsQuery, [])) }
                for lookup in lookups { statements += lookup.statements }
                if readsSettings { statements.append(Self.settingsGuard) }
                let presentAt = statements.count + 2
                statements += transaction
                let (results, failure) = db.pipelineAnswers(statements)
                answer(lookups, from: results, at: readsSettings ? 2 : 1, failure: failure, on: db)
                // The error thrown is what matters; if even ROLLBACK fails, the server rolls back at disconnect.
                if failure != nil, !db.isBroken { _ = try? db.execute("ROLLBACK") }
                if readsSettings, results.count > 1 { try adopt(Settings(rows: results[1]), on: db) }
                if let failure {
                    guard readsSettings, failure.message.contains(Self.settingsRefusedMark) else { throw failure }
                    // A wrote nothing; the settings, now adopted, say what to do.
                    return nil
                }
                return Set(results[presentAt].compactMap { $0[0] })
            }
            if let recorded { return recorded }
            // The role may not save (this throws, naming it), or the library was of an older format
            // and is now this one's: A again.
            try requireWriter("save into the library")
            return try recordIntents(originals)
        }

        /// Fails the transaction it is sent in (by a cast of a text that cannot succeed, as
        /// ``checkedForgetting(_:)`` does) unless the library is of this AlbumKit's format and the
        /// role may save: what transaction A relies on of the settings read in its round trip.
        static let settingsGuard: (sql: String, parameters: [String?]) = (
            """
            SELECT CASE WHEN v.version = $1 AND w.writer THEN 1
                ELSE ('\(settingsRefusedMark) ' || coalesce(v.version, '-'))::int END
            FROM (SELECT (SELECT value FROM albumkit_setting WHERE name = 'schema_version') AS version) v,
                (\(writerQuery)) AS w(writer)
            """,
            [String(SharedSchema.version)]
        )

        /// Records intents (``recordIntents(_:)``); when the connection is lost, the records may have
        /// been committed all the same, so they are kept to be forgotten later.
        func recordIntentsRemembering(_ originals: [(sha256: String, intent: String)]) throws -> Set<String> {
            do {
                return try recordIntents(originals)
            } catch {
                if isConnectionLost(error) { strandedIntents.withLock { $0.formUnion(originals.map(\.intent)) } }
                throw error
            }
        }

        /// Step 3 for one original: uploads it unless the library holds it (`present`) and its object
        /// is intact. Returns `true` when a held original's object was missing or damaged and was
        /// put back.
        func store(sha256: String, file: FileSystem.Descriptor, size: UInt64, present: Bool) throws -> Bool {
            let store = try store
            let key = store.key(try SharedSchema.objectName(sha256: sha256))
            var replace = false
            if present {
                // The store's checksum (or the bytes read back) must match, not only the size.
                let state = try store.condition(of: key, size: size, sha256: sha256, file: file)
                if state == .intact { return false }
                replace = state == .damaged
            }
            try store.put(key: key, file: file, length: size, sha256: sha256, replacing: replace)
            return present
        }

        /// Steps 2 and 3 for `objects` (SHA-256, open file, size), each distinct one once, through
        /// the ``UploadPipeline`` a save's staged files go through (companions, a copy's batches).
        /// Returns what ``collect(_:_:)`` does.
        func upload(_ objects: [(sha256: String, file: FileSystem.Descriptor, size: UInt64)], _ what: String)
            throws -> (intents: [String], restored: Set<String>)
        {
            var seen = Set<String>()
            let distinct = objects.filter { seen.insert($0.sha256).inserted }
            let tickets = distinct.map { uploads().submit(sha256: $0.sha256, file: $0.file, size: $0.size) }
            return try collect(zip(distinct.map(\.sha256), tickets).map { $0 }, what)
        }

        /// Waits for each upload (the object `sha256` under way in the ``UploadPipeline``). Returns
        /// the upload records, which the committing transaction must forget (``forgetting(_:)``),
        /// and the SHA-256 of objects the library held whose objects were missing or damaged in the
        /// store and were put back. When one failed, the records are forgotten and the failure is
        /// thrown (a lost database connection as such, for ``commit(_:to:)`` to run again).
        func collect(_ uploads: [(sha256: String, ticket: UploadTicket)], _ what: String) throws
            -> (intents: [String], restored: Set<String>)
        {
            var intents: [String] = []
            var restored = Set<String>()
            var failure: (any Error)?
            for (sha256, ticket) in uploads {
                let (intent, outcome) = ticket.wait()
                if let intent { intents.append(intent) }
                switch outcome {
                case .success(let putBack): if putBack { restored.insert(sha256) }
                case .failure(let error): failure = failure ?? error
                }
            }
            guard let failure else { return (intents, restored) }
            forgetIntents(intents)
            if isConnectionLost(failure) { throw failure }
            throw Self.map(failure, what, library: url, store: storeIfKnown)
        }

        /// Forgets upload records outside a commit: the save failed or its file was discarded. Best
        /// effort: a record left behind expires with this database session, and `gc` then reclaims
        /// its object.
        func forgetIntents(_ intents: [String]) {
            let all = strandedIntents.withLock { stranded in
                defer { stranded = [] }
                return intents + stranded
            }
            guard !all.isEmpty else { return }
            let statement = Self.forgetting(all)
            do {
                _ = try withDatabase("forget the upload records") { db in
                    try db.execute(statement.sql, statement.parameters)
                }
            } catch {
                // Kept for the next chance (a later failure, the end of a commit); a record still left
                // when the process ends expires with its session, and gc removes it.
                strandedIntents.withLock { $0.formUnion(all) }
            }
        }

        /// Forgets the upload records left by an earlier lost connection (``strandedIntents``), after
        /// a commit: the attempts that made them were run again with records of their own.
        func forgetStrandedIntents() {
            forgetIntents([])
        }

        /// Deletes the intents inside the committing transaction, failing it when one is gone.
        static func forget(_ intents: [String], in db: PostgresConnection) throws {
            let statement = forgetting(intents)
            try checkForgotten(try db.execute(statement.sql, statement.parameters), intents)
        }

        /// The one statement that forgets upload records: deletes `intents` and counts them (in a
        /// commit, ``checkForgotten(_:_:)`` checks the count).
        static func forgetting(_ intents: [String]) -> (sql: String, parameters: [String?]) {
            (
                "WITH gone AS (DELETE FROM upload_intent WHERE id = ANY($1::uuid[]) RETURNING 1) SELECT count(*) FROM gone",
                [array(intents)]
            )
        }

        /// ``forgetting(_:)`` for a transaction whose `COMMIT` is sent with it: the statement fails
        /// (and with it the transaction, before its `COMMIT`) unless it deleted every intent. SQL
        /// has no statement that raises an error, so a cast that cannot succeed does, of a text that
        /// ``refusedCommit(_:)`` knows; it depends on the rows counted, so PostgreSQL cannot fold it
        /// while planning.
        static func checkedForgetting(_ intents: [String]) -> (sql: String, parameters: [String?]) {
            (
                """
                WITH gone AS (DELETE FROM upload_intent WHERE id = ANY($1::uuid[]) RETURNING 1)
                SELECT CASE WHEN count(*) = $2::bigint THEN count(*)
                    ELSE ('\(intentsCollectedMark) ' || count(*))::bigint END
                FROM gone
                """,
                [array(intents), String(intents.count)]
            )
        }

        /// The assets of the SHA-256s in `$1`, as `sha256, id` rows, for a transaction whose
        /// `COMMIT` is sent with it: fails (as ``checkedForgetting(_:)`` does) when one of them has
        /// no asset any more (removed for good by another machine meanwhile).
        static let checkedAssetIDs = """
            WITH found AS (SELECT sha256, id FROM asset WHERE sha256 = ANY($1::text[]))
            SELECT sha256, id FROM found
            UNION ALL
            SELECT NULL, ('\(assetGoneMark) ' || count(*))::bigint::text FROM found
            HAVING count(*) < (SELECT count(DISTINCT s) FROM unnest($1::text[]) AS s)
            """

        /// The texts of the casts that fail ``checkedForgetting(_:)``, ``checkedAssetIDs``,
        /// ``SharedAlbumDirectory/checkedFacts(_:titleKey:)`` and ``settingsGuard``.
        static let intentsCollectedMark = "albumkit: upload records collected"
        static let assetGoneMark = "albumkit: an asset was removed"
        static let albumChangedMark = "albumkit: the album changed"
        static let settingsRefusedMark = "albumkit: the settings forbid this save"

        /// The error to report when `error` is one of the server's checks of a commit sent with
        /// its `COMMIT` (the transaction then failed, nothing committed); `nil` for any other.
        static func refusedCommit(_ error: PostgresError) -> AlbumError? {
            if error.message.contains(intentsCollectedMark) {
                return AlbumError(
                    .ioFailure,
                    "The upload records of this save were collected while it ran (its database connection was interrupted); nothing was saved, try again.",
                    underlying: IntentsCollected())
            }
            if error.message.contains(albumChangedMark) {
                return AlbumError(
                    .ioFailure,
                    "The album changed while saving into it (another machine); nothing was saved, try again.",
                    underlying: AlbumChanged())
            }
            if error.message.contains(assetGoneMark) {
                return AlbumError(.ioFailure, "An asset vanished while saving it; nothing was saved, try again.")
            }
            return nil
        }

        /// Why ``checkForgotten(_:_:)`` failed a commit: `gc` took this save's intents for abandoned.
        struct IntentsCollected: Error {}

        /// Why ``SharedAlbumDirectory/checkedFacts(_:titleKey:)`` failed a commit: the album facts it
        /// was made from changed before the title's lock was taken (the commit runs again reading them).
        struct AlbumChanged: Error {}

        /// Fails the committing transaction unless ``forgetting(_:)`` deleted every intent.
        static func checkForgotten(_ rows: [[String?]], _ intents: [String]) throws {
            guard rows.first?.first ?? nil == String(intents.count) else {
                // `gc` judged this session dead (its connection was cut) and may have removed an
                // object: acknowledge nothing.
                throw AlbumError(
                    .ioFailure,
                    "The upload records of this save were collected while it ran (its database connection was interrupted); nothing was saved, try again.",
                    underlying: IntentsCollected())
            }
        }

        /// Uploads in flight at once for one batch (each on its own kept-alive connection).
        static let uploadConnections = 8
    }
#endif
