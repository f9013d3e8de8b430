import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Listing, creating, renaming and deleting folder albums.
extension FolderBackend: AlbumBrowsing, AlbumEditing {
    /// Runs `body` with the root (which must exist) and the albums, without the lock: reads only,
    /// and every file AlbumKit replaces is replaced atomically.
    func reading<T>(
        _ what: String, _ body: (FileSystem.Descriptor, FolderAlbumDirectory) throws -> T
    ) throws -> T {
        let root = try openRoot(creating: false)
        // No readable state folder: no remembered titles (a hint); albums are found by their folders.
        let state = try? FolderLibraryState.open(root: root)
        defer { state.map(FileSystem.close) }
        let directory = FolderAlbumDirectory(
            root: root, remembered: FolderLibraryState.remembered(state: state), hints: folderHints)
        return try mapping(what) { try body(root, directory) }
    }

    private func notFound(_ id: String) -> AlbumError {
        AlbumError(.albumNotFound, "There is no album with the identifier \(id) in \(root.path).")
    }

    // MARK: Listing

    package func albums() async throws -> [AlbumInfo] {
        try await Blocking.run {
            try self.reading("list the albums") { root, directory in
                try directory.albums().map { album throws(SystemError) in
                    try self.info(album, in: root)
                }
            }
        }
    }

    /// The album whose folder holds `id`: the folder it was last found in or is remembered in,
    /// listing the library's folders only when it is in neither (the user moved it).
    package func album(withID id: String) async throws -> AlbumInfo? {
        try await Blocking.run {
            try self.reading("find the album") { root, directory in
                try directory.album(id: id).map { album throws(SystemError) in try self.info(album, in: root) }
            }
        }
    }

    /// The titles alone: listing the album folders, not the files in each.
    package func albumTitles() async throws -> [String] {
        try await Blocking.run {
            try self.reading("list the albums") { _, directory in try directory.albums().map(\.title) }
        }
    }

    /// The listing of `album`: its photo and video files, not those of albums inside it.
    func info(_ album: FolderAlbum, in root: FileSystem.Descriptor) throws(SystemError) -> AlbumInfo {
        let opened = try FileSystem.unlessOutOfDescriptors { () throws(SystemError) in
            try FileSystem.openDirectory(album.path, in: root)
        }
        let count = try opened.map { folder throws(SystemError) in
            return try Self.mediaFileCount(in: folder)
        }
        return AlbumInfo(id: album.id, title: album.title, count: count ?? 0, createdAt: album.createdAt)
    }

    /// The folder listed under `title` (any folder at the title's path, with photos or not).
    /// Unlike a save (``AlbumRequest/findOrCreate(in:)``), a remembered identifier never counts
    /// here: `show`, `rename` and `delete` act only on what `albums` lists under the title, so a
    /// delete can never follow a remembered id to a folder the user renamed.
    package func findAlbum(titled title: AlbumTitle) async throws -> String? {
        try await Blocking.run {
            try self.reading("find the album") { _, directory in try directory.album(titled: title)?.id }
        }
    }

    package func assets(inAlbumWithID id: String) async throws -> [AssetInfo] {
        try await assets(inAlbumWithID: id, "list the album") { _ in true }
    }

    /// The album folder's names are read (one listing of names, no file looked at), and only the
    /// files whose name's key is one of `keys` are looked at and read: a folder has no index of
    /// names in either case, and trying every spelling of a name in its folder would be more
    /// look-ups than names there are. An album that is not there has none.
    package func assets(inAlbumWithID id: String, originallyNamed keys: [String]) async throws -> [AssetInfo] {
        guard !keys.isEmpty else { return [] }
        let wanted = Set(keys)
        do {
            return try await assets(inAlbumWithID: id, "look for the album's photos by name") {
                wanted.contains(OriginalNameKey.of($0))
            }
        } catch let error as AlbumError where error.code == .albumNotFound {
            return []
        }
    }

