import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Listing, creating, renaming, deleting and verifying folder albums.
extension FolderBackend {
    /// Runs `body` with the root (which must exist) and the remembered albums, without the lock:
    /// reads only, and every file AlbumKit replaces is replaced atomically.
    private func reading<T>(
        _ what: String, _ body: (FileSystem.Descriptor, FolderAlbumDirectory) throws -> T
    ) throws -> T {
        let root = try openRoot(creating: false)
        defer { FileSystem.close(root) }
        let state = try? FolderLibraryState.open(root: root)
        defer { state.map(FileSystem.close) }
        let directory = FolderAlbumDirectory(root: root, remembered: FolderLibraryState.remembered(state: state))
        return try mapping(what) { try body(root, directory) }
    }

    private func notFound(_ id: String) -> AlbumError {
        AlbumError(.albumNotFound, "There is no album with the identifier \(id) in \(root.path).")
    }

    // MARK: Listing

    package func albums() async throws -> [AlbumInfo] {
        try await Blocking.run {
            try self.reading("list the albums") { root, directory in
                try directory.albums().map { album in
                    let count = (try? FileSystem.openDirectory(album.name, in: root)).map { folder in
                        defer { FileSystem.close(folder) }
                        return Self.mediaFiles(in: folder).count
                    }
                    return AlbumInfo(id: album.id, title: album.title, count: count ?? 0, createdAt: album.createdAt)
                }
            }
        }
    }

    package func findAlbum(titled title: AlbumTitle) async throws -> String? {
        try await Blocking.run {
            try self.reading("find the album") { _, directory in
                try AlbumRequest(title: title).find(in: directory)
            }
        }
    }

    package func assets(inAlbumWithID id: String) async throws -> [AssetInfo] {
        try await Blocking.run {
            try self.reading("list the album") { root, directory in
                guard let album = try directory.album(id: id) else { throw self.notFound(id) }
                let folder: FileSystem.Descriptor
                do throws(SystemError) { folder = try FileSystem.openDirectory(album.name, in: root) } catch {
                    throw error.errno == ENOENT ? self.notFound(id) : error.libraryError("list the album")
                }
                defer { FileSystem.close(folder) }
                let folderURL = self.root.appendingPathComponent(album.name, isDirectory: true)
                return Self.mediaFiles(in: folder).map { file in
                    let url = folderURL.appendingPathComponent(file.name)
                    let metadata = try? MediaReader(.file(url)).metadata
                    return AssetInfo(
                        id: id + "/" + file.name, originalFilename: file.name,
                        kind: metadata?.kind ?? Self.kind(ofFileNamed: file.name), byteSize: file.size,
                        addedAt: file.addedAt, fileURL: url, metadata: metadata)
                }
            }
        }
    }

    /// The visible regular files with a photo or video extension, in the order they were added
    /// (inode change time — set when the file got its name here — then name).
    static func mediaFiles(in folder: FileSystem.Descriptor) -> [(name: String, size: Int64, addedAt: Date)] {
        let names = (try? FileSystem.names(in: folder)) ?? []
        let files = names.compactMap { name -> (name: String, size: Int64, addedAt: Date)? in
            guard FolderNaming.isMediaFileName(name), let info = FileSystem.status(of: name, in: folder),
                (info.st_mode & S_IFMT) == S_IFREG
            else { return nil }
            return (name, Int64(info.st_size), info.statusChangeTime.date)
        }
        return files.sorted { a, b in
            a.addedAt != b.addedAt
                ? a.addedAt < b.addedAt : Array(a.name.utf8).lexicographicallyPrecedes(Array(b.name.utf8))
        }
    }

    static func kind(ofFileNamed name: String) -> MediaKind {
        let ext = (name as NSString).pathExtension.lowercased()
        let video: Set<String> = MediaFormat.allCases.filter { $0.kind == .video }.reduce(into: []) {
            $0.formUnion(FolderNaming.aliases(of: $1))
        }
        return video.contains(ext) ? .video : .photo
    }

    // MARK: Changing albums

    package func createAlbum(titled title: AlbumTitle) async throws -> (id: String, outcome: AlbumOutcome) {
        try await Blocking.run {
            try self.withLock("create the album") { root, state in
                let store = FolderAlbumStore(backend: self, root: root, state: state)
                let found: (id: String, outcome: AlbumOutcome)
                do {
                    found = try self.mapping("find the album") {
                        try AlbumRequest(title: title).findOrCreate(in: store)
                    }
                } catch let vanished as AlbumVanished {
                    throw self.notFound(vanished.albumID)
                }
                if let made = store.created { FileSystem.close(made.descriptor) }
                store.saveRemembered()
                return found
            }
        }
    }

    package func renameAlbum(id: String, to title: AlbumTitle) async throws {
        try await Blocking.run {
            try self.withLock("rename the album") { root, state in
                var remembered = FolderLibraryState.remembered(state: state)
                let directory = FolderAlbumDirectory(root: root, remembered: remembered)
                guard let album = try self.mapping("find the album", { try directory.album(id: id) }) else {
                    throw self.notFound(id)
                }
                let folder = try self.openAlbumFolderForChange(album, in: root)
                defer { FileSystem.close(folder) }
                let newName = FolderNaming.folderName(for: title)
                if let failure = self.renameFolder(
                    album, to: newName, title: title, folder: folder, root: root, state: state)
                {
                    if failure.errno == EEXIST || failure.errno == ENOTEMPTY {
                        throw AlbumError(
                            .invalidAlbumTitle,
                            "Cannot rename the album \"\(album.title)\" to \"\(title.text)\": a folder named \"\(newName)\" already exists in \(self.root.path). Choose another title.",
                            albumTitle: title.text)
                    }
                    throw failure.libraryError("rename the album folder")
                }
                remembered = remembered.filter { $0.value.id != id }
                remembered[title.key] = .init(id: id, folder: newName)
                try? FolderLibraryState.saveRemembered(remembered, state: state)
            }
        }
    }

