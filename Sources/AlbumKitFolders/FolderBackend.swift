import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder library: every visible folder below the root that holds photos or videos (or an
/// album marker) is an album titled by its path (`2023/Summer`), as digiKam and Shotwell show
/// nested folders; its photo and video files are the album's assets. Hidden folders, catalog
/// libraries and other programs' data are never albums (``FolderExclusions``). On Linux, the system
/// library is this backend rooted at the XDG Pictures folder. Docs/folders.md has the whole design.
///
/// Save protocol (crash-safe at every step; no scanner ever sees a half-written file):
/// 1. stage: inspect, then copy + hash into an invisible `O_TMPFILE` inode in
///    `ROOT/.albumkit/staging/` (a hidden `.partial` name there when the file system lacks
///    `O_TMPFILE`), keeping the source's modification time;
/// 2. commit, under the library's `flock` (`.albumkit/lock`, so processes never create an album
///    twice): find or create the album with ``AlbumRequest/findOrCreate(in:)``; a new folder (and
///    its missing parents) is made with its marker in hiding, then renamed into place without
///    replacing anything;
/// 3. when the album folder is on another file system (a card or phone mounted inside the
///    library), note that folder in `staging/` (so recovery can remove what a crash leaves
///    there), then copy each staged file into an invisible file there;
/// 4. flush the batch: one `syncfs` per file system written (an `fsync` per file where `syncfs`
///    does not exist), before any file gets its name;
/// 5. per file: an identical photo or video already in the folder (size, head digest, SHA-256) is
///    reported as the asset (`isExisting`); else publish under the original name (`name 2.jpg`, …
///    when taken) with `linkat`, which never replaces a file;
/// 6. `fsync` the album folder (the names are durable before any result is reported), then
///    remember the album's id for its title.
///
/// Identifiers: album id = the UUID in the folder's `.albumkit-album` marker (a UUID-shaped digest
/// of the folder path for folders AlbumKit never wrote to); asset id = `albumID + "/" + file name`
/// (just the file name at the root). Both survive renaming the album folder.
/// Companions (sidecars, the raw of a pair) are placed beside the photo, named after it
/// (``CompanionKeeping``).
package final class FolderBackend: LibraryBackend, CompanionKeeping {
    /// The library root (e.g. `~/Pictures`).
    package let root: URL
    package var libraryFolder: (root: URL, kind: String)? { (root, "folder library") }
    package let identity: String
    /// When the root is missing but its parent exists, create it (the system library's
    /// `$HOME/Pictures`); otherwise a missing root is `.libraryNotFound`.
    let createsMissingRoot: Bool
    /// Called with the file name just before a commit's first publish (tests delete the album
    /// folder here to simulate a user deleting it mid-save).
    let beforePublish: (@Sendable (String) -> Void)?
    /// Hashes of files already in album folders, for finding duplicates without re-reading them.
    let hashCache = FileHashCache()
    /// Album folders by identifier, from earlier lookups in this process (always re-checked).
    let folderHints = Locked<[String: String]>([:])
    /// The listing the last commit left of its album folder: a batch commits chunk after chunk
    /// into one folder, and `stat`s only what is new in it (``FolderContents/init(directory:cache:earlier:)``).
    let lastListing = Locked<FolderContents?>(nil)
    /// Where deleted albums go unless deleted permanently.
    let trash: FolderTrash

    /// `.albumkit/owners/`, where this process registers before it stages.
    let ownersPath: String

    /// Photos committed (and flushed) together, as in a catalog: two chunks in flight hold at
    /// most 256 staged files open (each with its staging folder); the saver lowers this further
    /// under a low open-file limit. 128 rather than 64: 1 000 photos in 622 instead of 759 ms
    /// (6 alternating runs), half the flushes.
    package let preferredBatchSize = 128

    /// Files in an album tried with `name N.ext` before giving up.
    static let maximumNameAttempts = 10_000

    package init(
        root: URL, createsMissingRoot: Bool = false, trash: FolderTrash = FolderTrash(),
        beforePublish: (@Sendable (String) -> Void)? = nil
    ) {
        let root = root.standardizedFileURL
        self.root = root
        self.ownersPath = root.path + "/" + FolderLibraryState.directoryName + "/owners"
        self.trash = trash
        self.identity = "folders:" + root.path
        self.createsMissingRoot = createsMissingRoot
        self.beforePublish = beforePublish
        // Best-effort sweep of leftovers at open; a root that cannot be opened is reported by each call.
        if let descriptor = try? FileSystem.openRoot(root.path) {
            FolderLibraryState.sweep(root: descriptor)
            FileSystem.close(descriptor)
        }
    }

    /// Opens the folder library at `url`. A missing folder is not an error here (a disk may be
    /// mounted later); saving reports `.libraryNotFound` then.
    ///
    /// - Throws: `.libraryNotFound` when `url` exists but is not a folder; `.libraryCorrupt` when
    ///   it is a catalog library or lies inside one (``enclosingCatalog(of:)``).
    package static func open(at url: URL) throws -> FolderBackend {
        // Unmarked folders' identifiers are digests: even listing albums hashes.
        try SHA256Hasher.requireAvailable(to: "open the folder library \(url.path)")
        // A probe: a path that cannot be looked at is reported by the first call that opens it.
        if let info = try? FileSystem.status(atPath: url.standardizedFileURL.path), (info.st_mode & S_IFMT) != S_IFDIR {
            throw AlbumError(
                .libraryNotFound,
                "\(url.path) is a file, not a folder; a folder library is a folder whose sub-folders are albums.",
                file: url.path)
        }
        if let catalog = enclosingCatalog(of: url) {
            let path = url.standardizedFileURL.path
            guard catalog != FileSystem.resolvedPath(path) else {
                throw AlbumError(
                    .libraryCorrupt,
                    "\(path) is a catalog library (AlbumKit's own), not a folder library; open it as a catalog.",
                    file: path)
            }
            throw AlbumError(
                .libraryCorrupt,
                "\(path) is inside the catalog library \(catalog), not a folder library: its files belong to the catalog, and nothing below a catalog is an album. Use the catalog itself (--library \(catalog)).",
                file: path)
        }
        return FolderBackend(root: url)
    }

    /// The catalog library `url` is or lies inside, if any: the nearest folder on its resolved
    /// path (symlinks and `..` resolved) that holds an AlbumKit catalog — a `catalog.sqlite` whose
    /// SQLite header carries AlbumKit's application id, or, for a catalog whose catalog file was
    /// lost, both `journal/saves.jsonl` and `originals/`. Folders inside a catalog (`originals/`,
    /// `journal/`) are never opened as folder libraries: their files are the catalog's, and a
    /// `delete` there would take its originals. A folder merely named `*.albumlibrary`, or another
    /// application's `catalog.sqlite`, does not count.
    static func enclosingCatalog(of url: URL) -> String? {
        var components = FileSystem.resolvedPath(url.standardizedFileURL.path).split(separator: "/").map(String.init)
        while !components.isEmpty {
            let path = "/" + components.joined(separator: "/")
            if CatalogFormat.isCatalogLibrary(atPath: path) {
                return path
            }
            components.removeLast()
        }
        return nil
    }

    /// The system library: the XDG Pictures folder (`$HOME/Pictures` is created when missing).
    package static func system(environment: [String: String] = LibraryConfiguration.current.environment)
        -> FolderBackend
    {
        let directories = XDGUserDirectories(environment: environment)
        let pictures = directories.picturesDirectory
        let insideHome = pictures.deletingLastPathComponent().standardizedFileURL.path == directories.homeDirectory
        return FolderBackend(root: pictures, createsMissingRoot: insideHome)
    }

    // MARK: Root

    /// Opens the root; creates it first when allowed and only its last component is missing.
    func openRoot(creating: Bool) throws -> FileSystem.Descriptor {
        do {
            return try FileSystem.openRoot(root.path)
        } catch  where error.errno == ENOENT && creating && createsMissingRoot {
            do {
                let parent = try FileSystem.openRoot(root.deletingLastPathComponent().path)
                if try FileSystem.makeDirectory(root.lastPathComponent, in: parent) { try FileSystem.fsync(parent) }
                return try FileSystem.openRoot(root.path)
            } catch {
                throw rootError(error)
            }
        } catch {
            throw rootError(error)
        }
    }

    func rootError(_ error: SystemError) -> AlbumError {
        switch error.errno {
        case ENOENT:
            return AlbumError(
                .libraryNotFound,
                "The folder library \(root.path) does not exist (is its disk mounted?); nothing was saved.",
                underlying: error)
        case ENOTDIR:
            return AlbumError(
                .libraryNotFound, "\(root.path) is not a folder; nothing was saved.", underlying: error)
        default:
            return error.libraryError("open the folder library")
        }
    }

    /// Runs `body` with the root, `.albumkit/` and the library lock held.
    func withLock<T>(_ what: String, _ body: (FileSystem.Descriptor, FileSystem.Descriptor) throws -> T) throws -> T {
        let root = try openRoot(creating: true)
        let state: FileSystem.Descriptor
        let lock: FileSystem.Descriptor
        do {
            state = try FolderLibraryState.openOrCreate(root: root)
            do { lock = try FolderLibraryState.lock(state: state) } catch {
                FileSystem.close(state)
                throw error
            }
        } catch let error as SystemError {
            throw error.libraryError(what)
        }
        defer {
            FileSystem.close(lock)
            FileSystem.close(state)
        }
        return try body(root, state)
    }

    func mapping<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as SystemError { throw error.libraryError(what) }
    }
}
