import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder library: every visible sub-folder of the root is an album (what digiKam, Shotwell,
/// gThumb, darktable and file managers show), its photo and video files are the album's assets.
/// On Linux, the system library is this backend rooted at the XDG Pictures folder.
///
/// Save protocol (crash-safe at every step; no scanner ever sees a half-written file):
/// 1. stage: inspect, then copy + hash into an invisible `O_TMPFILE` inode in
///    `ROOT/.albumkit/staging/` (a hidden `.partial` name there when the file system lacks
///    `O_TMPFILE`), then `fsync` it;
/// 2. commit, under the library's `flock` (`.albumkit/lock`, so processes never create an album
///    twice): find or create the album with ``AlbumRequest/findOrCreate(in:)``; a new folder is made with its
///    marker in `staging/`, then renamed into place without replacing anything);
/// 3. per file: an identical file already in the folder (size + SHA-256) is reported as the asset
///    (`isExisting`); else publish under the original name (`name 2.jpg`, … when taken) with
///    `linkat`, which never replaces a file;
/// 4. `fsync` the album folder, then remember the album's id for its title.
///
/// Identifiers: album id = the UUID in the folder's `.albumkit-album` marker (a UUID-shaped digest
/// of the folder name for folders AlbumKit never wrote to); asset id = `albumID + "/" + file name`
/// (just the file name at the root). Both survive renaming the album folder.
package final class FolderBackend: PhotoLibraryBackend {
    /// The library root (e.g. `~/Pictures`).
    package let root: URL
    package let identity: String
    /// When the root is missing but its parent exists, create it (the system library's
    /// `$HOME/Pictures`); otherwise a missing root is `.libraryNotFound`.
    let createsMissingRoot: Bool
    /// Called with the file name just before a commit's first publish (tests delete the album
    /// folder here to simulate a user deleting it mid-save).
    let beforePublish: (@Sendable (String) -> Void)?
    /// Hashes of files already in album folders, for finding duplicates without re-reading them.
    let hashCache = FileHashCache()

    /// Files in an album tried with `name N.ext` before giving up.
    static let maximumNameAttempts = 10_000

    package init(
        root: URL, createsMissingRoot: Bool = false, beforePublish: (@Sendable (String) -> Void)? = nil
    ) {
        let root = root.standardizedFileURL
        self.root = root
        self.identity = "folders:" + root.path
        self.createsMissingRoot = createsMissingRoot
        self.beforePublish = beforePublish
        if let descriptor = try? FileSystem.openRoot(root.path) {
            FolderLibraryState.sweep(root: descriptor)
            FileSystem.close(descriptor)
        }
    }

    /// Opens the folder library at `url`. A missing folder is not an error here (a disk may be
    /// mounted later); saving reports `.libraryNotFound` then.
    ///
    /// - Throws: `.libraryNotFound` when `url` exists but is not a folder.
    package static func open(at url: URL) throws -> FolderBackend {
        var info = stat()
        if stat(url.standardizedFileURL.path, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
            throw AlbumError(
                .libraryNotFound,
                "\(url.path) is a file, not a folder; a folder library is a folder whose sub-folders are albums.")
        }
        return FolderBackend(root: url)
    }

    /// The system library: the XDG Pictures folder (`$HOME/Pictures` is created when missing).
    package static func system(environment: [String: String] = ProcessInfo.processInfo.environment) -> FolderBackend {
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
                defer { FileSystem.close(parent) }
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
        defer { FileSystem.close(root) }
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
    }

    package func albumUnavailableReason(needsAlbum: Bool) async throws -> String? {
        try await Blocking.run {
            let root = try self.openRoot(creating: true)
            defer { FileSystem.close(root) }
            do throws(SystemError) { try FileSystem.checkWritable(self.root.path) } catch {
                throw error.libraryError("save into the folder library")
            }
            return nil
        }
    }

    package func stage(_ media: Media) async throws -> Staged {
        try await Blocking.run { try self.stageNow(media) }
    }

    private func stageNow(_ media: Media) throws -> Staged {
        let staged = try StagedMedia(
            media, owners: root.appendingPathComponent(FolderLibraryState.directoryName + "/owners").path, flush: true
        ) {
            let root = try openRoot(creating: true)
            defer { FileSystem.close(root) }
            do throws(SystemError) {
                let state = try FolderLibraryState.openOrCreate(root: root)
                defer { FileSystem.close(state) }
                return try FolderLibraryState.openStaging(state: state)
            } catch {
                throw error.libraryError("stage the photo")
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
        try withLock("save the photos") { root, state in
            var albumID: String?
            var outcome: AlbumOutcome?
            var folder: FolderAlbum?
            var created = false
            let target: FileSystem.Descriptor
            if let request {
                let store = FolderAlbumStore(backend: self, root: root, state: state)
                let found = try mapping("find the album") { try request.findOrCreate(in: store) }
                let opened: (album: FolderAlbum, descriptor: FileSystem.Descriptor)
                if let made = store.created {
                    opened = made
                    created = true
                } else {
                    guard let album = try mapping("find the album", { try store.album(id: found.id) }) else {
                        throw AlbumVanished(albumID: found.id)
                    }
                    opened = (album, try openAlbumFolder(album, in: root))
                }
                outcome = found.outcome
                folder = opened.album
                albumID = opened.album.id
                target = opened.descriptor
                do throws(SystemError) {
                    if !created, !opened.album.isSettled { try settle(opened.album, folder: target, state: state) }
                } catch {
                    FileSystem.close(target)
                    throw error.libraryError("mark the album folder")
                }
                defer { FileSystem.close(target) }
                let receipt = try publish(
                    staged, into: target, albumID: albumID, album: folder, createdIn: created ? root : nil)
                store.saveRemembered()
                return CommitReceipt(albumID: albumID, albumOutcome: outcome, assets: receipt)
            } else {
                target = root
                let receipt = try publish(staged, into: target, albumID: nil, album: nil, createdIn: nil)
                return CommitReceipt(albumID: nil, albumOutcome: nil, assets: receipt)
            }
        }
    }

    /// Publishes every staged file into `target`, then flushes `target`. All or nothing: on a
    /// failure the files published so far are removed (and a folder created by this commit).
    private func publish(
        _ staged: [Staged], into target: FileSystem.Descriptor, albumID: String?, album: FolderAlbum?,
        createdIn root: FileSystem.Descriptor?
    ) throws -> [Result<CommittedAsset, AlbumError>] {
        var contents: FolderContents
        do { contents = try FolderContents(directory: target, cache: hashCache) } catch {
            if error.errno == ENOENT, let albumID { throw AlbumVanished(albumID: albumID) }
            throw error.libraryError("read the album folder")
        }
        var published: [String] = []
        var results: [Result<CommittedAsset, AlbumError>] = []
        func assetID(_ name: String) -> String { albumID.map { $0 + "/" + name } ?? name }
        func rollBack() {
            for name in published { try? FileSystem.unlink(name, in: target) }
            if let root, let album {
                try? FileSystem.unlink(FolderAlbumMarker.fileName, in: target)
                _ = unlinkat(root.fd, album.name, AT_REMOVEDIR)  // only if empty: never removes others' files
            }
        }

        for item in staged {
            if let existing = contents.identical(size: item.byteSize, sha256: item.sha256, preferred: item.fileName) {
                results.append(
                    .success(CommittedAsset(assetID: assetID(existing), isExisting: true, metadata: item.metadata)))
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
                if contents.isTaken(name) {
                    attempt += 1
                    continue
                }
                if published.isEmpty { beforePublish?(name) }
                do {
                    try FileSystem.publish(item.file, into: target, as: name)
                    published.append(name)
                    contents.add(name, size: item.byteSize, sha256: item.sha256)
                    results.append(.success(CommittedAsset(assetID: assetID(name), metadata: item.metadata)))
                    done = true
                } catch  where error.errno == EEXIST {
                    // Taken meanwhile (another program): it may even be this very file.
                    contents.refresh(name)
                    if let existing = contents.identical(size: item.byteSize, sha256: item.sha256, preferred: name),
                        existing == name
                    {
                        results.append(
                            .success(CommittedAsset(assetID: assetID(name), isExisting: true, metadata: item.metadata)))
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
        for item in staged {
            FileSystem.abandon(item.file)  // closes; removes the hidden staging name, if any
            FileSystem.close(item.file.directory)
        }
        return results
    }

    // MARK: Album folders

    /// Opens an album's folder, refusing symlinks (AlbumKit never writes through one).
    func openAlbumFolder(_ album: FolderAlbum, in root: FileSystem.Descriptor) throws -> FileSystem.Descriptor {
        do {
            return try FileSystem.openDirectory(album.name, in: root)
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

    /// Creates a folder for a new album: built with its marker in `staging/`, then renamed into the
    /// root under the title's folder name (`name 2`, … when taken) without replacing anything.
    func createAlbumFolder(
        titled title: AlbumTitle, in root: FileSystem.Descriptor, state: FileSystem.Descriptor
    ) throws -> (album: FolderAlbum, descriptor: FileSystem.Descriptor) {
        let id = UUID().uuidString.lowercased()
        let now = Date()
        let base = FolderNaming.folderName(for: title)
        do {
            let staging = try FolderLibraryState.openStaging(state: state)
            defer { FileSystem.close(staging) }
            let temporary = FolderLibraryState.stagingName(kind: "album")
            try FileSystem.makeDirectory(temporary, in: staging)
            var moved = false
            defer { if !moved { try? FileSystem.removeTree(temporary, in: staging) } }
            let newFolder = try FileSystem.openDirectory(temporary, in: staging)
            defer { FileSystem.close(newFolder) }
            for attempt in 1...Self.maximumNameAttempts {
                let name = FolderNaming.folderName(base, attempt: attempt)
                if FileSystem.status(of: name, in: root) != nil { continue }
                let marker = FolderAlbumMarker(
                    id: id, title: title.text, folder: name, created: now.timeIntervalSince1970)
                try? FileSystem.unlink(FolderAlbumMarker.fileName, in: newFolder)
                try FileSystem.createFile(FolderAlbumMarker.fileName, in: newFolder, bytes: marker.encoded)
                try FileSystem.fsync(newFolder)
                do {
                    try FileSystem.renameWithoutReplacing(temporary, in: staging, to: name, in: root)
                } catch  where error.errno == EEXIST || error.errno == ENOTEMPTY {
                    continue
                }
                moved = true
                try FileSystem.fsync(root)
                let album = FolderAlbum(name: name, id: id, title: title.text, createdAt: now, marker: marker)
                return (album, try FileSystem.openDirectory(name, in: root))
            }
        } catch {
            throw error.libraryError("create the album folder for \"\(title.text)\"")
        }
        throw AlbumError(
            .ioFailure, "Could not find a free folder name for the album \"\(title.text)\" in \(root.path).",
            albumTitle: title.text)
    }

    /// Writes the marker an album is listed with into its folder (adopting a folder AlbumKit never
    /// marked, or recording a rename done outside AlbumKit), so the identifier stays put.
    func settle(_ album: FolderAlbum, folder: FileSystem.Descriptor, state: FileSystem.Descriptor) throws(SystemError) {
        let marker = FolderAlbumMarker(
            id: album.id, title: album.title, folder: album.name, created: album.createdAt.timeIntervalSince1970)
        try FolderLibraryState.replaceFile(FolderAlbumMarker.fileName, in: folder, with: marker.encoded, state: state)
    }

    func mapping<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as SystemError { throw error.libraryError(what) }
    }
}