    /// The album's photo and video files whose name passes `including`, each read for its metadata.
    private func assets(
        inAlbumWithID id: String, _ what: String, including: @escaping @Sendable (String) -> Bool
    ) async throws -> [AssetInfo] {
        try await Blocking.run {
            try self.reading(what) { root, directory in
                guard let album = try directory.album(id: id) else { throw self.notFound(id) }
                let folder: FileSystem.Descriptor
                do throws(SystemError) { folder = try FileSystem.openDirectory(album.path, in: root) } catch {
                    throw error.errno == ENOENT ? self.notFound(id) : error.libraryError(what)
                }
                let folderURL = self.url(of: album.path)
                return try Self.mediaFiles(in: folder, including: including).map { file in
                    let url = folderURL.appendingPathComponent(file.name)
                    let companions = file.companions.map { $0.placed(in: folderURL) }
                    // A file that is not readable media is listed by its name alone; `verify` reports it.
                    let metadata = try? MediaReader(Self.withSidecars(url, companions)).metadata
                    var info = AssetInfo(
                        id: id + "/" + file.name, originalFilename: file.name,
                        kind: metadata?.kind ?? Self.kind(ofFileNamed: file.name), byteSize: file.size,
                        addedAt: file.addedAt, fileURL: url, metadata: metadata)
                    info.companions = companions
                    return info
                }
            }
        }
    }

    /// The URL of the folder at `path`.
    func url(of path: FolderAlbumPath) -> URL {
        path.components.reduce(root) { $0.appendingPathComponent($1, isDirectory: true) }
    }

    /// How many files ``mediaFiles(in:)`` lists, without a `stat` per file where the listing gives
    /// each entry's kind.
    static func mediaFileCount(in folder: FileSystem.Descriptor) throws(SystemError) -> Int {
        let entries =
            try FileSystem.unlessOutOfDescriptors { () throws(SystemError) in try FileSystem.entries(in: folder) } ?? []
        // The raw of a RAW+JPEG pair is part of its JPEG's asset, not one of its own.
        let paired = Set(CompanionGrouping(entries.map(\.name)).groups.flatMap { $0.companions.map(\.name) })
        return entries.count {
            FolderNaming.isMediaFileName($0.name) && !paired.contains($0.name) && $0.isRegularFile(in: folder)
        }
    }

    /// The visible regular files with a photo or video extension, in the order they were added
    /// (inode change time — set when the file got its name here — then name).
    /// `including` picks the files by name before any is looked at.
    static func mediaFiles(
        in folder: FileSystem.Descriptor, including: (String) -> Bool = { _ in true }
    ) throws(SystemError) -> [(
        name: String, size: Int64, addedAt: Date, companions: [AssetCompanion]
    )] {
        let names =
            try FileSystem.unlessOutOfDescriptors { () throws(SystemError) in try FileSystem.names(in: folder) } ?? []
        // A RAW+JPEG pair is one asset (the JPEG, with the raw beside it), sidecars go with their photo.
        let groups = CompanionGrouping(names).groups
        let files = groups.compactMap {
            group -> (name: String, size: Int64, addedAt: Date, companions: [AssetCompanion])? in
            let name = group.primary
            guard including(name), FolderNaming.isMediaFileName(name),
                let info = FileSystem.fileStatus(of: name, in: folder),
                info.kind == .regular
            else { return nil }
            let companions = group.companions.compactMap { companion -> AssetCompanion? in
                guard let status = FileSystem.fileStatus(of: companion.name, in: folder), status.kind == .regular
                else { return nil }
                return AssetCompanion(role: companion.role, originalFilename: companion.name, byteSize: status.size)
            }
            return (name, info.size, info.changed.date, companions)
        }
        return files.sorted { a, b in
            a.addedAt != b.addedAt
                ? a.addedAt < b.addedAt : Array(a.name.utf8).lexicographicallyPrecedes(Array(b.name.utf8))
        }
    }

