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
        /// The object store the library's settings record, once they were read (``store``).
        private let knownStore: Locked<S3Client?>
        let url: String
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
        let isWriterKnown = Locked(false)
        /// The resolution rule's facts (``SharedAlbumDirectory/factsQuery``'s row) last read for each
        /// title key outside a transaction: the next save's transaction B makes its album changes
        /// from them and has the server check them under the title's lock, in the same round trip
        /// (``SharedAlbumDirectory/checkedFacts(_:titleKey:)``). Used once; the titles looked up
        /// last only, so a long-running `album serve` does not keep every title it ever looked up.
        let albumFacts = RecentAlbumFacts(limit: 64)
        /// Where credentials and options were read from (a store with new settings reads them again).
        let environment: [String: String]
        /// Album look-ups asked for now and sent with the next use of the database, a save's
        /// transaction A if it comes first (``albumLater(titled:assetsOriginallyNamed:)``).
        let pendingLookups = Locked<[PendingLookup]>([])
        /// Intents and uploads started as files are staged (``UploadPipeline``).
        let pipeline = Locked<UploadPipeline?>(nil)
        /// Upload records this process may have left when a database connection was lost (a record
        /// committed whose reply never came, a forgetting that failed): forgotten at the next
        /// chance, so a save that recovered from a server restart leaves none behind.
        let strandedIntents = Locked<Set<String>>([])
        /// The store refused to keep a thumbnail (a member whose keys may only read): from then on
        /// they are made for each request without trying to keep them (``preview(ofAssetWithID:size:)``).
        let keepingRefused = Locked(false)

        private init(
            url: String, connection: PostgresConnection, store: S3Client?, stagingPath: String, lockTimeout: Int,
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
            self.knownStore = Locked(store)
            self.stagingPath = stagingPath
        }

        // MARK: Opening

        /// Opens the initialised shared library at `url`: connects and, with `settingsNow`, reads
        /// its settings (the format, bringing an older one to this AlbumKit's; the object store;
        /// this role's rights). Without, they come with the first use of the database, and a
        /// save's first use is its transaction A, which the server refuses when the settings
        /// forbid it (``adopt(_:on:)``, ``recordIntents(_:)``): one round trip fewer.
        ///
        /// - Throws: `.libraryNotFound` (no server; with `settingsNow`, not initialised),
        ///   `.accessDenied` (credentials), `.libraryCorrupt` (with `settingsNow`, a newer format).
        package static func open(
            url: String, environment: [String: String] = LibraryConfiguration.current.environment,
            settingsNow: Bool = true
        ) throws -> SharedBackend {
            try checkNoPassword(in: url)
            // Every request to the object store is signed.
            try SHA256Hasher.requireLibrary(to: "open the shared library")
            let connection = try connect(url, "open the library", lockTimeout: lockTimeout(environment))
            let backend = SharedBackend(
                url: url, connection: connection, store: nil, stagingPath: stagingPath(environment),
                lockTimeout: lockTimeout(environment), environment: environment)
            if settingsNow { try backend.withDatabase("open the library") { _ in } }
            return backend
        }

        /// The object store the library's settings record; read with them at the first use.
        var store: S3Client {
            get throws {
                if let store = knownStore.withLock({ $0 }) { return store }
                return try withDatabase("open the library") { _ in
                    guard let store = knownStore.withLock({ $0 }) else {
                        throw AlbumError(
                            .libraryNotFound, "\(url) is not an AlbumKit library yet; run `album init` first.")
                    }
                    return store
                }
            }
        }

        /// The object store, if the settings were read (for messages, which never wait for them).
        var storeIfKnown: S3Client? { knownStore.withLock { $0 } }

        /// Whether the library's settings were read (and its store is known).
        var areSettingsKnown: Bool { storeIfKnown != nil }

        /// Checks `settings`, read on `connection`: a library of this format (one of an older format
        /// is brought to it first, read again), then takes the store they record and whether the
        /// role may save.
        ///
        /// - Throws: `.libraryNotFound` when the library is not set up, `.libraryCorrupt` when a
        ///   newer AlbumKit set it up.
        func adopt(_ settings: Settings, on connection: PostgresConnection) throws {
            var settings = settings
            guard let version = settings["schema_version"].flatMap(Int.init) else {
                throw AlbumError(.libraryNotFound, "\(url) is not an AlbumKit library yet; run `album init` first.")
            }
            guard version <= SharedSchema.version else {
                throw AlbumError(
                    .libraryCorrupt,
                    "\(url) was set up by a newer AlbumKit (schema \(version)); update AlbumKit to use it.")
            }
            if version < SharedSchema.version {
                do {
                    try Self.upgrade(connection, url)
                    settings = try Self.readSettings(connection, url)
                } catch let error as AlbumError
                    where error.code == .accessDenied && version >= SharedSchema.usableWithoutUpgradeSince
                {
                    // A member who may not change tables, and only indexes are missing: the library
                    // answers the same, some look-ups more slowly, until its owner runs `album init`.
                }
            }
            let store = try Self.makeStore(Self.recordedLocation(settings.values, url), environment)
            knownStore.withLock { $0 = store }
            if settings.roleMaySave { isWriterKnown.withLock { $0 = true } }
        }

        /// The `albumkit_setting` table, and whether this connection's role may save.
        struct Settings {
            /// The table's rows, by name.
            var values: [String: String] = [:]
            /// The role may insert into every table a save writes (``requireWriter()``).
            var roleMaySave = false

            /// The settings of ``settingsQuery``'s `rows`.
            init(rows: [[String?]]) {
                for row in rows {
                    guard let name = row[0] else {
                        roleMaySave = row[1] == "true"
                        continue
                    }
                    if values[name] == nil, let value = row[1] { values[name] = value }
                }
            }

            subscript(name: String) -> String? { values[name] }
        }

        /// The `albumkit_setting` table, with whether this role may save: one query, one round trip
        /// less for every save.
        static func readSettings(_ connection: PostgresConnection, _ url: String) throws -> Settings {
            do {
                return Settings(rows: try connection.execute(settingsQuery))
            } catch {
                throw error.albumError("open the library", library: url)
            }
        }

        /// ``Settings``' rows: the table's, and the role's rights in the one row without a name
        /// (`name` is never NULL in the table).
        static let settingsQuery = """
            SELECT name, value FROM albumkit_setting
            UNION ALL SELECT NULL, (\(writerQuery))::text
            """

        /// Whether the role may insert into every table a save writes.
        static let writerQuery = """
            SELECT count(*) = 4 FROM unnest(ARRAY['asset', 'upload_intent', 'album_asset', 'album']) t
            WHERE has_table_privilege(to_regclass(t), 'INSERT')
            """

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
        static func upgrade(_ connection: PostgresConnection, _ url: String) throws {
            do {
                try connection.transaction {
                    try connection.execute("SELECT pg_advisory_xact_lock(\(SharedSchema.titleLock), 0)")
                    try connection.execute(SharedSchema.create)
                    try connection.execute(SharedSchema.upgradeFromVersion2)
                    try connection.execute(SharedSchema.upgradeFromVersion3)
                    try connection.execute(SharedSchema.upgradeFromVersion5)
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
                    try connection.execute(SharedSchema.upgradeFromVersion5)
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
        ///
        /// Before `body`, in one round trip: the settings unless known, and the album look-ups
        /// waiting (``pendingLookups``), so that a look-up is always answered before any later
        /// change. With `settingsFirst` false, neither: `body` sends them itself (transaction A)
        /// or sends nothing.
        @discardableResult
        func withDatabase<T>(
            _ what: String, retrying: Bool = true, settingsFirst: Bool = true, _ body: (PostgresConnection) throws -> T
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
                            if settingsFirst { try prepare(connection!, readingSettings: !areSettingsKnown) }
                            return try body(connection!)
                        } catch  where retrying && attempt == 1 && isConnectionLost(error) {
                            connection = nil
                        }
                    }
                }
            } catch {
                throw Self.map(error, what, library: url, store: storeIfKnown)
            }
        }

        /// The settings (when `readingSettings`) and the look-ups waiting, read in one round trip.
        private func prepare(_ db: PostgresConnection, readingSettings: Bool) throws {
            let lookups = pendingLookups.withLock { pending in
                defer { pending = [] }
                return pending
            }
            guard readingSettings || !lookups.isEmpty else { return }
            var statements: [(sql: String, parameters: [String?])] = []
            if readingSettings { statements.append((Self.settingsQuery, [])) }
            for lookup in lookups { statements += lookup.statements }
            let (results, failure) = db.pipelineAnswers(statements)
            answer(lookups, from: results, at: readingSettings ? 1 : 0, failure: failure, on: db)
            if readingSettings {
                guard let rows = results.first else {
                    throw (failure ?? PostgresError(sqlState: nil, message: "no answer", connectionLost: true))
                        .albumError("open the library", library: url)
                }
                try adopt(Settings(rows: rows), on: db)
            }
        }

        /// Gives each of `lookups` its answer: its statements' rows in `results` from `start` on (two
        /// each, in order), or `failure` for one they do not reach.
        func answer(
            _ lookups: [PendingLookup], from results: [[[String?]]], at start: Int, failure: PostgresError?,
            on db: PostgresConnection
        ) {
            for (index, lookup) in lookups.enumerated() {
                let at = start + 2 * index
                guard results.count >= at + 2 else {
                    lookup.answer(
                        .failure(
                            (failure ?? PostgresError(sqlState: nil, message: "no answer", connectionLost: true))
                                .albumError("look for the album's photos by name", library: url)))
                    continue
                }
                lookup.answer(Result { try found(results[at], results[at + 1], title: lookup.title, on: db) })
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
            try withDatabase("read the session", settingsFirst: false) { $0.serverProcessID }
        }

        static func map(_ error: any Error, _ what: String, library: String, store: S3Client?) -> AlbumError {
            switch error {
            case let error as AlbumError: return error
            case let error as PostgresError: return error.albumError(what, library: library)
            case let error as ObjectStoreError:
                return error.albumError(what, store: store?.location.endpoint ?? library)
            case let error as SystemError: return error.libraryError(what)
            default: return AlbumError.wrap(error)
            }
        }

        func isConnectionLost(_ error: any Error) -> Bool {
            ((error as? AlbumError)?.underlying as? PostgresError)?.connectionLost == true
                || (error as? PostgresError)?.connectionLost == true
        }

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
