import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// AlbumKit's own library: a `NAME.albumlibrary` folder holding
///
/// - `journal/library.journal`: **the library** — every change, in order (``LibraryJournal``);
/// - `originals/xx/ID.ext`: the saved files, byte for byte;
/// - `catalog.sqlite`: an index of the journal for fast queries (``CatalogIndex``), rebuilt from
///   the journal whenever it is missing, damaged or not this journal's;
/// - `snapshots/index.sqlite`: a flushed copy of the index with the journal position it holds,
///   so that a rebuild replays only the journal's tail;
/// - `owners/`: one locked file per process writing here (``ProcessOwner``);
/// - `shares/`: the share links (``ShareLinkFile``), read by every server of the library.
///
/// Every change has one write order (``record(_:_:)``): its files are durable, then its record
/// is appended to the journal and flushed — the commit point — and only then is it acknowledged;
/// the index is updated in the same step without a flush of its own. One process at a time
/// appends (a `flock` on the journal), and it decides (which album a title leads to, whether the
/// bytes are already saved) after bringing the index up to date under that lock, so eight
/// processes saving into a new album make one album.
/// Companions (sidecars, the raw of a pair) are kept beside the asset's file (``CompanionKeeping``).
package final class CatalogBackend: LibraryBackend, CompanionKeeping {
    package let root: URL
    package let identity: String
    /// A batch of up to 1 024 photos is one chunk, committed once: its flushes (the list of names,
    /// one `syncfs`, the journal's) are paid once, not per chunk. Each photo of a commit has a time
    /// added of its own (``CatalogSave``), so a page of a listing by date added never holds one
    /// time only. Two chunks in flight hold at most 2 048 staged files open; the saver lowers this
    /// under a low open-file limit.
    package let preferredBatchSize = 1024
    /// The library was opened from read-only media: it can be listed and verified, not changed.
    package let isReadOnly: Bool

    let journal: LibraryJournal
    let catalogPath: String
    var originalsPath: String { root.path + "/originals" }
    var ownersPath: String { root.path + "/owners" }
    /// The one way this library's files are removed, moved or replaced, and its records' paths opened.
    var gate: RemovalGate { RemovalGate(root: root.path) }
    var snapshotPath: String { root.path + "/snapshots/index.sqlite" }
    let busyTimeout: Int32

    /// The index connection and the journal descriptor, used by one thread at a time.
    let connection: Locked<Connection>

    /// What opening did that the user should hear of (an index rebuilt, a library converted).
    let notices = Locked<[String]>([])

    /// The name of this process's next lone save, listed ahead of it (``NamesListedAhead``).
    let namesListedAhead = NamesListedAhead()

    /// Called between publishing a save's files and recording it (tests act as another process).
    let beforeRecording = Locked<(@Sendable () -> Void)?>(nil)

    /// How many applied records make a snapshot due (tests lower it).
    let snapshotInterval: Locked<Int>

    struct Connection {
        var index: CatalogIndex?
        /// The catalog file the index was opened from, to notice a rebuild by another process.
        var indexFile: FileSystem.FileID?
        /// The index file this process built last: damaged again, no copy of it is kept.
        var builtFile: FileSystem.FileID?
        var journalFile: FileSystem.Descriptor?
        /// Files of purged assets to remove once the connection is released.
        var purgedFiles: [String] = []
    }

    /// Hears each notice as it happens, when set (the CLI prints them); else they wait for
    /// ``takeNotices()``.
    let noticeHandler: (@Sendable (String) -> Void)?

    private init(root: URL, isReadOnly: Bool, busyTimeout: Int32, noticeHandler: (@Sendable (String) -> Void)?) {
        self.noticeHandler = noticeHandler
        self.root = root
        self.identity = "catalog:" + root.path
        self.isReadOnly = isReadOnly
        self.busyTimeout = busyTimeout
        self.journal = LibraryJournal(libraryRoot: root.path)
        self.catalogPath = Self.catalogPath(root)
        self.connection = Locked(Connection())
        let interval = LibraryConfiguration.current.snapshotInterval
        self.snapshotInterval = Locked(max(1, interval ?? 10_000))
    }

    deinit {
        namesListedAhead.drop(owners: ownersPath)
        connection.withLock { connection in
            if let file = connection.journalFile { FileSystem.close(file) }
            connection.index = nil
        }
    }

    static func catalogPath(_ root: URL) -> String { root.path + "/catalog.sqlite" }

    /// The entries of a library folder; another process may be creating them right now.
    static let libraryEntries: Set<String> = [
        "originals", "catalog.sqlite", "catalog.sqlite-wal", "catalog.sqlite-shm", "catalog.sqlite-journal",
        "journal", "snapshots", "owners", "damaged", "catalog.sqlite-checked", "catalog.rebuild.sqlite",
        "catalog.rebuild.sqlite-journal", "previous-release", "derivatives", "shares",
    ]

    // MARK: Opening

    /// Opens the library at `url`, creating it when `create` is set (in a folder that exists: a
    /// missing parent is `.libraryNotFound`).
    /// A library of the previous release is converted first; an index that is missing, damaged or
    /// not this journal's is rebuilt (the old file kept under `damaged/`), and the notice says so.
    ///
    /// - Throws: `.libraryNotFound`, `.libraryCorrupt` (a file where the library should be, a
    ///   journal that is not one), `.libraryUnwritable`, `.accessDenied`.
    package static func open(
        at url: URL, create: Bool = true, busyTimeout: Int32 = 60_000,
        onNotice noticeHandler: (@Sendable (String) -> Void)? = nil
    ) throws -> CatalogBackend {
        let root = url.standardizedFileURL
        let status = FileSystem.fileStatus(atPath: root.path)
        let exists = status != nil
        if let status, status.kind != .directory {
            throw AlbumError(
                .libraryCorrupt, "\(root.path) is a file, not an AlbumKit library folder; nothing was changed.")
        }
        let catalog = catalogPath(root)
        try Database.loadSQLite(toOpen: root.path)
        let journal = LibraryJournal(libraryRoot: root.path)
        if !exists {
            guard create else {
                throw AlbumError(
                    .libraryNotFound, "There is no AlbumKit library at \(root.path); save a photo to create it.")
            }
            // Like `mkdir` without `-p`: a missing parent is a disk not mounted or a path mistyped,
            // never folders to make.
            let parent = root.deletingLastPathComponent().path
            guard FileSystem.fileStatus(atPath: parent)?.kind == .directory else {
                throw AlbumError(
                    .libraryNotFound,
                    "The folder \(parent) does not exist (is its disk mounted?), so the library \(root.lastPathComponent) cannot be created in it; nothing was saved."
                )
            }
            try SHA256Hasher.requireAvailable(to: "create the library \(root.path)")
        } else if !journal.exists && !isLibrary(root) {
            guard create else {
                throw AlbumError(
                    .libraryNotFound, "There is no AlbumKit library at \(root.path); save a photo to create it.")
            }
            // A probe for the hint below: an unlistable folder only gets no hint.
            if let contents = try? FileSystem.names(inDirectoryAt: root.path),
                contents.contains(where: { !$0.hasPrefix(".") && !libraryEntries.contains($0) })
            {
                throw AlbumError(
                    .libraryCorrupt,
                    "\(root.path) is a non-empty folder without an AlbumKit catalog; choose an empty or new folder. Nothing was changed."
                )
            }
        }
        // A folder holding another program's database and no journal is not an AlbumKit library:
        // refused untouched (with a journal, the journal is the library and the catalog is rebuilt).
        if exists, !journal.exists, FileSystem.fileStatus(atPath: catalog, following: false)?.kind == .regular,
            !CatalogFormat.isCatalog(catalog),
            FileSystem.fileStatus(atPath: root.path + "/journal/saves.jsonl", following: false) == nil
        {
            throw AlbumError(
                .libraryCorrupt,
                "\(catalog) is not an AlbumKit catalog (another application's database) and the folder holds no AlbumKit journal; nothing was changed."
            )
        }
        // Root writing into another user's library would leave files only root can read there (a
        // rebuilt index, a new shard folder, its photos): the owner's next command could no longer
        // open it. Root only reads it (from an index built in memory); a save is refused at once.
        let owner = exists && geteuid() == 0 ? (try? FileSystem.status(atPath: root.path))?.st_uid : nil
        if let owner, owner != 0, create {
            throw AlbumError(
                .accessDenied,
                "The library \(root.path) belongs to the user with id \(owner), and album runs as root: what it wrote there only root could read, and that user's next command would fail. Run album as that user (sudo -u '#\(owner)' album …); nothing was changed."
            )
        }
        var writable = owner == nil || owner == 0
        if exists && writable {
            do { try FileSystem.checkWritable(root.path) } catch {
                guard !create, error.errno == EROFS || error.errno == EACCES else {
                    throw error.libraryError("save into the library")
                }
                writable = false
            }
        }
        let backend = CatalogBackend(
            root: root, isReadOnly: !writable, busyTimeout: busyTimeout, noticeHandler: noticeHandler)
        if writable {
            do {
                _ = try FileSystem.makeDirectory(atPath: root.path)
                // A library folder given to its group on purpose shares what is made in it.
                FileSystem.shareWithGroup(under: root.path)
                _ = try FileSystem.makeDirectory(atPath: backend.originalsPath)
            } catch { throw error.libraryError("create the library") }
            let migration = CatalogMigration(backend: backend)
            if !journal.exists { try migration.makeJournal() }
            try migration.finishInterruptedConversion()
        } else if !journal.exists {
            throw AlbumError(
                .libraryUnwritable,
                "The library \(root.path) is of the previous release or lost its journal, and it is on read-only media; open it once where it is writable."
            )
        }
        let purged = try backend.withIndex("open the library") { connection in
            writable ? try purgedFiles(connection) : []
        }
        if writable { try backend.recover(purged: purged) }
        let marker = root.path + "/" + CatalogMigration.adoptsOriginalsMarker
        if writable, FileSystem.fileStatus(atPath: marker, following: false) != nil {
            // Converted without a readable catalog (this opening or one killed before it was
            // done): the files no record names are adopted, then the marker goes.
            try CatalogRepair.adoptStrayFiles(into: backend)
            do { try FileSystem.unlink(marker) } catch { throw error.libraryError("convert the library") }
        }
        return backend
    }

    /// Whether the folder holds anything of a library (a journal, a catalog, originals).
    static func isLibrary(_ root: URL) -> Bool {
        FileSystem.fileStatus(atPath: catalogPath(root)) != nil
            || FileSystem.fileStatus(atPath: root.path + "/journal") != nil
            // A probe: an unlistable originals folder is not evidence of a library.
            || ((try? FileSystem.names(inDirectoryAt: root.path + "/originals")) ?? []).contains { !$0.hasPrefix(".") }
    }

    package var libraryFolder: (root: URL, kind: String)? { (root, "catalog library") }

    /// The notices opening left (an index rebuilt, a library converted), each once.
    package func takeNotices() -> [String] {
        notices.withLock { notices in
            defer { notices.removeAll() }
            return notices
        }
    }

    func notice(_ text: String) {
        if let noticeHandler { noticeHandler(text) } else { notices.withLock { $0.append(text) } }
    }
}

extension CatalogBackend: OpeningNotices {}