    static func kind(ofFileNamed name: String) -> MediaKind { FolderNaming.kind(ofFileNamed: name) }

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
                if let made = store.created {
                    FileSystem.close(made.descriptor)
                    FileSystem.close(made.parent)
                } else if let album = try self.mapping("find the album", { try store.album(id: found.id) }),
                    !album.isSettled
                {
                    // A plain folder at the title's path: mark it, so it is listed from now on.
                    let folder = try self.openAlbumFolderForChange(album, in: root)
                    do throws(SystemError) { try self.settle(album, folder: folder, state: state) } catch {
                        throw error.libraryError("mark the album folder")
                    }
                }
                store.saveRemembered()
                return found
            }
        }
    }

    /// Renames the album: its folder moves to the new title's path (missing parent folders are
    /// made), without replacing anything; its files, sidecars (`.xmp`) and albums inside it move
    /// with it. Refused onto an existing folder, into itself, and onto another file system.
    package func renameAlbum(id: String, to title: AlbumTitle) async throws {
        try await Blocking.run {
            try self.withLock("rename the album") { root, state in
                var remembered = FolderLibraryState.remembered(state: state)
                let directory = FolderAlbumDirectory(root: root, remembered: remembered, hints: self.folderHints)
                guard let album = try self.mapping("find the album", { try directory.album(id: id) }) else {
                    throw self.notFound(id)
                }
                let folder = try self.openAlbumFolderForChange(album, in: root)
                let wanted = try FolderAlbumPath.creating(title)
                if wanted.components.starts(with: album.path.components), wanted != album.path {
                    throw AlbumError(
                        .invalidAlbumTitle,
                        "Cannot rename the album \"\(album.title)\" to \"\(title.text)\": a folder cannot move into itself.",
                        albumTitle: title.text)
                }
                do throws(SystemError) {
                    if !album.isSettled { try self.settle(album, folder: folder, state: state) }
                } catch {
                    throw error.libraryError("mark the album folder")
                }
                let oldParent: FileSystem.Descriptor
                do throws(SystemError) { oldParent = try FileSystem.openDirectory(album.path.parent, in: root) } catch {
                    throw error.libraryError("rename the album folder")
                }
                let newParent = try self.openParentCreating(wanted, title: title, in: root)
                defer { FileSystem.close(newParent.descriptor) }
                let newPath = FolderAlbumPath(components: newParent.path.components + [wanted.components.last!])
                if newPath != album.path {
                    if let failure = FileSystem.tryRename(
                        album.path.components.last!, in: oldParent, to: newPath.components.last!,
                        in: newParent.descriptor)
                    {
                        for made in newParent.made.reversed() {
                            FileSystem.removeEmptyDirectory(made, in: root)
                        }
                        switch failure.errno {
                        case EEXIST, ENOTEMPTY:
                            throw AlbumError(
                                .invalidAlbumTitle,
                                "Cannot rename the album \"\(album.title)\" to \"\(title.text)\": a folder named \"\(newPath.relative)\" already exists in \(self.root.path). Choose another title.",
                                albumTitle: title.text)
                        case EXDEV:
                            throw AlbumError(
                                .invalidAlbumTitle,
                                "Cannot rename the album \"\(album.title)\" to \"\(title.text)\": \(newPath.relative) would be on another disk. Move the folder in a file manager instead.",
                                albumTitle: title.text, underlying: failure)
                        default:
                            throw failure.libraryError("rename the album folder")
                        }
                    }
                    do throws(SystemError) {
                        try FileSystem.fsync(newParent.descriptor)
                        try FileSystem.fsync(oldParent)
                    } catch {
                        throw error.libraryError("rename the album folder")
                    }
                }
                var renamed = album
                renamed.path = newPath
                renamed.title = title.text
                do throws(SystemError) { try self.settle(renamed, folder: folder, state: state) } catch {
                    throw error.libraryError("mark the album folder")
                }
                self.folderHints.withLock { $0[id] = newPath.relative }
                remembered = remembered.filter { $0.value.id != id }
                remembered[title.key] = .init(id: id, folder: newPath.relative)
                // Remembered titles are a hint: unwritten, the album is still found by its folder and marker.
                try? FolderLibraryState.saveRemembered(remembered, state: state)
            }
        }
    }

    package func deleteAlbum(id: String, force: Bool) async throws {
        _ = try await deleteAlbum(id: id, force: force, permanently: false)
    }

    /// Deletes the album: its folder goes to the Trash (``FolderTrash``), or is removed when
    /// `permanently`. A folder holding anything but AlbumKit's marker — files, sidecars, albums
    /// inside it — needs `force`.
    ///
    /// Emptiness is checked after the folder has been moved aside (renamed to a hidden name in its
    /// own parent, so nothing can be written into it by path any more): a file copied in at the
    /// same moment is either seen there, and the folder is moved back, or was never written into it.
    /// A note in `staging/` records the move aside, so a crash in between moves it back.
    package func deleteAlbum(id: String, force: Bool, permanently: Bool) async throws -> AlbumDeletionReceipt {
        try await Blocking.run {
            try self.withLock("delete the album") { root, state in
                let remembered = FolderLibraryState.remembered(state: state)
                let directory = FolderAlbumDirectory(root: root, remembered: remembered, hints: self.folderHints)
                guard let album = try self.mapping("find the album", { try directory.album(id: id) }) else {
                    throw self.notFound(id)
                }
                let parent: FileSystem.Descriptor
                do throws(SystemError) { parent = try FileSystem.openDirectory(album.path.parent, in: root) } catch {
                    throw error.errno == ENOENT
                        ? AlbumError(
                            .albumNotFound, "The album \"\(album.title)\" was deleted meanwhile.",
                            albumTitle: album.title) : error.libraryError("delete the album folder")
                }
                let name = album.path.components.last!
                let aside = try self.moveAside(album, name: name, in: parent, state: state)
                var restored = false
                func restore() {
                    guard !restored else { return }
                    restored = true
                    self.moveBack(aside, to: name, in: parent, state: state)
                }
                do {
                    let folder = try self.mapping("delete the album") {
                        try FileSystem.openDirectory(aside.name, in: parent)
                    }
                    let listed = try self.mapping("delete the album") {
                        try FileSystem.unlessOutOfDescriptors { () throws(SystemError) in
                            // Every name, those that are not UTF-8 too: a folder holding only
                            // such photos is not empty.
                            try FileSystem.entryBytes(in: folder).map { String(decoding: $0.name, as: UTF8.self) }
                        }
                    }
                    // The marker is AlbumKit's own, unless something else (a FIFO) has its name.
                    let ownMarker = FileSystem.fileStatus(of: FolderAlbumMarker.fileName, in: folder)?.kind == .regular
                    let entries = (listed ?? []).filter {
                        $0 != FolderAlbumMarker.fileName || !ownMarker
                    }
                    let scanned = try self.mapping("delete the album") {
                        try FileSystem.unlessOutOfDescriptors { () throws(SystemError) in
                            try FolderAlbumDirectory.scan(folder)
                        }
                    }
                    let inside = (scanned ?? []).map { nested in
                        var nested = nested
                        nested.path = FolderAlbumPath(components: album.path.components + nested.path.components)
                        if nested.marker == nil { nested.title = nested.path.title }
                        return nested
                    }
                    let albums =
                        [self.info(album, folder: folder)]
                        + inside.map { self.info($0, in: root, aside: aside, of: album) }
                    if !entries.isEmpty && !force {
                        restore()
                        throw self.notEmpty(
                            album, entries: entries, inside: albums.dropFirst(), permanently: permanently)
                    }
                    var trashPath: String?
                    if permanently {
                        if entries.isEmpty {
                            // Best effort on our own marker: kept (or put back) when the folder cannot be removed.
                            let marker = try? FileSystem.readSmallFile(FolderAlbumMarker.fileName, in: folder)
                            try? FileSystem.unlink(FolderAlbumMarker.fileName, in: folder)
                            if !FileSystem.removeEmptyDirectory(aside.name, in: parent) {
                                // Something appeared: keep it, and the album its identity.
                                if let marker = marker ?? nil {
                                    // Best effort (as above): the folder stays, unmarked at worst.
                                    try? FileSystem.createFile(FolderAlbumMarker.fileName, in: folder, bytes: marker)
                                }
                                restore()
                                throw self.notEmpty(
                                    album, entries: ["(a new file)"], inside: [], permanently: permanently)
                            }
                        } else {
                            try self.mapping("delete the album folder") {
                                try FileSystem.removeTree(aside.name, in: parent)
                            }
                        }
                        // Best-effort flush of a deletion the user asked for; lost with the power, the folder is back.
                        try? FileSystem.fsync(parent)
                    } else {
                        do {
                            trashPath = try self.trash.move(
                                aside.name, in: parent, from: self.url(of: album.path).path, displayName: name)
                        } catch {
                            restore()
                            throw AlbumError(
                                .ioFailure,
                                "Cannot move the album \"\(album.title)\" (\(self.url(of: album.path).path)) to the Trash: \(error). Nothing was deleted; use --permanently (permanently: true) to delete it without the Trash.",
                                albumTitle: album.title, underlying: error)
                        }
                    }
                    aside.finish(state: state)
                    // Remembered titles are a hint: a stale one names an album that is gone, and is not found.
                    try? FolderLibraryState.saveRemembered(remembered.filter { $0.value.id != id }, state: state)
                    return AlbumDeletionReceipt(trashPath: trashPath, albums: albums)
                } catch {
                    restore()
                    throw error
                }
            }
        }
    }

    private func info(_ album: FolderAlbum, folder: FileSystem.Descriptor) -> AlbumInfo {
        AlbumInfo(
            // The count is informational; a folder that cannot be listed shows 0, and `verify` fails on it.
            id: album.id, title: album.title, count: (try? Self.mediaFileCount(in: folder)) ?? 0,
            createdAt: album.createdAt)
    }

    /// The listing of an album nested in `album`, while `album` is moved aside.
    private func info(
        _ nested: FolderAlbum, in root: FileSystem.Descriptor, aside: FolderAside, of album: FolderAlbum
    ) -> AlbumInfo {
        let below = FolderAlbumPath(components: Array(nested.path.components.dropFirst(album.path.components.count)))
        let hidden = FolderAlbumPath(components: album.path.parent.components + [aside.name] + below.components)
        // The count is informational (as above): a hidden folder that cannot be read counts 0.
        let count = (try? FileSystem.openDirectory(hidden, in: root)).map { folder in
            // Informational count (as above).
            return (try? Self.mediaFileCount(in: folder)) ?? 0
        }
        return AlbumInfo(id: nested.id, title: nested.title, count: count ?? 0, createdAt: nested.createdAt)
    }

    private func notEmpty(
        _ album: FolderAlbum, entries: [String], inside: ArraySlice<AlbumInfo>, permanently: Bool
    ) -> AlbumError {
        func count(_ number: Int, _ one: String, _ many: String) -> String { "\(number) \(number == 1 ? one : many)" }
        let photos = entries.filter(FolderNaming.isMediaFileName).count
        var message =
            "The album \"\(album.title)\" is the folder \(url(of: album.path).path), which holds "
            + "\(count(entries.count, "item", "items")) (\(count(photos, "photo or video", "photos or videos")))"
        if !inside.isEmpty {
            message +=
                " and \(count(inside.count, "album", "albums")) inside it: "
                + inside.map { "\"\($0.title)\" (\($0.count))" }.joined(separator: ", ")
        }
        message +=
            permanently
            ? ". Deleting it permanently removes the folder and all of that; use force (album delete --force --permanently) to do so, or move the files out first."
            : ". Deleting it moves the folder and all of that to the Trash; use force (album delete --force) to do so, or move the files out first."
        return AlbumError(.albumNotEmpty, message, albumTitle: album.title)
    }

    /// Renames the album folder to a hidden name in its own parent (same file system, so always
    /// possible), after writing a note in `staging/` that says how to move it back.
    private func moveAside(
        _ album: FolderAlbum, name: String, in parent: FileSystem.Descriptor, state: FileSystem.Descriptor
    ) throws -> FolderAside {
        let aside = FolderAside(
            name: FolderLibraryState.stagingName(kind: "deleting"),
            note: FolderLibraryState.stagingName(kind: "aside"), parent: album.path.parent.relative)
        do {
            let staging = try FolderLibraryState.openStaging(state: state)
            try FileSystem.createFile(aside.note, in: staging, bytes: aside.encoded(folder: name))
            try FileSystem.fsync(staging)
            do {
                try FileSystem.renameWithoutReplacing(name, in: parent, to: aside.name, in: parent)
            } catch {
                // Undo of the note this call just wrote; the rename error is what matters.
                try? FileSystem.unlink(aside.note, in: staging)
                throw error
            }
            try FileSystem.fsync(parent)
        } catch let error as SystemError {
            if error.errno == ENOENT {
                throw AlbumError(
                    .albumNotFound, "The album \"\(album.title)\" was deleted meanwhile.", albumTitle: album.title)
            }
            throw error.libraryError("delete the album folder")
        }
        return aside
    }

    /// Moves a folder that was moved aside back to `name` (`name 2`, … if a folder took the name
    /// meanwhile), and drops the note.
    private func moveBack(
        _ aside: FolderAside, to name: String, in parent: FileSystem.Descriptor, state: FileSystem.Descriptor
    ) {
        for attempt in 1...Self.maximumNameAttempts {
            let target = FolderNaming.folderName(name, attempt: attempt)
            guard let failure = FileSystem.tryRename(aside.name, in: parent, to: target, in: parent) else { break }
            if failure.errno != EEXIST && failure.errno != ENOTEMPTY { return }  // keep the note: the sweep retries
        }
        // Best-effort flush: a rename lost with the power leaves the note, and the next open redoes it.
        try? FileSystem.fsync(parent)
        aside.finish(state: state)
    }

    private func openAlbumFolderForChange(
        _ album: FolderAlbum, in root: FileSystem.Descriptor
    ) throws -> FileSystem.Descriptor {
        do { return try openAlbumFolder(album, in: root) } catch is AlbumVanished {
            throw AlbumError(
                .albumNotFound, "The album \"\(album.title)\" was deleted meanwhile.", albumTitle: album.title)
        }
    }
}
