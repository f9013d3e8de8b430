import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// AlbumKit's own library: a `NAME.albumlibrary` directory holding `catalog.sqlite` (WAL) and
/// `originals/xx/UUID.ext`.
///
/// Save protocol (crash-safe at every step, safe across processes):
/// 1. stage: inspect, then copy + hash into an invisible `O_TMPFILE` inode in the shard directory;
/// 2. transaction A: insert the assets as `pending`, owned by this process;
/// 3. publish each file under its UUID name with `linkat` (never replaces), flush the data
///    (`fsync`, or one `syncfs` for a batch) and `fsync` the shard directories;
/// 4. transaction B (`BEGIN IMMEDIATE`): resolve or create the album, mark the assets `ready`,
///    add them to the album, remember the album's id.
///
/// `ready` therefore implies a durable file. Opening the library removes pending rows (and their
/// files) whose owning process is gone, and staged leftovers.
package final class CatalogBackend: PhotoLibraryBackend {
    package let root: URL
    package let identity: String
    /// Two chunks in flight hold at most 256 staged files (and their folders) open.
    package let preferredBatchSize = 128
    private let database: Locked<Database>

    /// Pending rows older than this are swept even if their owner looks alive (pid reuse, NFS).
    static let pendingExpiry: TimeInterval = 24 * 3600

    /// The library was opened from read-only media: it can be listed and verified, not changed.
    package let isReadOnly: Bool

    private init(root: URL, database: Database, isReadOnly: Bool = false) {
        self.isReadOnly = isReadOnly
        self.root = root
        self.identity = "catalog:" + root.path
        self.database = Locked(database)
    }

    var catalogPath: String { root.appendingPathComponent("catalog.sqlite").path }
    var originalsPath: String { root.appendingPathComponent("originals").path }

    // MARK: Opening

    /// Opens the library at `url`, creating it (and missing parent folders) when `create` is set.
    ///
    /// - Throws: `.libraryNotFound`, `.libraryCorrupt`, `.libraryUnwritable`, `.accessDenied`.
    package static func open(at url: URL, create: Bool = true, busyTimeout: Int32 = 60_000) throws -> CatalogBackend {
        let root = url.standardizedFileURL
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        let exists = fm.fileExists(atPath: root.path, isDirectory: &isDirectory)
        if exists && !isDirectory.boolValue {
            throw AlbumError(
                .libraryCorrupt, "\(root.path) is a file, not an AlbumKit library folder; nothing was changed.")
        }
        let catalog = root.appendingPathComponent("catalog.sqlite").path
        let hasCatalog = fm.fileExists(atPath: catalog)
        if !hasCatalog {
            guard create else {
                throw AlbumError(
                    .libraryNotFound, "There is no AlbumKit library at \(root.path); save a photo to create it.")
            }
            // Another process may be creating this library right now: its own entries are fine.
            let ours: Set<String> = [
                "originals", "catalog.sqlite", "catalog.sqlite-wal", "catalog.sqlite-shm", "catalog.sqlite-journal",
            ]
            if exists, let contents = try? fm.contentsOfDirectory(atPath: root.path),
                contents.contains(where: { !$0.hasPrefix(".") && !ours.contains($0) })
            {
                throw AlbumError(
                    .libraryCorrupt,
                    "\(root.path) is a non-empty folder without an AlbumKit catalog; choose an empty or new folder. Nothing was changed."
                )
            }
            do {
                try FileSystem.makeDirectory(atPath: root.path)
                try FileSystem.makeDirectory(atPath: root.appendingPathComponent("originals").path)
            } catch { throw error.libraryError("create the library") }
        } else {
            do { try FileSystem.checkWritable(root.path, catalog) } catch {
                // Reading a library on read-only media (a backup disk) works; saving into it does not.
                if !create, error.errno == EROFS || error.errno == EACCES {
                    return try openReadOnly(root: root, catalog: catalog)
                }
                throw error.libraryError("save into the library")
            }
        }

        // SQLite takes an empty file for a new database (and drops its WAL): a library whose catalog
        // was truncated to nothing would silently start over, orphaning every photo it holds.
        if hasCatalog, (try? fm.attributesOfItem(atPath: catalog)[.size] as? NSNumber)?.int64Value == 0,
            holdsOriginals(root.appendingPathComponent("originals").path)
        {
            throw AlbumError(
                .libraryCorrupt,
                "The catalog \(catalog) is empty but the library holds photos; restore the catalog from a backup. Nothing was changed."
            )
        }

        let database = try openDatabase(at: catalog, create: !hasCatalog, busyTimeout: busyTimeout)
        let backend = CatalogBackend(root: root, database: database)
        try backend.recover()
        return backend
    }

    /// Whether any shard directory under `originalsPath` holds a file.
    private static func holdsOriginals(_ originalsPath: String) -> Bool {
        let fm = FileManager.default
        for shard in (try? fm.contentsOfDirectory(atPath: originalsPath)) ?? [] where !shard.hasPrefix(".") {
            let names = (try? fm.contentsOfDirectory(atPath: originalsPath + "/" + shard)) ?? []
            if names.contains(where: { !$0.hasPrefix(".") }) { return true }
        }
        return false
    }

    /// Opens a library that cannot be written, for listing and verifying only: read-only when SQLite
    /// can use the WAL files as they are, else immutable (after a clean close there is no WAL).
    private static func openReadOnly(root: URL, catalog: String) throws -> CatalogBackend {
        var lastError: any Error = AlbumError(.libraryUnwritable, "Cannot open \(catalog).")
        for mode in [Database.OpenMode.readOnly, .immutable] {
            do {
                let database = try Database(path: catalog, mode: mode)
                try prepare(database, path: catalog, busyTimeout: 5_000, readOnly: true)
                return CatalogBackend(root: root, database: database, isReadOnly: true)
            } catch let error as AlbumError {
                throw error  // not ours, or needs an upgrade: no other mode will help
            } catch {
                lastError = error
            }
        }
        throw Self.map(lastError, what: "open the library", path: catalog)
    }

    /// Opens and prepares the catalog. Some lock waits in SQLite return `SQLITE_BUSY` without calling
    /// the busy handler (WAL recovery by another connection, a concurrent schema creation); those
    /// are retried here, with backoff, until the same deadline.
    private static func openDatabase(at path: String, create: Bool, busyTimeout: Int32) throws -> Database {
        let deadline = Date().addingTimeInterval(Double(busyTimeout) / 1000)
        var attempt = 0
        while true {
            do {
                let database = try Database(path: path, create: create)
                try prepare(database, path: path, busyTimeout: busyTimeout)
                return database
            } catch let error as SQLiteError
                where (error.primaryCode == 5 || error.primaryCode == 6) && Date() < deadline
            {
                attempt += 1
                usleep(useconds_t(min(100_000, 1_000 << min(attempt, 7))))
            } catch {
                throw Self.map(error, what: "open the library", path: path)
            }
        }
    }

    /// Checks that the file is ours (or empty), then configures and migrates it.
    private static func prepare(_ db: Database, path: String, busyTimeout: Int32, readOnly: Bool = false) throws {
        db.setBusyTimeout(milliseconds: busyTimeout)
        // Read-only checks first, in one statement so they see one snapshot even while another
        // process is creating the schema: a file that is not ours must not be written to.
        let probe = try db.row(
            "SELECT (SELECT application_id FROM pragma_application_id), "
                + "(SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_schema)")
        let applicationID = probe?.integer(0) ?? 0
        let version = probe?.integer(1) ?? 0
        let objects = probe?.integer(2) ?? 0
        let isFresh = applicationID == 0 && version == 0 && objects == 0
        guard isFresh || applicationID == CatalogSchema.applicationID else {
            throw AlbumError(
                .libraryCorrupt,
                "\(path) is not an AlbumKit catalog (another application's database); nothing was changed.")
        }
        guard version <= CatalogSchema.migrations.count else {
            throw AlbumError(
                .libraryCorrupt,
                "\(path) was written by a newer AlbumKit (schema \(version)); update AlbumKit to open it. Nothing was changed."
            )
        }
        if readOnly {
            guard !isFresh else {
                throw AlbumError(.libraryCorrupt, "The catalog \(path) is empty; nothing was changed.")
            }
            guard version == CatalogSchema.migrations.count else {
                throw AlbumError(
                    .libraryUnwritable,
                    "\(path) needs a schema upgrade, which cannot be written on read-only media; open it once where it is writable."
                )
            }
            try db.execute("PRAGMA foreign_keys = ON")
            return
        }
        try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
        if version < CatalogSchema.migrations.count {
            try db.immediateTransaction {
                let current = try db.row("PRAGMA user_version")?.integer(0) ?? 0  // another process may have migrated
                for index in Int(current)..<CatalogSchema.migrations.count {
                    try db.execute(CatalogSchema.migrations[index])
                }
                try db.execute(
                    "PRAGMA application_id = \(CatalogSchema.applicationID); PRAGMA user_version = \(CatalogSchema.migrations.count);"
                )
            }
        }
    }

    /// Removes what crashed savers left: pending rows (and their files) whose owner is gone, and,
    /// when there was such a crash, any file in `originals/` that no row names.
    func recover() throws {
        let now = Date().timeIntervalSince1970
        let dead: [(id: String, path: String)] = try withDatabase("recover the library") { db in
            let pending = try db.rows("SELECT id, path, owner, added_at FROM asset WHERE state = 'pending'")
            return pending.compactMap { row in
                let owner = row.text(2) ?? ""
                let expired = now - (row.real(3) ?? 0) > Self.pendingExpiry
                return expired || !ProcessToken.isAlive(owner) ? (row.text(0)!, row.text(1)!) : nil
            }
        }
        guard !dead.isEmpty else { return }
        // Between the read above and now, an owner may have committed its row as ready and then
        // exited (so it looked dead): remove a file only when its row is still pending, inside the
        // write transaction, so no saver can make it ready meanwhile. A crash before COMMIT leaves
        // the row pending without its file, which the next recovery removes.
        try withDatabase("recover the library") { db in
            try db.immediateTransaction {
                for item in dead
                where try db.run("DELETE FROM asset WHERE id = ? AND state = 'pending'", [.text(item.id)]) == 1 {
                    unlink(root.appendingPathComponent(item.path).path)
                }
            }
        }
        _ = try sweepStrayFiles(remove: true)
    }

    /// Files under `originals/` that no asset row names (staged leftovers of dead processes included).
    /// With `remove`, deletes those not owned by a live process.
    func sweepStrayFiles(remove: Bool) throws -> [String] {
        // List the files first, then read the rows: a saver inserts its pending row before it
        // publishes a file, so every listed file that belongs to a live save has a row by now.
        let fm = FileManager.default
        var listed: [String] = []
        for shard in ((try? fm.contentsOfDirectory(atPath: originalsPath)) ?? []).sorted() {
            for name in ((try? fm.contentsOfDirectory(atPath: originalsPath + "/" + shard)) ?? []).sorted() {
                listed.append("originals/\(shard)/\(name)")
            }
        }
        let known = Set(
            try withDatabase("read the catalog") { db in
                try db.rows("SELECT path FROM asset").compactMap { $0.text(0) }
            })
        var strays: [String] = []
        for relative in listed where !known.contains(relative) {
            let name = (relative as NSString).lastPathComponent
            if name.hasSuffix(".partial"), let owner = name.split(separator: ".").dropFirst().first,
                ProcessToken.isAlive(String(owner).replacingOccurrences(of: "_", with: "."))
            {
                continue  // being written by a live process
            }
            strays.append(relative)
            if remove { unlink(root.appendingPathComponent(relative).path) }
        }
        return strays
    }

    // MARK: Saving

    package struct Staged: Sendable {
        let id: String
        let relativePath: String
        let fileName: String
        let shard: String
        let file: FileSystem.StagedFile
        let byteSize: Int64
        let sha256: String
        let metadata: MediaMetadata
        let originalName: String?
        /// This save created the shard directory: `originals/` must be flushed for a lone save.
        let createdShard: Bool
    }

    package func albumUnavailableReason(needsAlbum: Bool) async throws -> String? {
        guard !isReadOnly else {
            throw AlbumError(
                .libraryUnwritable, "The library \(root.path) is on read-only media or not writable; nothing was saved."
            )
        }
        return nil
    }

    package func stage(_ media: Media) async throws -> Staged {
        try await Blocking.run { try self.stageNow(media) }
    }

    package func stage(
        _ media: [Media], prepared: @escaping @Sendable () -> Void
    ) async -> [Result<Staged, AlbumError>] {
        await stageOnEveryCore(media, prepared: prepared) { try self.stageNow($0) }
    }

    private func stageNow(_ media: Media) throws -> Staged {
        let reader = try MediaReader(media)
        let id = UUID().uuidString.lowercased()
        let shard = String(id.prefix(2))
        let fileName = "\(id).\(reader.metadata.format.fileExtension)"
        let (directory, createdShard) = try shardDirectory(shard)
        let staged: FileSystem.StagedFile
        do {
            let token = ProcessToken.current.replacingOccurrences(of: ".", with: "_")
            staged = try FileSystem.stage(in: directory, fallbackName: ".\(token).\(id).partial")
        } catch {
            FileSystem.close(directory)
            throw error.libraryError("stage the photo")
        }
        do {
            let sha = try reader.copy(to: staged.descriptor)
            return Staged(
                id: id, relativePath: "originals/\(shard)/\(fileName)", fileName: fileName, shard: shard,
                file: staged, byteSize: Int64(reader.size), sha256: sha, metadata: reader.metadata,
                originalName: media.originalFilename, createdShard: createdShard)
        } catch {
            FileSystem.abandon(staged)
            FileSystem.close(directory)
            throw error
        }
    }

    /// Opens the shard directory, creating it when missing; `created` says whether this call made it
    /// (its entry in `originals/` then needs flushing too).
    private func shardDirectory(_ shard: String) throws -> (FileSystem.Descriptor, created: Bool) {
        let path = originalsPath + "/" + shard
        do {
            do { return (try FileSystem.openDirectory(path), false) } catch  where error.errno == ENOENT {}
            let originals = try FileSystem.openDirectory(originalsPath)
            defer { FileSystem.close(originals) }
            let created = try FileSystem.makeDirectory(shard, in: originals)
            return (try FileSystem.openDirectory(path), created)
        } catch {
            throw error.libraryError("create the folder for the photo")
        }
    }

    package func discard(_ staged: Staged) async {
        FileSystem.abandon(staged.file)
        FileSystem.close(staged.file.directory)
    }

    package func commit(_ staged: [Staged], to album: AlbumRequest?) async throws -> CommitReceipt {
        try await Blocking.run { try self.commitNow(staged, to: album) }
    }

    private func commitNow(_ staged: [Staged], to album: AlbumRequest?) throws -> CommitReceipt {
        let now = Date().timeIntervalSince1970
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // A: pending rows first, so no published file is ever without a row. For a batch this commit
        // need not flush the disk itself: the `syncfs` below flushes the WAL with the files.
        try withDatabase("save the photos") { db in
            if staged.count > 1 { try db.execute("PRAGMA synchronous = NORMAL") }
            defer { try? db.execute("PRAGMA synchronous = FULL") }
            try db.immediateTransaction {
                for item in staged {
                    let metadata = try? String(decoding: encoder.encode(item.metadata), as: UTF8.self)
                    try db.run(
                        """
                        INSERT INTO asset (id, state, kind, format, path, original_name, byte_size, sha256, added_at, owner, metadata)
                        VALUES (?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                        [
                            .text(item.id), .text(item.metadata.kind.rawValue), .text(item.metadata.format.rawValue),
                            .text(item.relativePath), SQLValue(item.originalName), .integer(item.byteSize),
                            .text(item.sha256), .real(now), .text(ProcessToken.current), SQLValue(metadata),
                        ])
                }
            }
        }
        var published: [Staged] = []
        do {
            for item in staged {
                try FileSystem.publish(item.file, as: item.fileName)
                published.append(item)
            }
            // Durable data before the rows say "ready": one barrier for a batch.
            if staged.count == 1 {
                try FileSystem.fsync(staged[0].file.descriptor)
            } else if let first = staged.first {
                try FileSystem.syncFileSystem(first.file.descriptor)
            }
            // On Linux `syncfs` also commits the new directory entries; fsync the shard directories
            // only after a single-file `fsync` (or where there is no `syncfs`).
            #if os(Linux) || os(Android)
                let syncsDirectories = staged.count == 1
            #else
                let syncsDirectories = true
            #endif
            if syncsDirectories {
                var seen = Set<String>()
                for item in staged where seen.insert(item.shard).inserted { try FileSystem.fsync(item.file.directory) }
                if staged.contains(where: \.createdShard) {
                    let originals = try FileSystem.openDirectory(originalsPath)
                    defer { FileSystem.close(originals) }
                    try FileSystem.fsync(originals)
                }
            }
        } catch {
            rollBack(staged, published: published)
            throw error.libraryError("save the photos")
        }

        // B: album + ready + membership, atomically.
        let receipt: CommitReceipt
        do {
            receipt = try withDatabase("save the photos") { db in
                try db.immediateTransaction {
                    var albumID: String?
                    var outcome: AlbumOutcome?
                    if let album {
                        let directory = CatalogAlbumDirectory(db: db)
                        switch try album.resolve(in: directory) {
                        case .existing(let id):
                            (albumID, outcome) = (id, .found)
                        case .create(let created):
                            albumID = try Self.insertAlbum(db, title: album.title, at: now)
                            outcome = created
                        }
                        try db.run(
                            "INSERT OR REPLACE INTO remembered_album (title_key, album_id) VALUES (?, ?)",
                            [.text(album.title.key), .text(albumID!)])
                    }
                    var position =
                        try albumID.map {
                            try db.row(
                                "SELECT coalesce(max(position), 0) FROM album_asset WHERE album_id = ?", [.text($0)])?
                                .integer(0) ?? 0
                        } ?? 0
                    for item in staged {
                        try db.run(
                            "UPDATE asset SET state = 'ready', owner = NULL WHERE id = ? AND state = 'pending'",
                            [.text(item.id)])
                        if let albumID {
                            position += 1
                            try db.run(
                                "INSERT INTO album_asset (album_id, asset_id, position, added_at) VALUES (?, ?, ?, ?)",
                                [.text(albumID), .text(item.id), .integer(position), .real(now)])
                        }
                    }
                    return CommitReceipt(
                        albumID: albumID, albumOutcome: outcome,
                        assets: staged.map { .success(CommittedAsset(assetID: $0.id, metadata: $0.metadata)) })
                }
            }
        } catch {
            rollBack(staged, published: published)
            throw error
        }
        for item in staged {
            FileSystem.close(item.file.descriptor)
            FileSystem.close(item.file.directory)
        }
        return receipt
    }

    /// Undoes a failed commit: removes published files, then the pending rows. The staged
    /// descriptors stay open for ``discard(_:)``.
    private func rollBack(_ staged: [Staged], published: [Staged]) {
        for item in published { try? FileSystem.unlink(item.fileName, in: item.file.directory) }
        try? withDatabase("undo the save") { db in
            try db.immediateTransaction {
                for item in staged {
                    try db.run("DELETE FROM asset WHERE id = ? AND state = 'pending'", [.text(item.id)])
                }
            }
        }
    }

    private static func insertAlbum(_ db: Database, title: AlbumTitle, at now: TimeInterval) throws -> String {
        let id = UUID().uuidString.lowercased()
        try db.run(
            "INSERT INTO album (id, title, title_key, created_at) VALUES (?, ?, ?, ?)",
            [.text(id), .text(title.text), .text(title.key), .real(now)])
        return id
    }

    // MARK: Albums

    package func albums() async throws -> [AlbumInfo] {
        try await Blocking.run {
            try self.withDatabase("list the albums") { db in
                try db.rows(
                    """
                    SELECT a.id, a.title, a.created_at, (SELECT count(*) FROM album_asset m WHERE m.album_id = a.id)
                    FROM album a ORDER BY a.created_at, a.rowid
                    """
                ).map {
                    AlbumInfo(
                        id: $0.text(0)!, title: $0.text(1)!, count: Int($0.integer(3) ?? 0),
                        createdAt: Date(timeIntervalSince1970: $0.real(2) ?? 0))
                }
            }
        }
    }

    package func findAlbum(titled title: AlbumTitle) async throws -> String? {
        try await Blocking.run {
            try self.withDatabase("find the album") { db in
                if case .existing(let id) = try AlbumRequest(title: title).resolve(in: CatalogAlbumDirectory(db: db)) {
                    return id
                }
                return nil
            }
        }
    }

    package func assets(inAlbumWithID id: String) async throws -> [AssetInfo] {
        try await Blocking.run {
            try self.withDatabase("list the album") { db in
                try db.rows(
                    """
                    SELECT s.id, s.original_name, s.kind, s.byte_size, m.added_at, s.sha256, s.path, s.metadata
                    FROM album_asset m JOIN asset s ON s.id = m.asset_id
                    WHERE m.album_id = ? AND s.state = 'ready' ORDER BY m.position
                    """, [.text(id)]
                ).map(self.assetInfo)
            }
        }
    }

    private func assetInfo(_ row: Row) -> AssetInfo {
        let metadata = row.text(7).flatMap { try? JSONDecoder().decode(MediaMetadata.self, from: Data($0.utf8)) }
        return AssetInfo(
            id: row.text(0)!, originalFilename: row.text(1), kind: MediaKind(rawValue: row.text(2) ?? "") ?? .photo,
            byteSize: row.integer(3) ?? 0, addedAt: Date(timeIntervalSince1970: row.real(4) ?? 0),
            sha256: row.text(5), fileURL: root.appendingPathComponent(row.text(6)!), metadata: metadata)
    }

    package func createAlbum(titled title: AlbumTitle) async throws -> (id: String, outcome: AlbumOutcome) {
        try await Blocking.run {
            try self.withDatabase("create the album") { db in
                try db.immediateTransaction {
                    let id: String
                    let outcome: AlbumOutcome
                    switch try AlbumRequest(title: title).resolve(in: CatalogAlbumDirectory(db: db)) {
                    case .existing(let existing): (id, outcome) = (existing, .found)
                    case .create(let created):
                        (id, outcome) = (
                            try Self.insertAlbum(db, title: title, at: Date().timeIntervalSince1970), created
                        )
                    }
                    try db.run(
                        "INSERT OR REPLACE INTO remembered_album (title_key, album_id) VALUES (?, ?)",
                        [.text(title.key), .text(id)])
                    return (id, outcome)
                }
            }
        }
    }

    package func renameAlbum(id: String, to title: AlbumTitle) async throws {
        try await Blocking.run {
            try self.withDatabase("rename the album") { db in
                try db.immediateTransaction {
                    guard
                        try db.run(
                            "UPDATE album SET title = ?, title_key = ? WHERE id = ?",
                            [.text(title.text), .text(title.key), .text(id)]) == 1
                    else { throw AlbumError(.albumNotFound, "The album was deleted while renaming it.") }
                    // Our own rename frees the old title; the new one leads here.
                    try db.run("DELETE FROM remembered_album WHERE album_id = ?", [.text(id)])
                    try db.run(
                        "INSERT OR REPLACE INTO remembered_album (title_key, album_id) VALUES (?, ?)",
                        [.text(title.key), .text(id)])
                }
            }
        }
    }

    package func deleteAlbum(id: String, force: Bool) async throws {
        try await Blocking.run {
            try self.withDatabase("delete the album") { db in
                try db.immediateTransaction {
                    // The assets stay in the library, as in Photos.
                    _ = try db.run("DELETE FROM album WHERE id = ?", [.text(id)])
                }
            }
        }
    }

    // MARK: Verification

    package func verify() async throws -> VerificationReport {
        try await Blocking.run { try self.verifyNow() }
    }

    private func verifyNow() throws -> VerificationReport {
        let assets = try withDatabase("read the catalog") { db in
            try db.execute("PRAGMA foreign_keys = ON")
            let integrity = try db.rows("PRAGMA quick_check").compactMap { $0.text(0) }
            guard integrity == ["ok"] else {
                throw AlbumError(
                    .libraryCorrupt,
                    "The catalog \(catalogPath) is damaged: \(integrity.prefix(3).joined(separator: "; ")).")
            }
            return try db.rows("SELECT id, path, byte_size, sha256 FROM asset WHERE state = 'ready' ORDER BY path")
        }
        var problems: [String] = []
        for row in assets {
            let id = row.text(0)!
            let path = root.appendingPathComponent(row.text(1)!).path
            let opened: (FileSystem.Descriptor, size: UInt64)
            do { opened = try FileSystem.openForReading(path) } catch {
                problems.append("asset \(id): missing file \(row.text(1)!)")
                continue
            }
            defer { FileSystem.close(opened.0) }
            guard Int64(opened.size) == row.integer(2) else {
                problems.append(
                    "asset \(id): \(row.text(1)!) is \(opened.size) bytes, the catalog says \(row.integer(2) ?? -1)")
                continue
            }
            let sha = try? FileSystem.sha256(of: opened.0)
            if sha != row.text(3) {
                problems.append(
                    "asset \(id): \(row.text(1)!) has SHA-256 \(sha ?? "unreadable"), the catalog says \(row.text(3) ?? "")"
                )
            }
        }
        for stray in try sweepStrayFiles(remove: false) {
            problems.append("stray file \(stray): no asset refers to it")
        }
        return VerificationReport(checkedAssets: assets.count, problems: problems)
    }

    // MARK: Database access

    /// Runs `body` with the connection, mapping SQLite failures to `AlbumError`.
    @discardableResult
    func withDatabase<T>(_ what: String, _ body: (Database) throws -> T) throws -> T {
        do {
            return try database.withLock { try body($0) }
        } catch {
            throw Self.map(error, what: what, path: catalogPath)
        }
    }

    static func map(_ error: any Error, what: String, path: String) -> AlbumError {
        if let error = error as? AlbumError { return error }
        if let error = error as? SystemError { return error.libraryError(what) }
        guard let error = error as? SQLiteError else { return AlbumError.wrap(error) }
        // An I/O failure carries the operating system's reason: map that first.
        if error.systemErrno != 0, error.primaryCode == 10 || error.primaryCode == 13 || error.primaryCode == 14 {
            let mapped = SystemError("sqlite", path: path, errno: error.systemErrno).libraryError(what)
            if mapped.code != .ioFailure {
                return AlbumError(mapped.code, mapped.message, underlying: error)
            }
        }
        switch error.primaryCode {
        case 13:  // SQLITE_FULL
            return AlbumError(
                .notEnoughSpace, "Not enough space to \(what) (\(path)); free some space.", underlying: error)
        case 8:  // SQLITE_READONLY
            return AlbumError(
                .libraryUnwritable, "Cannot \(what): the catalog \(path) is read-only.", underlying: error)
        case 11, 26:  // SQLITE_CORRUPT, SQLITE_NOTADB
            return AlbumError(
                .libraryCorrupt,
                "The catalog \(path) is damaged or not an AlbumKit catalog; nothing was changed. Restore it from a backup.",
                underlying: error)
        case 5, 6:  // SQLITE_BUSY, SQLITE_LOCKED
            return AlbumError(.libraryBusy, "The library \(path) stayed busy too long; try again.", underlying: error)
        case 14:  // SQLITE_CANTOPEN
            return AlbumError(
                .libraryNotFound, "Cannot open the catalog \(path); does the library folder exist?", underlying: error)
        case 3:  // SQLITE_PERM
            return AlbumError(.accessDenied, "Cannot \(what): permission denied for \(path).", underlying: error)
        default:
            if error.code == 4874 {  // SQLITE_IOERR_SHMSIZE: the shared-memory file could not grow
                return AlbumError(
                    .notEnoughSpace, "Not enough space to \(what) (\(path)); free some space.", underlying: error)
            }
            if error.code == 3338 {  // SQLITE_IOERR_ACCESS: the files vanished
                return AlbumError(
                    .libraryNotFound, "Cannot \(what): the library \(path) disappeared.", underlying: error)
            }
            return AlbumError(.ioFailure, "Cannot \(what) (\(path)): \(error.message).", underlying: error)
        }
    }
}

/// The resolution rule's lookups, answered inside the catalog's transaction.
struct CatalogAlbumDirectory: AlbumDirectory {
    let db: Database

    func rememberedAlbumID(for title: AlbumTitle) throws -> String? {
        try db.row("SELECT album_id FROM remembered_album WHERE title_key = ?", [.text(title.key)])?.text(0)
    }

    func albumExists(id: String) throws -> Bool {
        try db.row("SELECT 1 FROM album WHERE id = ?", [.text(id)]) != nil
    }

    func oldestAlbum(titled title: AlbumTitle) throws -> String? {
        try db.row(
            "SELECT id FROM album WHERE title_key = ? ORDER BY created_at, rowid LIMIT 1", [.text(title.key)])?.text(0)
    }
}
