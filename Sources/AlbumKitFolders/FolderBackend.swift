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
    private let lastListing = Locked<FolderContents?>(nil)
    /// Where deleted albums go unless deleted permanently.
    let trash: FolderTrash

    /// `.albumkit/owners/`, where this process registers before it stages.
    private let ownersPath: String

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

    // MARK: Saving

    package struct Staged: Sendable {
        let media: StagedMedia
        let fileName: String
        var file: FileSystem.StagedFile { media.file }
        var byteSize: Int64 { media.byteSize }
        var sha256: String { media.sha256 }
        var metadata: MediaMetadata { media.metadata }
        var modified: FileStatus.Time? { media.modified }
        /// The head digest, read from the staged file the first time a same-size file asks for it.
        private let headMemo = Locked<String??>(nil)

        init(media: StagedMedia, fileName: String) {
            self.media = media
            self.fileName = fileName
        }

        /// The head digest (``FileSystem/headDigest(size:read:)``) of the staged file.
        func head() -> String? {
            if let known = headMemo.withLock({ $0 }) { return known }
            let digest: String? = {
                // No head digest (unreadable) only means the file is not recognised as already there: it is saved.
                guard let file = try? FileSystem.openStagedForReading(self.file) else { return nil }
                // Unreadable (as above): not recognised, saved.
                return try? FileSystem.headDigest(size: byteSize) { offset, count in
                    var bytes = [UInt8](repeating: 0, count: count)
                    let n = try bytes.withUnsafeMutableBytes { try FileSystem.read(file, into: $0, at: offset) }
                    return Array(bytes[0..<n])
                }
            }()
            headMemo.withLock { $0 = .some(digest) }
            return digest
        }
    }

    package func albumUnavailableReason(needsAlbum: Bool) async throws -> String? {
        try await Blocking.run {
            // The folder made when missing, and found to be a folder (closed at once).
            _ = try self.openRoot(creating: true)
            do throws(SystemError) { try FileSystem.checkWritable(self.root.path) } catch {
                throw error.libraryError("save into the folder library")
            }
            return nil
        }
    }

    package func stage(_ media: Media) async throws -> Staged {
        try await Blocking.run { try self.stageNow(media) { try self.openStaging() } }
    }

    package func stage(
        _ media: [Media], prepared: @escaping @Sendable () -> Void
    ) async -> [Result<Staged, AlbumError>] {
        // One file (a chunk of one, under a tiny open-file limit): its own descriptor, nothing more.
        guard media.count > 1 else {
            return await stageOnEveryCore(media, prepared: prepared) {
                try self.stageNow($0) { try self.openStaging() }
            }
        }
        // `.albumkit/staging/` is opened once for the batch; each file gets its own duplicate of the
        // descriptor (one `fstat` and one `fcntl` instead of three `openat` and two `close` per file).
        let staging = Locked<FileSystem.Descriptor?>(nil)
        defer { staging.withLock { $0.map(FileSystem.close) } }
        return await stageOnEveryCore(media, prepared: prepared) { item in
            try self.stageNow(item) {
                try staging.withLock { opened throws -> FileSystem.Descriptor in
                    // Removed meanwhile (a removed folder has no links left): open, and so recreate, it
                    // again, as every file did before the descriptor was shared.
                    if let current = opened, (try? FileSystem.fileStatus(of: current))?.linkCount == 0 {
                        FileSystem.close(current)
                        opened = nil
                    }
                    if opened == nil { opened = try self.openStaging() }
                    do throws(SystemError) { return try FileSystem.duplicate(opened!) } catch {
                        throw error.libraryError("stage the photo")
                    }
                }
            }
        }
    }

    /// Opens `.albumkit/staging/` (creating the root when allowed, and the folders).
    private func openStaging() throws -> FileSystem.Descriptor {
        let root = try openRoot(creating: true)
        do throws(SystemError) {
            let state = try FolderLibraryState.openOrCreate(root: root)
            return try FolderLibraryState.openStaging(state: state)
        } catch {
            throw error.libraryError("stage the photo")
        }
    }

    private func stageNow(_ media: Media, in staging: () throws -> FileSystem.Descriptor) throws -> Staged {
        // Not flushed here: the whole batch is flushed at commit, before any file gets its name.
        // A photo in the user's Pictures: as readable as the file it was copied from, never more.
        let staged = try StagedMedia(media, owners: ownersPath, flush: false, permissions: 0o666, in: staging)
        // The file's time is what a folder library can record of a creation date given with the
        // save (Media.with(creationDate:)); else the source's, as `cp -p` keeps it.
        if let modified = media.creationDate.map(FileStatus.Time.init) ?? staged.modified {
            do { try FileSystem.setModificationTime(staged.file.descriptor, to: modified) } catch {
                staged.discard()
                throw error.libraryError("write the photo")
            }
        }
        return Staged(
            media: staged,
            fileName: FolderNaming.fileName(original: media.originalFilename, format: staged.metadata.format))
    }

    package func discard(_ staged: Staged) async {
        staged.media.discard()
    }

    package func commit(_ staged: [Staged], to album: AlbumRequest?) async throws -> CommitReceipt {
        try await Blocking.run { try self.commitNow(staged, to: album) }
    }

    private func commitNow(_ staged: [Staged], to request: AlbumRequest?) throws -> CommitReceipt {
        let receipt = try commitLocked(staged, to: request)
        for item in staged {  // done; on a failure the saver discards them (or retries with them)
            for companion in item.media.companions { FileSystem.abandon(companion.file) }
            FileSystem.abandon(item.file)  // closes; removes the hidden staging name, if any
            FileSystem.close(item.file.directory)
        }
        return receipt
    }

    private func commitLocked(_ staged: [Staged], to request: AlbumRequest?) throws -> CommitReceipt {
        try withLock("save the photos") { root, state in
            guard let request else {
                let receipt = try publish(
                    staged, into: root, at: FolderAlbumPath(components: []), albumID: nil, created: nil, state: state)
                return CommitReceipt(albumID: nil, albumOutcome: nil, assets: receipt)
            }
            let store = FolderAlbumStore(backend: self, root: root, state: state)
            let found = try mapping("find the album") { try request.findOrCreate(in: store) }
            let opened: (album: FolderAlbum, descriptor: FileSystem.Descriptor)
            let created = store.created
            if let created {
                opened = (created.album, created.descriptor)
            } else {
                guard let album = try mapping("find the album", { try store.album(id: found.id) }) else {
                    throw AlbumVanished(albumID: found.id)
                }
                opened = (album, try openAlbumFolder(album, in: root))
            }
            let outcome = found.outcome
            defer {
                FileSystem.close(opened.descriptor)
                if let created { FileSystem.close(created.parent) }
            }
            do throws(SystemError) {
                if created == nil, !opened.album.isSettled {
                    try settle(opened.album, folder: opened.descriptor, state: state)
                }
            } catch {
                throw error.libraryError("mark the album folder")
            }
            let receipt = try publish(
                staged, into: opened.descriptor, at: opened.album.path, albumID: opened.album.id, created: created,
                state: state)
            store.saveRemembered()
            return CommitReceipt(albumID: opened.album.id, albumOutcome: outcome, assets: receipt)
        }
    }

    /// A staged file ready to be named in the target folder: the root's staged file, or its copy
    /// on the target's file system.
    private struct Ready {
        let file: FileSystem.StagedFile
        /// Its companions' files, in ``StagedMedia/companions`` order.
        var companions: [FileSystem.StagedFile] = []
        let item: Staged
        /// Whether `file` is a copy made for this commit (abandoned after it).
        let isCopy: Bool
    }

    /// Makes every staged file durable and nameable in `target` (at `path` below the root): copies
    /// it to `target`'s file system when that differs from the staging folder's (after noting
    /// `target` in `staging/`, so recovery removes the copies if the process dies), then flushes
    /// the batch with one `syncfs` per file system (``FileSystem/flush(_:on:)``).
    private func prepare(
        _ staged: [Staged], for target: FileSystem.Descriptor, at path: FolderAlbumPath, state: FileSystem.Descriptor
    ) throws -> [Ready] {
        guard let first = staged.first else { return [] }
        let targetDevice: UInt64
        let stagingDevice: UInt64
        do {
            targetDevice = try FileSystem.fileStatus(of: target).device
            stagingDevice = try FileSystem.fileStatus(of: first.file.directory).device
        } catch {
            throw error.libraryError("read the album folder")
        }
        do {
            try FileSystem.flush(staged.flatMap { [$0.file.descriptor] + $0.media.companions.map(\.file.descriptor) })
        } catch {
            throw error.libraryError("save the photos")
        }
        guard targetDevice != stagingDevice else {
            return staged.map {
                Ready(file: $0.file, companions: $0.media.companions.map(\.file), item: $0, isCopy: false)
            }
        }
        var ready: [Ready] = []
        do {
            try FolderLibraryState.prepareStaging(in: target, at: path, state: state)
            func copied(_ file: FileSystem.StagedFile, modified: FileStatus.Time?) throws -> FileSystem.StagedFile {
                let copy = try FileSystem.stage(in: target, as: StagingName(kind: "partial"))
                do {
                    let source = try FileSystem.openStagedForReading(file)
                    try FileSystem.forEachChunk(of: source) { try FileSystem.write(copy.descriptor, $0) }
                    if let modified { try FileSystem.setModificationTime(copy.descriptor, to: modified) }
                } catch {
                    FileSystem.abandon(copy)
                    throw error
                }
                return copy
            }
            for item in staged {
                var copy = Ready(file: try copied(item.file, modified: item.modified), item: item, isCopy: true)
                ready.append(copy)
                for companion in item.media.companions {
                    copy.companions.append(try copied(companion.file, modified: companion.modified))
                    ready[ready.count - 1] = copy
                }
            }
            try FileSystem.flush(ready.flatMap { [$0.file.descriptor] + $0.companions.map(\.descriptor) })
        } catch {
            for copy in ready {
                FileSystem.abandon(copy.file)
                for companion in copy.companions { FileSystem.abandon(companion) }
            }
            throw (error as? SystemError)?.libraryError("copy the photos to the album's disk") ?? AlbumError.wrap(error)
        }
        return ready
    }

    /// Publishes every staged file into `target` (at `path` below the root), then flushes
    /// `target`. All or nothing: on a failure the files published so far are removed (and a folder
    /// created by this commit).
    private func publish(
        _ staged: [Staged], into target: FileSystem.Descriptor, at path: FolderAlbumPath, albumID: String?,
        created: FolderAlbumCreation?, state: FileSystem.Descriptor
    ) throws -> [Result<CommittedAsset, AlbumError>] {
        var contents: FolderContents
        let earlier = lastListing.withLock { last in
            defer { last = nil }  // taken: a commit that fails leaves none behind
            return last
        }
        do { contents = try FolderContents(directory: target, cache: hashCache, earlier: earlier) } catch {
            if error.errno == ENOENT, let albumID { throw AlbumVanished(albumID: albumID) }
            throw error.libraryError("read the album folder")
        }
        var published: [String] = []
        var results: [Result<CommittedAsset, AlbumError>] = []
        func assetID(_ name: String) -> String { albumID.map { $0 + "/" + name } ?? name }
        func rollBack() {
            // Undo of the files this call just published; the error reported is the one that matters.
            for name in published { try? FileSystem.unlink(name, in: target) }
            created?.undo(folder: target)
        }
        // Duplicates first: only the files that will be named are flushed and copied (and the
        // companions of a photo already there that it does not hold as they are).
        var fresh: [Staged] = []
        var plan: [Int: String] = [:]
        var updating: [Int: [Int]] = [:]  // item → its companions to update, by offset
        for (index, item) in staged.enumerated() {
            if let existing = contents.identical(
                size: item.byteSize, sha256: item.sha256, preferred: item.fileName, head: item.head)
            {
                plan[index] = existing
                let differing = companionsToUpdate(item, photo: existing, in: target)
                if !differing.isEmpty {
                    updating[index] = differing
                    fresh.append(item)
                }
            } else {
                fresh.append(item)
            }
        }
        let ready: [Ready]
        do { ready = try prepare(fresh, for: target, at: path, state: state) } catch {
            rollBack()
            throw error
        }
        defer {
            for copy in ready where copy.isCopy {
                FileSystem.abandon(copy.file)
                for companion in copy.companions { FileSystem.abandon(companion) }
            }
        }
        var readyIndex = 0
        for (index, item) in staged.enumerated() {
            if let existing = plan[index] {
                var updated: [String] = []
                if let offsets = updating[index] {
                    let files = ready[readyIndex].companions
                    readyIndex += 1
                    do {
                        updated = try replaceCompanions(
                            offsets, of: item, files: files, photo: existing, in: target, contents: &contents)
                    } catch {
                        rollBack()
                        throw error
                    }
                }
                results.append(
                    .success(
                        CommittedAsset(
                            assetID: assetID(existing), isExisting: true, metadata: item.metadata,
                            companionsUpdated: updated)))
                continue
            }
            let file = ready[readyIndex].file
            let companionFiles = ready[readyIndex].companions
            readyIndex += 1
            // An identical file published earlier in this batch.
            if let existing = contents.identical(
                size: item.byteSize, sha256: item.sha256, preferred: item.fileName, head: item.head)
            {
                results.append(
                    .success(
                        CommittedAsset(
                            assetID: assetID(existing), isExisting: true, metadata: item.metadata,
                            companionsLeftOut: item.media.companions.map(\.originalName))))
                continue
            }
            var attempt = 1
            var done = false
            while !done {
                guard attempt <= Self.maximumNameAttempts else {
                    rollBack()
                    throw AlbumError(
                        .ioFailure,
                        "Could not find a free name for \(item.fileName) in \(target.path); nothing was saved.")
                }
                let name = FolderNaming.fileName(item.fileName, attempt: attempt)
                // Its companions are named after it (`IMG_1 2.JPG`, `IMG_1 2.CR2`, `IMG_1 2.xmp`):
                // a name is free only when theirs are too.
                let companionNames = AssetCompanion.names(
                    of: item.media.companions.map(\.originalName), photo: item.media.originalFilename, as: name)
                if contents.isTaken(name) || companionNames.contains(where: contents.isTaken) {
                    attempt += 1
                    continue
                }
                if published.isEmpty { beforePublish?(name) }
                var attemptNames: [String] = []  // the companions published under this name
                do {
                    // Companions first, each name claimed as it is published; the photo last.
                    for (index, companionName) in companionNames.enumerated() {
                        // Taken meanwhile (EEXIST): this attempt's names go, the next name is tried (below).
                        try FileSystem.publish(companionFiles[index], into: target, as: companionName)
                        published.append(companionName)
                        attemptNames.append(companionName)
                        let companion = item.media.companions[index]
                        contents.add(companionName, size: companion.byteSize, sha256: companion.sha256, head: { nil })
                    }
                    try FileSystem.publish(file, into: target, as: name)
                    published.append(name)
                    contents.add(name, size: item.byteSize, sha256: item.sha256, head: item.head)
                    results.append(.success(CommittedAsset(assetID: assetID(name), metadata: item.metadata)))
                    done = true
                } catch  where error.errno == EEXIST {
                    // This attempt's companions go: they are named after a name now not this photo's.
                    for companionName in attemptNames {
                        // Ours, just published: one that cannot be removed stays as a stray copy, never lost data.
                        try? FileSystem.unlink(companionName, in: target)
                        published.removeAll { $0 == companionName }
                    }
                    // Taken meanwhile (another program): it may even be this very file.
                    contents.refresh(name)
                    if let existing = contents.identical(
                        size: item.byteSize, sha256: item.sha256, preferred: name, head: item.head),
                        existing == name
                    {
                        results.append(
                            .success(
                                CommittedAsset(
                                    assetID: assetID(name), isExisting: true, metadata: item.metadata,
                                    companionsLeftOut: item.media.companions.map(\.originalName))))
                        done = true
                    }
                    attempt += 1
                } catch  where error.errno == ENOENT && albumID != nil {
                    // The album folder was deleted mid-save: whatever was published went with it.
                    rollBack()
                    if published.isEmpty { throw AlbumVanished(albumID: albumID!) }
                    throw AlbumError(
                        .albumUnavailable,
                        "The album folder \(target.path) was deleted while saving; nothing was saved. Try again.",
                        underlying: error)
                } catch {
                    rollBack()
                    throw error.libraryError("save the photo")
                }
            }
        }
        if !published.isEmpty {
            do { try FileSystem.fsync(target) } catch {
                rollBack()
                throw error.libraryError("save the photos")
            }
        }
        lastListing.withLock { $0 = contents }
        return results
    }

    /// The offsets of `item`'s companions that the photo `photo` in `folder` does not have beside
    /// it as they are: no file of the name it would have there, or one of other bytes.
    private func companionsToUpdate(_ item: Staged, photo: String, in folder: FileSystem.Descriptor) -> [Int] {
        let names = AssetCompanion.names(
            of: item.media.companions.map(\.originalName), photo: item.media.originalFilename, as: photo)
        return item.media.companions.indices.filter { offset in
            let companion = item.media.companions[offset]
            let name = names[offset]
            guard let status = FileSystem.fileStatus(of: name, in: folder) else { return true }
            return status.kind != .regular || status.size != companion.byteSize
                || hashCache.sha256(of: name, in: folder) != companion.sha256
        }
    }

    /// Puts `item`'s companions at `offsets` (their staged `files`, nameable in `target`) beside
    /// the photo `photo` already in `target`. A file of that name is linked into the desktop Trash
    /// first (nothing the user had is destroyed), then the new file, given a hidden staging name
    /// beside its staged data, is renamed over the name: the name holds the earlier file or the new
    /// one at every moment. (On a file system without hard links the earlier file is moved to the
    /// Trash instead, and a crash before the new one is named leaves the name free: the same save
    /// puts it there.) A dead process's hidden name is removed by the next save's recovery.
    ///
    /// - Returns: the companions' original names.
    private func replaceCompanions(
        _ offsets: [Int], of item: Staged, files: [FileSystem.StagedFile], photo: String,
        in target: FileSystem.Descriptor, contents: inout FolderContents
    ) throws -> [String] {
        var updated: [String] = []
        let names = AssetCompanion.names(
            of: item.media.companions.map(\.originalName), photo: item.media.originalFilename, as: photo)
        for offset in offsets {
            let companion = item.media.companions[offset]
            let name = names[offset]
            let file = files[offset]
            do throws(SystemError) {
                if FileSystem.fileStatus(of: name, in: target) == nil {
                    try FileSystem.publish(file, into: target, as: name)
                } else {
                    let from = target.path + "/" + name
                    do throws(SystemError) {
                        _ = try trash.move(name, in: target, from: from, keepingName: true)
                    } catch  where [EPERM, EMLINK, EXDEV, ENOTSUP].contains(error.errno) {
                        _ = try trash.move(name, in: target, from: from)
                    }
                    if FileSystem.fileStatus(of: name, in: target) == nil {
                        try FileSystem.publish(file, into: target, as: name)
                    } else {
                        let hidden = StagingName(kind: "partial").fileName
                        try FileSystem.publish(file, into: file.directory, as: hidden)
                        try FileSystem.renameReplacing(hidden, in: file.directory, to: name, in: target)
                    }
                }
                try FileSystem.fsync(target)
            } catch {
                throw error.libraryError("update the sidecar \(name) of \(photo)")
            }
            contents.add(name, size: companion.byteSize, sha256: companion.sha256, head: { nil })
            updated.append(companion.originalName)
        }
        return updated
    }

    // MARK: Album folders

    /// Opens an album's folder level by level, refusing symlinks (AlbumKit never writes through one).
    func openAlbumFolder(_ album: FolderAlbum, in root: FileSystem.Descriptor) throws -> FileSystem.Descriptor {
        do {
            return try FileSystem.openDirectory(album.path, in: root)
        } catch  where error.errno == ENOENT {
            throw AlbumVanished(albumID: album.id)
        } catch  where error.errno == ELOOP || error.errno == ENOTDIR {
            throw AlbumError(
                .albumUnavailable,
                "\(root.path)/\(album.name) is a symbolic link or not a folder; AlbumKit writes only into real folders inside the library. Nothing was saved.",
                albumTitle: album.title, underlying: error)
        } catch {
            throw error.libraryError("open the album folder")
        }
    }

    /// Creates a folder for a new album at the title's path: missing parent folders are made
    /// (existing ones are used when their names match the title's levels), then the album folder
    /// is built with its marker in hiding (`staging/`, or a hidden name in the parent when the
    /// parent is on another file system) and renamed into place (`name 2`, … when taken) without
    /// replacing anything.
    ///
    /// - Throws: `.invalidAlbumTitle` when a level of the title is another program's data.
    func createAlbumFolder(
        titled title: AlbumTitle, in root: FileSystem.Descriptor, state: FileSystem.Descriptor
    ) throws -> FolderAlbumCreation {
        let id = RandomID.make()
        let now = Date()
        let wanted = try FolderAlbumPath.creating(title)
        let parent = try openParentCreating(wanted, title: title, in: root)
        defer { FileSystem.close(parent.descriptor) }
        let base = wanted.components.last!
        do {
            let sameDevice =
                try FileSystem.fileStatus(of: parent.descriptor).device == FileSystem.fileStatus(of: state).device
            // On another file system the folder is built under a hidden name in its parent, which
            // is noted first, so recovery finds it if this process dies before the rename.
            if !sameDevice {
                try FolderLibraryState.prepareStaging(in: parent.descriptor, at: parent.path, state: state)
            }
            let hiding =
                sameDevice ? try FolderLibraryState.openStaging(state: state) : try FileSystem.reopen(parent.descriptor)
            let temporary = FolderLibraryState.stagingName(kind: "album")
            // An album folder in the user's Pictures is as open as the folder it is made in.
            try FileSystem.makeDirectory(
                temporary, in: hiding, mode: FileSystem.permissions(of: parent.descriptor) ?? 0o700)
            var moved = false
            // Cleanup of the folder this call staged.
            defer { if !moved { try? FileSystem.removeTree(temporary, in: hiding) } }
            let newFolder = try FileSystem.openDirectory(temporary, in: hiding)
            for attempt in 1...Self.maximumNameAttempts {
                let name = FolderNaming.folderName(base, attempt: attempt)
                // Never a name that would not be listed (`x.albumlibrary`, `@eaDir`): `x.albumlibrary 2`.
                if FolderExclusions.isExcluded(folderNamed: name) { continue }
                if FileSystem.status(of: name, in: parent.descriptor) != nil { continue }
                let path = FolderAlbumPath(components: parent.path.components + [name])
                let marker = FolderAlbumMarker(
                    id: id, title: title.text, folder: path.relative, created: now.timeIntervalSince1970,
                    // The inode is an optional hint in the marker (it tells a copied folder from the original).
                    inode: try? FileSystem.fileStatus(of: newFolder).inode)
                // The folder is new: nothing to remove, normally; a marker that stays makes createFile fail.
                try? FileSystem.unlink(FolderAlbumMarker.fileName, in: newFolder)
                try FileSystem.createFile(FolderAlbumMarker.fileName, in: newFolder, bytes: marker.encoded)
                try FileSystem.fsync(newFolder)
                if let failure = FileSystem.tryRename(temporary, in: hiding, to: name, in: parent.descriptor) {
                    if failure.errno == EEXIST || failure.errno == ENOTEMPTY { continue }
                    throw failure
                }
                moved = true
                try FileSystem.fsync(parent.descriptor)
                let album = FolderAlbum(path: path, id: id, title: title.text, createdAt: now, marker: marker)
                return FolderAlbumCreation(
                    album: album, descriptor: try FileSystem.openDirectory(name, in: parent.descriptor),
                    parent: try FileSystem.reopen(parent.descriptor), name: name,
                    madeParents: parent.made)
            }
        } catch let error as SystemError {
            throw error.libraryError("create the album folder for \"\(title.text)\"")
        }
        throw AlbumError(
            .ioFailure, "Could not find a free folder name for the album \"\(title.text)\" in \(root.path).",
            albumTitle: title.text)
    }

    /// Opens the parent folder of `path`, creating missing levels; a level that exists under a
    /// name matching the title's level (``FolderAlbumPath/folder(_:matches:)``) is used.
    func openParentCreating(
        _ path: FolderAlbumPath, title: AlbumTitle, in root: FileSystem.Descriptor
    ) throws -> (descriptor: FileSystem.Descriptor, path: FolderAlbumPath, made: [String]) {
        let levels = FolderAlbumPath.levels(of: title.text)
        var current: FileSystem.Descriptor
        do { current = try FileSystem.reopen(root) } catch { throw error.libraryError("open the library") }
        var components: [String] = []
        var made: [String] = []
        for (index, wanted) in path.components.dropLast().enumerated() {
            do {
                let level = levels[index]
                let names = try FileSystem.names(in: current)
                let matches = names.filter { name in
                    FolderAlbumPath.folder(name, matches: level)
                        && FileSystem.fileStatus(of: name, in: current)?.kind == .directory
                }
                let name = matches.contains(wanted) ? wanted : (matches.count == 1 ? matches[0] : wanted)
                let child: FileSystem.Descriptor
                guard !FolderExclusions.isExcluded(folderNamed: name) else {
                    throw AlbumError(
                        .invalidAlbumTitle,
                        "\(root.path)/\((components + [name]).joined(separator: "/")) would be hidden or another program's data, not an album folder; choose another title than \"\(title.text)\".",
                        albumTitle: title.text)
                }
                if FileSystem.fileStatus(of: name, in: current) == nil {
                    // (As open as the folder it is made in, as an album folder.)
                    if try FileSystem.makeDirectory(
                        name, in: current, mode: FileSystem.permissions(of: current) ?? 0o700)
                    {
                        try FileSystem.fsync(current)
                        made.append((components + [name]).joined(separator: "/"))
                    }
                }
                guard !FolderExclusions.isExcluded(folderNamed: name) else {
                    throw AlbumError(
                        .invalidAlbumTitle,
                        "\(root.path)/\((components + [name]).joined(separator: "/")) is hidden or another program's data, not an album folder; choose another title than \"\(title.text)\".",
                        albumTitle: title.text)
                }
                child = try FileSystem.openDirectory(name, in: current)
                // A folder that cannot be listed is judged by its name alone.
                if FolderExclusions.isExcluded(folderNamed: name, holding: (try? FileSystem.names(in: child)) ?? []) {
                    FileSystem.close(child)
                    throw AlbumError(
                        .invalidAlbumTitle,
                        "\(root.path)/\((components + [name]).joined(separator: "/")) is another program's data (a photo library or database), not an album folder; choose another title than \"\(title.text)\".",
                        albumTitle: title.text)
                }
                FileSystem.close(current)
                current = child
                components.append(name)
            } catch let error as SystemError {
                FileSystem.close(current)
                if error.errno == ELOOP || error.errno == ENOTDIR {
                    throw AlbumError(
                        .albumUnavailable,
                        "\(root.path)/\((components + [wanted]).joined(separator: "/")) is a symbolic link or not a folder; AlbumKit writes only into real folders inside the library. Nothing was saved.",
                        albumTitle: title.text, underlying: error)
                }
                throw error.libraryError("create the folders for \"\(title.text)\"")
            } catch {
                FileSystem.close(current)
                throw error
            }
        }
        return (current, FolderAlbumPath(components: components), made)
    }

    /// Writes the marker an album is listed with into its folder (adopting a folder AlbumKit never
    /// marked, or recording a move done outside AlbumKit), so the identifier stays put.
    ///
    /// Something other than a regular file under the marker's name (a FIFO, a socket, a folder, a
    /// symlink) is the user's and is never replaced: the folder then stays unmarked (listed with
    /// the identifier derived from its path).
    func settle(_ album: FolderAlbum, folder: FileSystem.Descriptor, state: FileSystem.Descriptor) throws(SystemError) {
        if let existing = FileSystem.fileStatus(of: FolderAlbumMarker.fileName, in: folder), existing.kind != .regular {
            return
        }
        let marker = FolderAlbumMarker(
            id: album.id, title: album.title, folder: album.name, created: album.createdAt.timeIntervalSince1970,
            // The inode is an optional hint in the marker (it tells a copied folder from the original).
            inode: try? FileSystem.fileStatus(of: folder).inode)
        try FolderLibraryState.replaceFile(
            FolderAlbumMarker.fileName, in: folder, at: album.path, with: marker.encoded, state: state)
    }

    func mapping<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as SystemError { throw error.libraryError(what) }
    }
}

/// A folder a commit created, so that a failed commit can take it (and the parents it made) back.
struct FolderAlbumCreation {
    let album: FolderAlbum
    let descriptor: FileSystem.Descriptor
    let parent: FileSystem.Descriptor
    let name: String
    let madeParents: [String]

    /// Removes the marker and the folder, only if nothing else is in it (never others' files).
    func undo(folder: FileSystem.Descriptor) {
        // Undo of the marker this call wrote; the folder is removed only when empty.
        try? FileSystem.unlink(FolderAlbumMarker.fileName, in: folder)
        FileSystem.removeEmptyDirectory(name, in: parent)
    }
}
