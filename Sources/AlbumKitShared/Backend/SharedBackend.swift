#if os(Linux)
    import AlbumKitCore
    import Foundation

    /// A library shared by many machines: the catalog in PostgreSQL, the originals in an
    /// S3-compatible object store, keyed by SHA-256.
    ///
    /// Save protocol (safe across machines, crash-safe at every step):
    /// 1. stage: inspect, then hash (a file up to the multipart threshold where it is; a larger one,
    ///    or data in memory, while copying it into an invisible local file);
    /// 2. transaction A: record an upload intent per original, owned by this database session, under
    ///    the object's advisory lock (the lock `gc` takes before deleting an object);
    /// 3. upload each original not already in the library (`If-None-Match: *`, SHA-256 checked
    ///    by the store): the store's acknowledgement is the durability barrier;
    /// 4. transaction B (READ COMMITTED): the title's advisory lock, ``AlbumRequest/resolve(in:)``,
    ///    album, assets and membership, then the intents deleted — all or nothing.
    ///
    /// A row therefore never exists without its object; an object without a row (a saver that died
    /// after uploading) is collected by ``collectGarbage()`` once its intent's session is gone.
    ///
    /// Companions (sidecars, the raw of a pair) are kept with the asset, as objects (``CompanionKeeping``).
    package final class SharedBackend: LibraryBackend, CompanionKeeping {
        package let identity: String
        package let preferredBatchSize = 64
        /// The library URL without any password, for messages.
        let displayURL: String
        let store: S3Client
        private let url: String
        private let connection: Locked<PostgresConnection?>
        let stagingPath: String
        /// How long a lock wait may last before the save fails with `libraryBusy`.
        let lockTimeoutMilliseconds: Int
        /// How long a lost database connection is tried again (a server restart) before giving up.
        let reconnectWindow: TimeInterval
        /// Who saves from here (the operating-system user and the machine), recorded with each new
        /// asset beside the database role.
        let saver: (user: String, host: String)
        /// The database role was seen to have the rights a save needs (checked before a save, once).
        private let isWriterKnown = Locked(false)
        /// Where credentials and options were read from (a store with new settings reads them again).
        let environment: [String: String]
        /// Intents and uploads started as files are staged (``UploadPipeline``).
        private let pipeline = Locked<UploadPipeline?>(nil)

        private init(
            url: String, connection: PostgresConnection, store: S3Client, stagingPath: String, lockTimeout: Int,
            environment: [String: String]
        ) {
            self.lockTimeoutMilliseconds = lockTimeout
            self.reconnectWindow = environment["ALBUMKIT_PG_RETRY_SECONDS"].flatMap(TimeInterval.init) ?? 60
            self.saver = Self.saverName(environment)
            self.environment = environment
            self.url = url
            self.displayURL = url
            self.identity = "shared:" + url
            self.connection = Locked(connection)
            self.store = store
            self.stagingPath = stagingPath
        }

        // MARK: Opening

        /// Opens the initialised shared library at `url`.
        ///
        /// - Throws: `.libraryNotFound` (no server, not initialised), `.accessDenied` (credentials).
        package static func open(url: String, environment: [String: String] = LibraryConfiguration.current.environment)
            throws -> SharedBackend
        {
            try checkNoPassword(in: url)
            // Every request to the object store is signed.
            try SHA256Hasher.requireLibrary(to: "open the shared library")
            let connection = try connect(url, "open the library", lockTimeout: lockTimeout(environment))
            var settings = try readSettings(connection, url)
            guard let version = settings["schema_version"].flatMap(Int.init) else {
                throw AlbumError(.libraryNotFound, "\(url) is not an AlbumKit library yet; run `album init` first.")
            }
            guard version <= SharedSchema.version else {
                throw AlbumError(
                    .libraryCorrupt,
                    "\(url) was set up by a newer AlbumKit (schema \(version)); update AlbumKit to use it.")
            }
            if version < SharedSchema.version {
                try upgrade(connection, url)
                settings = try readSettings(connection, url)
            }
            let location = try recordedLocation(settings.values, url)
            let backend = try SharedBackend(
                url: url, connection: connection, store: makeStore(location, environment),
                stagingPath: stagingPath(environment), lockTimeout: lockTimeout(environment), environment: environment)
            if settings.roleMaySave { backend.isWriterKnown.withLock { $0 = true } }
            return backend
        }

        /// The `albumkit_setting` table, and whether this connection's role may save.
        struct Settings {
            /// The table's rows, by name.
            var values: [String: String] = [:]
            /// The role may insert into every table a save writes (``requireWriter()``).
            var roleMaySave = false

            subscript(name: String) -> String? { values[name] }
        }

        /// The `albumkit_setting` table, with whether this role may save: one query, one round trip
        /// less for every save.
        static func readSettings(_ connection: PostgresConnection, _ url: String) throws -> Settings {
            do {
                // The role's rights come in the one row without a name (`name` is never NULL in the table).
                let rows = try connection.execute(
                    """
                    SELECT name, value FROM albumkit_setting
                    UNION ALL SELECT NULL, (SELECT count(*) = 4
                        FROM unnest(ARRAY['asset', 'upload_intent', 'album_asset', 'album']) t
                        WHERE has_table_privilege(to_regclass(t), 'INSERT'))::text
                    """)
                var settings = Settings()
                for row in rows {
                    guard let name = row[0] else {
                        settings.roleMaySave = row[1] == "true"
                        continue
                    }
                    if settings.values[name] == nil, let value = row[1] { settings.values[name] = value }
                }
                return settings
            } catch {
                throw error.albumError("open the library", library: url)
            }
        }

        /// The object store that `settings` record.
        static func recordedLocation(_ settings: [String: String], _ url: String) throws -> ObjectStoreLocation {
            guard let endpoint = settings["endpoint"], let bucket = settings["bucket"] else {
                throw AlbumError(.libraryNotFound, "\(url) is not an AlbumKit library yet; run `album init` first.")
            }
            // An endpoint recorded with credentials in it (before they were refused) is used and shown
            // without them: the store's credentials come from this machine's credentials file.
            return ObjectStoreLocation(
                endpoint: ObjectStoreLocation.withoutCredentials(endpoint), bucket: bucket,
                prefix: settings["prefix"] ?? "",
                region: settings["region"] ?? "us-east-1",
                addressing: settings["addressing"].flatMap(ObjectStoreAddressing.init(rawValue:)) ?? .path)
        }

        /// Brings a library set up by an older AlbumKit to this schema (new columns only; nothing is
        /// rewritten), under the lock `init` takes.
        private static func upgrade(_ connection: PostgresConnection, _ url: String) throws {
            do {
                try connection.transaction {
                    try connection.execute("SELECT pg_advisory_xact_lock(\(SharedSchema.titleLock), 0)")
                    try connection.execute(SharedSchema.create)
                    try connection.execute(SharedSchema.upgradeFromVersion2)
                    try connection.execute(SharedSchema.upgradeFromVersion3)
                    try connection.execute(SharedSchema.guards)
                    try connection.execute(SharedSchema.upgradeFromVersion4)
                    try connection.execute(
                        "UPDATE albumkit_setting SET value = $1 WHERE name = 'schema_version' AND value::int < $1::int",
                        [String(SharedSchema.version)])
                }
            } catch {
                let mapped =
                    (error as? PostgresError)?.albumError(
                        "update the library to this version of AlbumKit", library: url)
                    ?? AlbumError.wrap(error)
                guard mapped.code == .accessDenied || mapped.code == .libraryUnwritable else { throw mapped }
                throw AlbumError(
                    .accessDenied,
                    "\(url) was set up by an older AlbumKit and this database user may not update it; ask its administrator to run `album init` once with this version.",
                    underlying: mapped)
            }
        }

        /// Creates the tables and records `location` (endpoint, bucket, prefix — never credentials);
        /// creates the bucket when missing. Running it again with the same store changes nothing.
        ///
        /// - Throws: `.libraryCorrupt` when the library already uses another store.
        package static func initialize(
            url: String, location: ObjectStoreLocation,
            environment: [String: String] = LibraryConfiguration.current.environment
        ) throws -> SharedBackend {
            try checkNoPassword(in: url)
            try SHA256Hasher.requireLibrary(to: "create the shared library")
            let location = try location.validated()
            let store = try makeStore(location, environment)
            do { try store.createBucketIfMissing() } catch {
                throw map(error, "create the bucket", library: url, store: store)
            }
            let connection = try connect(url, "set up the library")
            do {
                try connection.transaction {
                    try connection.execute("SELECT pg_advisory_xact_lock(\(SharedSchema.titleLock), 0)")
                    try connection.execute(SharedSchema.create)
                    try connection.execute(SharedSchema.upgradeFromVersion2)
                    try connection.execute(SharedSchema.upgradeFromVersion3)
                    try connection.execute(SharedSchema.guards)
                    try connection.execute(SharedSchema.upgradeFromVersion4)
                    let existing = Dictionary(
                        uniqueKeysWithValues: try connection.execute("SELECT name, value FROM albumkit_setting").map {
                            ($0[0]!, $0[1]!)
                        })
                    let wanted = [
                        "schema_version": String(SharedSchema.version), "endpoint": location.endpoint,
                        "bucket": location.bucket, "prefix": location.prefix, "region": location.region,
                        "addressing": location.addressing.rawValue,
                    ]
                    if existing["endpoint"] != nil {
                        let recorded = try recordedLocation(existing, url)
                        guard recorded == location else {
                            throw AlbumError(
                                .libraryCorrupt,
                                "\(url) is already set up with \(recorded.summary); `init` asked for \(location.summary). Nothing was changed. Change the endpoint, region or addressing with `album config`; the bucket and prefix stay."
                            )
                        }
                        try connection.execute(
                            "UPDATE albumkit_setting SET value = $1 WHERE name = 'schema_version' AND value::int < $1::int",
                            [String(SharedSchema.version)])
                        return
                    }
                    for (name, value) in wanted {
                        try connection.execute(
                            "INSERT INTO albumkit_setting (name, value) VALUES ($1, $2)", [name, value])
                    }
                }
            } catch {
                throw map(error, "set up the library", library: url, store: store)
            }
            return SharedBackend(
                url: url, connection: connection, store: store, stagingPath: stagingPath(environment),
                lockTimeout: lockTimeout(environment), environment: environment)
        }

        private static func checkNoPassword(in url: String) throws {
            guard let parsed = URLComponents(string: url), ["postgres", "postgresql"].contains(parsed.scheme ?? "")
            else {
                throw AlbumError(
                    .libraryNotFound, "\"\(url)\" is not a postgres:// URL of a shared library.")
            }
            if parsed.password != nil || (parsed.queryItems ?? []).contains(where: { $0.name == "password" }) {
                throw AlbumError(
                    .accessDenied,
                    "Do not put the database password in the library URL (it would show in process lists and shell history); use PGPASSWORD or ~/.pgpass."
                )
            }
        }

        private static func connect(_ url: String, _ what: String, lockTimeout: Int = 60_000) throws
            -> PostgresConnection
        {
            do { return try PostgresConnection(url: url, lockTimeoutMilliseconds: lockTimeout) } catch {
                throw error.albumError(what, library: url)
            }
        }

        /// `ALBUMKIT_LOCK_TIMEOUT_MS`, else 60 s (the catalog's busy wait).
        private static func lockTimeout(_ environment: [String: String]) -> Int {
            environment["ALBUMKIT_LOCK_TIMEOUT_MS"].flatMap(Int.init) ?? 60_000
        }

        static func makeStore(_ location: ObjectStoreLocation, _ environment: [String: String]) throws
            -> S3Client
        {
            let window = environment["ALBUMKIT_S3_RETRY_SECONDS"].flatMap(TimeInterval.init) ?? 60
            return try S3Client(
                location: location, credentials: ObjectStoreCredentials.resolve(environment),
                retryWindow: window, trust: try ObjectStoreTrust.resolve(environment))
        }

        /// Who saves from this process (the user, the machine), as `show` reports it.
        private static func saverName(_ environment: [String: String]) -> (user: String, host: String) {
            var host = [UInt8](repeating: 0, count: 256)
            let hostName =
                gethostname(&host, host.count) == 0
                ? String(decoding: host.prefix { $0 != 0 }, as: UTF8.self) : "?"
            let login =
                environment["USER"] ?? environment["LOGNAME"]
                ?? getpwuid(getuid()).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? String(getuid())
            return (login, hostName)
        }

        private static func stagingPath(_ environment: [String: String]) -> String {
            environment["ALBUMKIT_SHARED_STAGING_DIR"]
                ?? URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("albumkit-staging-\(getuid())")
                .path
        }

        // MARK: Database access

        /// Runs `body` with the connection, mapping failures to `AlbumError`. A connection the server
        /// dropped is opened again, retried with backoff for ``reconnectWindow`` (a server restart).
        /// With `retrying`, a `body` whose connection turns out lost (the server restarted since the
        /// last statement) runs once more on a new one: for reads and for changes that are the same
        /// when made twice. The save's transactions pass `false`: a lost COMMIT may have committed,
        /// and ``commit(_:to:)`` runs the whole protocol again instead.
        @discardableResult
        func withDatabase<T>(
            _ what: String, retrying: Bool = true, _ body: (PostgresConnection) throws -> T
        ) throws -> T {
            do {
                return try connection.withLock { connection in
                    var attempt = 0
                    while true {
                        attempt += 1
                        if connection == nil || connection!.isBroken {
                            connection = nil
                            connection = try reconnect()
                        }
                        do {
                            return try body(connection!)
                        } catch  where retrying && attempt == 1 && isConnectionLost(error) {
                            connection = nil
                        }
                    }
                }
            } catch {
                throw Self.map(error, what, library: url, store: store)
            }
        }

        /// A new connection; a server that refuses connections or is starting up is tried again with
        /// jittered exponential backoff until ``reconnectWindow`` has passed. Refused credentials fail at once.
        private func reconnect() throws -> PostgresConnection {
            let deadline = Date().addingTimeInterval(reconnectWindow)
            var attempt = 0
            while true {
                do {
                    return try PostgresConnection(url: url, lockTimeoutMilliseconds: lockTimeoutMilliseconds)
                } catch {
                    attempt += 1
                    guard error.isWorthRetrying, Date() < deadline, !Task.isCancelled else { throw error }
                    let delay = min(2.0, 0.1 * pow(2, Double(min(attempt, 5)))) * Double.random(in: 0.5...1)
                    usleep(useconds_t(delay * 1_000_000))
                }
            }
        }

        /// The database session's process id (tests terminate it to cut the connection).
        func serverProcessID() throws -> Int32 {
            try withDatabase("read the session") { $0.serverProcessID }
        }

        static func map(_ error: any Error, _ what: String, library: String, store: S3Client) -> AlbumError {
            switch error {
            case let error as AlbumError: return error
            case let error as PostgresError: return error.albumError(what, library: library)
            case let error as ObjectStoreError: return error.albumError(what, store: store.location.endpoint)
            case let error as SystemError: return error.libraryError(what)
            default: return AlbumError.wrap(error)
            }
        }

        func isConnectionLost(_ error: any Error) -> Bool {
            ((error as? AlbumError)?.underlying as? PostgresError)?.connectionLost == true
                || (error as? PostgresError)?.connectionLost == true
        }

        // MARK: Saving

        package struct Staged: Sendable {
            let id: String
            let file: FileSystem.StagedFile
            let byteSize: Int64
            let sha256: String
            let metadata: MediaMetadata
            let originalName: String?
            let isFavorite: Bool
            /// Its intent and upload, under way since it was staged.
            let upload: UploadTicket
            /// The files kept with it, staged beside it (``StagedMedia/Companion``).
            var companions: [StagedMedia.Companion] = []
        }

        /// The pipeline of this library, made at the first save.
        private func uploads() -> UploadPipeline {
            pipeline.withLock { pipeline in
                if let pipeline { return pipeline }
                // Weak: the library may be closed while a save is under way; its uploads then fail.
                let made = UploadPipeline(
                    workers: Self.uploadConnections,
                    record: { [weak self] originals in
                        guard let self else { throw AlbumError(.cancelled, "The library was closed.") }
                        return try self.recordIntents(originals)
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

        /// Albums can always be used; a member who may only read is refused here, before anything
        /// is staged or uploaded.
        package func albumUnavailableReason(needsAlbum: Bool) async throws -> String? {
            try await Blocking.run { try self.requireWriter("save into the library") }
            return nil
        }

        /// Fails with `.libraryUnwritable` unless the database role may save (insert assets, record
        /// uploads, add to albums): a reader's save or copy stops before it uploads anything. Asked
        /// of the server (`has_table_privilege`), once per library opened when the answer is yes.
        func requireWriter(_ what: String) throws {
            if isWriterKnown.withLock({ $0 }) { return }
            let row = try withDatabase("check this member's rights") { db in
                try db.execute(
                    """
                    SELECT current_user, has_table_privilege('asset', 'INSERT')
                        AND has_table_privilege('upload_intent', 'INSERT') AND has_table_privilege('album_asset', 'INSERT')
                        AND has_table_privilege('album', 'INSERT')
                    """
                ).first ?? []
            }
            guard row.count == 2, row[1] == "t" else {
                let role = row.first.flatMap { $0 } ?? "?"
                throw AlbumError(
                    .libraryUnwritable,
                    "Cannot \(what): the database role \(role) has read-only access to \(displayURL) (it may list, show, export and verify). Nothing was uploaded or changed; ask the library's administrator to make it a writer (`album init --print-roles`)."
                )
            }
            isWriterKnown.withLock { $0 = true }
        }

        package func stage(_ media: Media) async throws -> Staged {
            try await Blocking.run { try self.stageNow(media) }
        }

        /// Stages through ``StagedMedia``, the staging every library that copies files shares, and
        /// starts the file's intent and upload at once.
        private func stageNow(_ media: Media) throws -> Staged {
            // The photo and its companions (kept as objects of their own, uploaded before the
            // commit that names them) through StagedMedia.
            // A file that goes up in one PUT is read where it is, not copied: the store checks the
            // body against the SHA-256 sent with it, so a file changed after hashing is refused
            // there. A larger one (a multipart upload, whose parts are checked only against the
            // MD5s taken as they go) is copied first, so its parts are the bytes hashed.
            let staged = try StagedMedia(
                media, owners: stagingPath + "/owners", flush: false, inPlaceUpTo: store.multipartThreshold
            ) {
                do {
                    _ = try FileSystem.makeDirectory(atPath: stagingPath, mode: 0o700)
                    return try FileSystem.openDirectory(stagingPath)
                } catch let error as SystemError {
                    throw error.libraryError("stage the photo")
                }
            }
            return Staged(
                id: UUID().uuidString.lowercased(), file: staged.file, byteSize: staged.byteSize, sha256: staged.sha256,
                metadata: media.described(staged.metadata), originalName: media.originalFilename,
                isFavorite: media.isFavorite,
                upload: uploads().submit(
                    sha256: staged.sha256, file: staged.file.descriptor, size: UInt64(staged.byteSize)),
                companions: staged.companions)
        }

        package func discard(_ staged: Staged) async {
            await Blocking.forEach(1) { _ in
                // Its upload reads the file: it must end first. Its intent, if any, is forgotten (else
                // it expires with this session and `gc` reclaims the object).
                if let intent = staged.upload.wait().intent { self.forgetIntents([intent]) }
                for companion in staged.companions { FileSystem.abandon(companion.file) }
                self.discardNow(staged.file)
            }
        }

        private func discardNow(_ file: FileSystem.StagedFile) {
            FileSystem.abandon(file)
            FileSystem.close(file.directory)
        }

        package func commit(_ staged: [Staged], to album: AlbumRequest?) async throws -> CommitReceipt {
            try await Blocking.run {
                var attempt = 1
                while true {
                    // The first attempt waits for the intents and uploads started at staging; any
                    // other starts them again, on the connection there is now.
                    let isFirst = attempt == 1 && staged.map { $0.upload.claim() }.allSatisfy { $0 }
                    let uploads = staged.map { item in
                        isFirst
                            ? item.upload
                            : self.uploads().submit(
                                sha256: item.sha256, file: item.file.descriptor, size: UInt64(item.byteSize))
                    }
                    do {
                        return try self.commitUploaded(staged, uploads, to: album)
                    } catch
                        where (error as? AlbumError)?.underlying is IntentsCollected
                        && attempt < Self.commitAttempts
                    {
                        // Recorded before the connection was lost (their session is gone), then
                        // collected by `gc`: the protocol again, from its intents.
                        attempt += 1
                    } catch  where self.isConnectionLost(error) && attempt < Self.commitAttempts {
                        // The database session ended (server restart, terminated backend): nothing of this
                        // attempt was acknowledged; every step is idempotent, so run it again (the
                        // reconnection itself waits for a restarting server).
                        attempt += 1
                    }
                }
            }
        }

        /// How many times one batch's commit runs when its database connection keeps being lost.
        static let commitAttempts = 5

        /// The one commit of a save, a batch of one or of many: waits for the photos' `uploads`
        /// (step 2 and 3, ``UploadPipeline``), uploads their companions (their own step, durable
        /// before the commit that names them), then transaction B; closes the staged files when it
        /// committed. A lost database connection is thrown as such (``commit(_:to:)`` then runs the
        /// whole protocol again); any failure forgets the upload records made for it.
        private func commitUploaded(_ staged: [Staged], _ uploads: [UploadTicket], to album: AlbumRequest?) throws
            -> CommitReceipt
        {
            let (photoIntents, restored) = try collect(
                zip(staged.map(\.sha256), uploads).map { $0 }, "upload the photos")
            let companionIntents: [String]
            do {
                companionIntents = try upload(
                    staged.flatMap(\.companions).map { ($0.sha256, $0.file.descriptor, UInt64($0.byteSize)) },
                    "upload the files kept with the photos"
                ).intents
            } catch {
                forgetIntents(photoIntents)
                throw error
            }
            let intents = photoIntents + companionIntents
            // Test hook only (pid 0 when the server cannot say).
            TestPause.at("after-upload", pid: (try? self.serverProcessID()) ?? 0)
            // B: album, assets and membership at once.
            let receipt: CommitReceipt
            let replaced = Locked<[(sha256: String, size: UInt64)]>([])
            do {
                receipt = try commitRows(staged, to: album, intents: intents, restored: restored, replaced: replaced)
            } catch {
                // Nothing was committed: forget the intents (if the session still exists) so `gc` can
                // reclaim what was uploaded.
                forgetIntents(intents)
                throw error
            }
            // Test hook only (pid 0 when the server cannot say).
            TestPause.at("after-commit", pid: (try? self.serverProcessID()) ?? 0)
            let objects = replaced.withLock { $0 }
            if !objects.isEmpty {
                // The objects of companions this save replaced go now; one that cannot be removed now
                // is a stray object `gc` removes (the save itself is committed).
                _ = try? removeUnreferenced(objects)
            }
            for item in staged {
                for companion in item.companions { FileSystem.abandon(companion.file) }
                FileSystem.close(item.file.descriptor)
                FileSystem.close(item.file.directory)
            }
            return receipt
        }

        /// Transaction B: the title's lock, the resolution rule, album, assets, membership, intents
        /// forgotten. `restored`: the SHA-256 of assets whose objects this save uploaded again.
        ///
        /// Three round trips with an album, two without: the lock and what the rule asks (the
        /// remembered album, whether it and the requested one exist, the oldest of the title); then
        /// every change at once; then `COMMIT`, or `ROLLBACK` when an intent was collected meanwhile.
        private func commitRows(
            _ staged: [Staged], to album: AlbumRequest?, intents: [String], restored: Set<String>,
            replaced: Locked<[(sha256: String, size: UInt64)]>
        ) throws -> CommitReceipt {
            try withDatabase("save the photos", retrying: false) { db in
                let begin = ("BEGIN ISOLATION LEVEL READ COMMITTED", [String?]())
                var albumID: String?
                var outcome: AlbumOutcome?
                var changes: [(sql: String, parameters: [String?])] = []
                do {
                    if let album {
                        let facts = try db.pipeline([
                            begin,
                            (
                                "SELECT pg_advisory_xact_lock(\(SharedSchema.titleLock), hashtext($1))",
                                [album.title.key]
                            ),
                            (SharedAlbumDirectory.factsQuery, [album.title.key, album.albumID]),
                        ])[2]
                        // The album's creation and remembering join this transaction's one round trip
                        // of changes.
                        let queued = SharedAlbumDirectory.Queue()
                        let found = try album.findOrCreate(
                            in: SharedAlbumDirectory(db: db, facts: facts.first ?? [], queued: queued))
                        (albumID, outcome) = (found.id, found.outcome)
                        changes += queued.statements
                    } else {
                        changes.append(begin)
                    }
                    let shas = Self.arrayLiteral(staged.map(\.sha256))
                    // The assets in one statement (the first of identical bytes is inserted, the others
                    // and those already in the library resolve to the existing asset).
                    let assetsAt = changes.count
                    changes.append(
                        (
                            """
                            WITH input AS (
                                SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
                                                     $6::bigint[], $7::text[], $10::boolean[])
                                WITH ORDINALITY AS t(id, sha256, kind, format, original_name, byte_size, metadata, favorite, n)),
                            inserted AS (
                                INSERT INTO asset (id, sha256, kind, format, original_name, byte_size, added_at, metadata,
                                    saved_user, saved_host, saved_role, favorite)
                                SELECT DISTINCT ON (sha256) id, sha256, kind, format, original_name, byte_size,
                                    extract(epoch FROM now()), metadata, $8, $9, current_user, favorite
                                FROM input ORDER BY sha256, n
                                ON CONFLICT (sha256) DO NOTHING RETURNING id, sha256)
                            SELECT i.n, x.id IS NOT NULL AND x.id = i.id
                            FROM input i LEFT JOIN inserted x ON x.sha256 = i.sha256 ORDER BY i.n
                            """,
                            [
                                Self.arrayLiteral(staged.map(\.id)), shas,
                                Self.arrayLiteral(staged.map(\.metadata.kind.rawValue)),
                                Self.arrayLiteral(staged.map(\.metadata.format.rawValue)),
                                Self.arrayLiteral(staged.map(\.originalName)),
                                Self.arrayLiteral(staged.map { String($0.byteSize) }),
                                Self.arrayLiteral(
                                    staged.map {
                                        // Encoding metadata (strings, numbers, flags) cannot fail.
                                        try? String(decoding: Self.encoder.encode($0.metadata), as: UTF8.self)
                                    }
                                ),
                                saver.user, saver.host, Self.array(staged.map { $0.isFavorite ? "t" : "f" }),
                            ]
                        ))
                    // Bytes saved again while in recently deleted: the asset comes back (with its albums).
                    changes.append(
                        (
                            "UPDATE asset SET deleted_at = NULL WHERE sha256 = ANY($1::text[]) AND deleted_at IS NOT NULL",
                            [shas]
                        ))
                    if let albumID {
                        // A later statement sees the assets this transaction inserted and those another
                        // machine committed meanwhile.
                        changes.append(
                            (
                                """
                                INSERT INTO album_asset (album_id, asset_id, position, added_at)
                                SELECT $1, a.id, (SELECT coalesce(max(position), 0) FROM album_asset WHERE album_id = $1) + t.n,
                                    extract(epoch FROM now())
                                FROM unnest($2::text[]) WITH ORDINALITY AS t(sha256, n) JOIN asset a ON a.sha256 = t.sha256
                                ORDER BY t.n
                                ON CONFLICT DO NOTHING
                                """, [albumID, shas]
                            ))
                    }
                    let idsAt = changes.count
                    changes.append(("SELECT sha256, id FROM asset WHERE sha256 = ANY($1::text[])", [shas]))
                    changes.append(Self.forgetting(intents))
                    let results = try db.pipeline(changes)
                    let isNew = results[assetsAt].map { $0[1] == "t" }
                    let ids = Dictionary(results[idsAt].map { ($0[0]!, $0[1]!) }, uniquingKeysWith: { a, _ in a })
                    let assetIDs = staged.map { ids[$0.sha256] }
                    guard isNew.count == staged.count, assetIDs.allSatisfy({ $0 != nil }) else {
                        throw AlbumError(.ioFailure, "An asset vanished while saving it; nothing was saved, try again.")
                    }
                    var objects: [(sha256: String, size: UInt64)] = []
                    let updated = try Self.recordCompanions(
                        staged, assetIDs: assetIDs.map { $0! }, isNew: isNew, in: db, replaced: &objects)
                    replaced.withLock { $0 = objects }
                    try Self.checkForgotten(results[changes.count - 1], intents)
                    var reported = Set<String>()  // identical bytes twice in a batch: restored once
                    let rows: [Result<CommittedAsset, AlbumError>] = staged.indices.map { index in
                        let sha256 = staged[index].sha256
                        let isRestored = !isNew[index] && restored.contains(sha256) && reported.insert(sha256).inserted
                        return .success(
                            CommittedAsset(
                                assetID: assetIDs[index]!, isExisting: !isNew[index], isRestored: isRestored,
                                metadata: staged[index].metadata, companionsUpdated: updated[index]))
                    }
                    TestPause.at("in-commit", pid: db.serverProcessID)
                    try db.execute("COMMIT")
                    return CommitReceipt(albumID: albumID, albumOutcome: outcome, assets: rows)
                } catch {
                    // The error thrown is what matters; if even ROLLBACK fails, the server rolls back at disconnect.
                    if !db.isBroken { _ = try? db.execute("ROLLBACK") }
                    throw error
                }
            }
        }

        /// Step 2: records an intent per object (`intent`, a new UUID) under each object's lock, in
        /// one transaction and one round trip; returns the SHA-256s the library already holds (as
        /// an original or a companion).
        func recordIntents(_ originals: [(sha256: String, intent: String)]) throws -> Set<String> {
            let shas = Self.arrayLiteral(originals.map(\.sha256))
            return try withDatabase("save the photos", retrying: false) { db in
                let results = try db.pipeline([
                    ("BEGIN ISOLATION LEVEL READ COMMITTED", []),
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
                ])
                return Set(results[3].compactMap { $0[0] })
            }
        }

        /// Step 3 for one original: uploads it unless the library holds it (`present`) and its object
        /// is intact. Returns `true` when a held original's object was missing or damaged and was
        /// put back.
        func store(sha256: String, file: FileSystem.Descriptor, size: UInt64, present: Bool) throws -> Bool {
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
            throw Self.map(failure, what, library: url, store: store)
        }

        /// Forgets upload records outside a commit: the save failed or its file was discarded. Best
        /// effort: a record left behind expires with this database session, and `gc` then reclaims
        /// its object.
        func forgetIntents(_ intents: [String]) {
            guard !intents.isEmpty else { return }
            let statement = Self.forgetting(intents)
            // Best effort after a failure: a record left expires with its owner's session, and gc removes it.
            _ = try? withDatabase("forget the upload records") { db in
                try db.execute(statement.sql, statement.parameters)
            }
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

        /// Why ``checkForgotten(_:_:)`` failed a commit: `gc` took this save's intents for abandoned.
        struct IntentsCollected: Error {}

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

        static let encoder: JSONEncoder = {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return encoder
        }()

        /// A PostgreSQL array literal of simple values (UUIDs, hex digests).
        static func array(_ values: [String]) -> String { "{" + values.joined(separator: ",") + "}" }

        /// A PostgreSQL array literal of any texts: each element quoted, `"` and `\` escaped, `nil` as NULL.
        static func arrayLiteral(_ values: [String?]) -> String {
            "{"
                + values.map { value in
                    guard let value else { return "NULL" }
                    return "\""
                        + value.replacingOccurrences(of: "\\", with: "\\\\")
                        .replacingOccurrences(of: "\"", with: "\\\"") + "\""
                }.joined(separator: ",") + "}"
        }
    }
#endif