    /// Deletes the album folder — and so its files. Refused for a non-empty album unless `force`.
    ///
    /// The folder is first renamed into `.albumkit/staging/` (it disappears from every scanner at
    /// once), then removed without following symlinks; a crash in between leaves it for the sweep.
    package func deleteAlbum(id: String, force: Bool) async throws {
        try await Blocking.run {
            try self.withLock("delete the album") { root, state in
                let remembered = FolderLibraryState.remembered(state: state)
                let directory = FolderAlbumDirectory(root: root, remembered: remembered)
                guard let album = try self.mapping("find the album", { try directory.album(id: id) }) else {
                    throw self.notFound(id)
                }
                let folder = try self.openAlbumFolderForChange(album, in: root)
                let contents = ((try? FileSystem.names(in: folder)) ?? []).filter { $0 != FolderAlbumMarker.fileName }
                FileSystem.close(folder)
                if !contents.isEmpty && !force {
                    let photos = contents.filter(FolderNaming.isMediaFileName).count
                    throw AlbumError(
                        .albumNotEmpty,
                        "The album \"\(album.title)\" is the folder \(self.root.path)/\(album.name), which holds \(contents.count) item(s) (\(photos) photo(s) or video(s)). In a folder library deleting an album deletes its files from disk; use force (album delete --force) to delete them, or move them out first.",
                        albumTitle: album.title)
                }
                do {
                    let staging = try FolderLibraryState.openStaging(state: state)
                    defer { FileSystem.close(staging) }
                    let trash = FolderLibraryState.stagingName(kind: "deleted")
                    try FileSystem.renameWithoutReplacing(album.name, in: root, to: trash, in: staging)
                    try FileSystem.fsync(root)
                    try FileSystem.removeTree(trash, in: staging)
                } catch let error as SystemError {
                    throw error.libraryError("delete the album folder")
                }
                try? FolderLibraryState.saveRemembered(remembered.filter { $0.value.id != id }, state: state)
            }
        }
    }

    /// Marks the folder (so an unmarked folder keeps its identifier), renames it without replacing
    /// anything, then records the new title in its marker. Returns the failure, if any.
    private func renameFolder(
        _ album: FolderAlbum, to newName: String, title: AlbumTitle, folder: FileSystem.Descriptor,
        root: FileSystem.Descriptor, state: FileSystem.Descriptor
    ) -> SystemError? {
        do {
            if !album.isSettled { try settle(album, folder: folder, state: state) }
            if newName != album.name {
                try FileSystem.renameWithoutReplacing(album.name, in: root, to: newName, in: root)
                try FileSystem.fsync(root)
            }
            var renamed = album
            renamed.name = newName
            renamed.title = title.text
            try settle(renamed, folder: folder, state: state)
            return nil
        } catch {
            return error
        }
    }

    private func openAlbumFolderForChange(
        _ album: FolderAlbum, in root: FileSystem.Descriptor
    ) throws -> FileSystem.Descriptor {
        do { return try openAlbumFolder(album, in: root) } catch is AlbumVanished {
            throw AlbumError(
                .albumNotFound, "The album \"\(album.title)\" was deleted meanwhile.", albumTitle: album.title)
        }
    }

    // MARK: Verification

    /// Checks that every photo or video file in the album folders (and at the root) is complete
    /// media, and that no staged leftover or hidden `.partial` file is lying around.
    ///
    /// Files without a photo or video extension (sidecars such as `.xmp`, notes) are not assets
    /// and are not checked; sub-folders of album folders and symlinks are not followed.
    package func verify() async throws -> VerificationReport {
        try await Blocking.run {
            try self.reading("verify the library") { root, directory in
                var problems: [String] = []
                var checked = 0
                for leftover in FolderLibraryState.leftovers(root: root) {
                    problems.append(
                        "leftover \(FolderLibraryState.directoryName)/\(FolderLibraryState.stagingName)/\(leftover) from a process that is gone (removed when the library is next opened)"
                    )
                }
                var folders: [(label: String, url: URL, descriptor: FileSystem.Descriptor?)] = [
                    ("(root)", self.root, nil)
                ]
                for album in try directory.albums() {
                    do {
                        let folder = try FileSystem.openDirectory(album.name, in: root)
                        folders.append((album.name, self.root.appendingPathComponent(album.name), folder))
                    } catch {
                        problems.append("album folder \(album.name) cannot be opened: \(error)")
                    }
                }
                for (label, url, descriptor) in folders {
                    defer { descriptor.map(FileSystem.close) }
                    let folder = descriptor ?? root
                    for name in ((try? FileSystem.names(in: folder)) ?? []).sorted() {
                        if name.hasPrefix(".") {
                            if name.hasSuffix(".partial") {
                                problems.append("\(label)/\(name): hidden partial file left by an interrupted save")
                            }
                            continue
                        }
                        guard FolderNaming.isMediaFileName(name), let info = FileSystem.status(of: name, in: folder),
                            (info.st_mode & S_IFMT) == S_IFREG
                        else { continue }
                        checked += 1
                        do { _ = try MediaReader(.file(url.appendingPathComponent(name))) } catch {
                            problems.append("\(label)/\(name): \(AlbumError.wrap(error).message)")
                        }
                    }
                }
                return VerificationReport(checkedAssets: checked, problems: problems)
            }
        }
    }
}
