import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// AlbumKit's own library: a `NAME.albumlibrary` directory holding
///
/// - `catalog.sqlite` (WAL): assets, albums and membership;
/// - `originals/xx/UUID.ext`: the saved files, byte for byte;
/// - `journal/saves.jsonl`: every save and album change, flushed before a save is acknowledged
///   (``SaveJournal``), which detects a lost, reset, older or damaged catalog and rebuilds it;
/// - `snapshots/catalog.sqlite`: a periodic copy of the catalog (`VACUUM INTO`);
/// - `owners/`: one locked file per process writing here (``ProcessOwner``).
///
/// Save protocol (crash-safe at every step, safe across processes), in
/// `CatalogBackend+Saving.swift`:
/// 1. stage: inspect, then copy + hash into an invisible `O_TMPFILE` inode in the shard directory
///    (a hidden `.partial` ``StagingName`` where `O_TMPFILE` is missing);
/// 2. transaction A: insert the assets as `pending`, owned by this process, committed without a
///    flush; one barrier (`syncfs`, or the WAL's flush and the files') makes the rows and the staged
///    data durable together, before any file is named;
/// 3. publish each file under its UUID name with `linkat` (never replaces) and `fsync` the shard
///    directories;
/// 4. transaction B (`BEGIN IMMEDIATE`, committed without a flush): resolve or create the album,
///    mark the assets `ready` (each update must hit its pending row), reuse an identical asset
///    already saved, add them to the album, remember the album's id;
/// 5. append the saves to the journal and flush it: the commit point; only then is the save
///    acknowledged.
///
/// `ready` therefore implies a durable file. Opening the library first finishes a save whose B was
/// lost with the power after its journal records were flushed (``rollForward()``), then checks the
/// catalog against the journal (`libraryCorrupt` when it lacks saves: run ``repair()``), then
/// removes pending rows (and their files) and staged leftovers of owners proved dead. It never
/// removes any other file.
package final class CatalogBackend: PhotoLibraryBackend {
    package let root: URL
    package let identity: String
    /// Two chunks in flight hold at most 256 staged files (and their folders) open; the saver
    /// lowers this further under a low open-file limit.
    package let preferredBatchSize = 128
    /// The connection, owned by one serial queue.
    let database: DatabaseQueue

    /// The library was opened from read-only media: it can be listed and verified, not changed.
    package let isReadOnly: Bool

    /// Called between publishing the files and marking them ready (tests act as another process
    /// there).
    let beforeMarkingReady = Locked<(@Sendable () -> Void)?>(nil)

    /// The catalog file this backend opened (device and inode), so a save notices when the library
    /// was removed or its catalog replaced under it.
    let catalogFile: FileSystem.FileID?

    /// Set when a save's unflushed commits could not switch the connection back to flushing every
    /// commit: nothing else runs on it until that succeeds (``withDatabase(_:_:)``).
    let mustRestoreFlushing = Locked(false)

    private init(root: URL, database: Database, isReadOnly: Bool = false) {
        self.isReadOnly = isReadOnly
        self.root = root
        self.identity = "catalog:" + root.path
        self.database = DatabaseQueue(database)
        self.catalogPath = Self.catalogPath(root)
        self.catalogFile = FileSystem.fileID(atPath: catalogPath)
    }

    /// Joined once: every database access compares the file's identity before and after.
    let catalogPath: String
    // Joined as strings: `URL.appendingPathComponent` stats the path to decide on a trailing slash,
    // which cost a system call per saved file.
    var originalsPath: String { root.path + "/originals" }
    var ownersPath: String { root.path + "/owners" }
    var snapshotPath: String { root.appendingPathComponent("snapshots/catalog.sqlite").path }
    var journal: SaveJournal { SaveJournal(libraryRoot: root.path) }
    static func catalogPath(_ root: URL) -> String { root.appendingPathComponent("catalog.sqlite").path }

    /// The entries of a library folder; another process may be creating them right now.
    static let libraryEntries: Set<String> = [
        "originals", "catalog.sqlite", "catalog.sqlite-wal", "catalog.sqlite-shm", "catalog.sqlite-journal",
        "journal", "snapshots", "owners", "damaged", "catalog.sqlite-checked", "catalog.rebuild.sqlite",
    ]

    // MARK: Opening

    /// Opens the library at `url`, creating it (and missing parent folders) when `create` is set.
    ///
    /// - Throws: `.libraryNotFound`, `.libraryCorrupt` (also when the catalog lacks saves the
    ///   journal or `originals/` prove: run ``repair()``), `.libraryUnwritable`, `.accessDenied`.
    package static func open(at url: URL, create: Bool = true, busyTimeout: Int32 = 60_000) throws -> CatalogBackend {
        let root = url.standardizedFileURL
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        let exists = fm.fileExists(atPath: root.path, isDirectory: &isDirectory)
        if exists && !isDirectory.boolValue {
            throw AlbumError(
                .libraryCorrupt, "\(root.path) is a file, not an AlbumKit library folder; nothing was changed.")
        }
        let catalog = catalogPath(root)
        try refuseLinkedCatalog(catalog)
        try Database.loadSQLite(toOpen: root.path)
        let hasCatalog = fm.fileExists(atPath: catalog)
        if !hasCatalog {
            guard create else {
                if exists, let lost = try lostCatalogReason(root) {
                    throw AlbumError.catalogDamaged(catalog, detail: lost)
                }
                throw AlbumError(
                    .libraryNotFound, "There is no AlbumKit library at \(root.path); save a photo to create it.")
            }
            if exists, let contents = try? fm.contentsOfDirectory(atPath: root.path),
                contents.contains(where: { !$0.hasPrefix(".") && !libraryEntries.contains($0) })
            {
                throw AlbumError(
                    .libraryCorrupt,
                    "\(root.path) is a non-empty folder without an AlbumKit catalog; choose an empty or new folder. Nothing was changed."
                )
            }
            // A library whose catalog was deleted must not silently start over.
            if exists, let lost = try lostCatalogReason(root) { throw AlbumError.catalogDamaged(catalog, detail: lost) }
            // A library is created to save into it, which hashes: nothing is made when that cannot work.
            try SHA256Hasher.requireAvailable(to: "create the library \(root.path)")
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
        // (`stat`, not `FileManager.attributesOfItem`, which also looks up the owner's and group's
        // names in /etc/passwd and /etc/group at every opening.)
        if hasCatalog, let status = try? FileSystem.status(atPath: catalog), status.st_size == 0,
            let lost = try lostCatalogReason(root)
        {
            throw AlbumError.catalogDamaged(catalog, detail: "the catalog is empty but " + lost)
        }

        let database = try openDatabase(at: catalog, root: root, create: !hasCatalog, busyTimeout: busyTimeout)
        let backend = CatalogBackend(root: root, database: database)
        try backend.rollForward()
        try backend.checkAgainstJournal()
        try backend.recover()
        return backend
    }

    /// Refuses a catalog that is a symbolic link: SQLite opens the catalog without following links
    /// (so that no link can point saves at another database), and a link then looked like a lost
    /// catalog, with the advice to rebuild it over the link.
    static func refuseLinkedCatalog(_ catalog: String) throws(AlbumError) {
        guard FileSystem.fileStatus(atPath: catalog, following: false)?.kind == .symbolicLink else { return }
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: catalog)) ?? "?"
        let folder = URL(fileURLWithPath: (catalog as NSString).deletingLastPathComponent, isDirectory: true)
        let target = URL(fileURLWithPath: link, relativeTo: folder).standardizedFileURL.path
        throw AlbumError(
            .libraryCorrupt,
            "The catalog \(catalog) is a symbolic link (to \(target)); AlbumKit opens its catalog only as a file inside the library. Put the file itself there (mv \"\(target)\" \"\(catalog)\", after removing the link); nothing was changed."
        )
    }

    /// Why a library without a usable catalog must not start over, if it must not: its journal
    /// records saves, or `originals/` holds files.
    ///
    /// - Throws: when too many files are open to look (a tiny `ulimit -n`): that is not damage.
    static func lostCatalogReason(_ root: URL) throws(AlbumError) -> String? {
        let journal = SaveJournal(libraryRoot: root.path)
        if journal.length() > 0 { return "the library's journal records saved photos" }
        if try holdsOriginals(root.appendingPathComponent("originals").path) { return "the library holds photos" }
        return nil
    }

    /// Whether any shard directory under `originalsPath` holds a file (or cannot be listed: only
    /// a folder proved empty lets a library start over).
    private static func holdsOriginals(_ originalsPath: String) throws(AlbumError) -> Bool {
        func names(_ path: String) throws(AlbumError) -> [String]? {
            do { return try FileSystem.names(inDirectoryAt: path) } catch {
                if error.isOutOfDescriptors { throw error.libraryError("open the library") }
                return error.errno == ENOENT ? [] : nil
            }
        }
        guard let shards = try names(originalsPath) else { return true }
        for shard in shards where !shard.hasPrefix(".") {
            guard let files = try names(originalsPath + "/" + shard) else { return true }
            if files.contains(where: { !$0.hasPrefix(".") }) { return true }
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
                try CatalogSchema.prepare(database, path: catalog, busyTimeout: 5_000, readOnly: true)
                return CatalogBackend(root: root, database: database, isReadOnly: true)
            } catch let error as AlbumError {
                throw error  // not ours, or needs an upgrade: no other mode will help
            } catch {
                lastError = error
            }
        }
        throw AlbumError.library(lastError, "open the library", path: catalog)
    }

    /// Opens and prepares the catalog. Some lock waits in SQLite return `SQLITE_BUSY` without calling
    /// the busy handler (WAL recovery by another connection, a concurrent schema creation); those
    /// are retried here, with backoff, until the same deadline.
    private static func openDatabase(at path: String, root: URL, create: Bool, busyTimeout: Int32) throws -> Database {
        let deadline = Date().addingTimeInterval(Double(busyTimeout) / 1000)
        var attempt = 0
        while true {
            do {
                let database = try Database(path: path, create: create)
                try CatalogSchema.prepare(
                    database, path: path, busyTimeout: busyTimeout, mustHoldData: try lostCatalogReason(root))
                return database
            } catch let error as SQLiteError where error.isBusy && Date() < deadline {
                attempt += 1
                usleep(useconds_t(min(100_000, 1_000 << min(attempt, 7))))
            } catch {
                throw AlbumError.library(error, "open the library", path: path)
            }
        }
    }

    // MARK: Database access

    /// Runs `body` with the connection, mapping every failure to `AlbumError`.
    @discardableResult
    func withDatabase<T>(_ what: String, _ body: (Database) throws -> T) throws -> T {
        do {
            return try database.run { db in
                if mustRestoreFlushing.withLock({ $0 }) {
                    do { try db.execute("PRAGMA synchronous = FULL") } catch {
                        throw AlbumError(
                            .ioFailure,
                            "Cannot make the catalog \(catalogPath) flush its commits again; nothing was changed.",
                            underlying: error)
                    }
                    mustRestoreFlushing.withLock { $0 = false }
                }
                // A commit may checkpoint the WAL into the catalog file (see CatalogIntegrity).
                let before = isReadOnly ? nil : CatalogIntegrity.fileIdentity(catalogPath)
                defer { if let before { CatalogIntegrity.noteCheckpoint(of: catalogPath, after: before) } }
                return try body(db)
            }
        } catch {
            throw AlbumError.library(error, what, path: catalogPath)
        }
    }
}
