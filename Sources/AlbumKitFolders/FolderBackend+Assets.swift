import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The whole folder library, adding and removing album files, deleting to the Trash.
///
/// An asset is a file: `albumID/NAME` in an album folder, `NAME` at the library's top. Adding an
/// asset to another album gives that folder its own file (a hard link, so no space is used; a copy
/// across file systems), under the same name (`name 2.jpg` when taken) — with its own id. Removing
/// one from an album moves the file to the library's top folder (it stays in the library), unless
/// another album holds the same file (a hard link), where this name alone goes. Deleting moves the
/// file to the desktop Trash (freedesktop.org), from where any file manager restores it.
extension FolderBackend: AssetDeleting, PermanentDeleting {
    package func assets(in order: AssetOrder, after cursor: AssetCursor?, limit: Int) async throws -> AssetPage {
        var all: [AssetInfo] = []
        for album in try await albums() { all += try await assets(inAlbumWithID: album.id) }
        all += try await Blocking.run { try self.topLevelAssets() }
        return AssetCursor.page(of: all, in: order, after: cursor, limit: limit)
    }

    /// The photos and videos at the library's top (saved without an album).
    private func topLevelAssets() throws -> [AssetInfo] {
        let root = try openRoot(creating: false)
        return try Self.mediaFiles(in: root).map { file in
            let url = self.root.appendingPathComponent(file.name)
            let companions = file.companions.map { $0.placed(in: self.root) }
            // A file that is not readable media is listed by its name alone; `verify` reports it.
            let metadata = try? MediaReader(Self.withSidecars(url, companions)).metadata
            var info = AssetInfo(
                id: file.name, originalFilename: file.name, kind: metadata?.kind ?? Self.kind(ofFileNamed: file.name),
                byteSize: file.size, addedAt: file.addedAt, fileURL: url, metadata: metadata)
            info.companions = companions
            return info
        }
    }

    /// The photo at `url` with its sidecars, so that its metadata has their rating (an editor
    /// writes a raw's there).
    static func withSidecars(_ url: URL, _ companions: [AssetCompanion]) -> Media {
        Media.file(url).with(
            companions: companions.compactMap { $0.role == .sidecar ? $0.fileURL.map(MediaCompanion.sidecar) : nil })
    }

    /// Where asset `id` is: its folder (nil: the top) and file name.
    func locate(_ id: String, _ directory: FolderAlbumDirectory) throws -> (album: FolderAlbum?, name: String) {
        guard let slash = id.firstIndex(of: "/") else { return (nil, id) }
        let albumID = String(id[..<slash])
        let name = String(id[id.index(after: slash)...])
        guard !name.isEmpty, !name.contains("/"), let album = try directory.album(id: albumID) else {
            throw AlbumError(.assetNotFound, "There is no asset with the identifier \(id) in \(root.path).")
        }
        return (album, name)
    }

    private func open(_ album: FolderAlbum?, in root: FileSystem.Descriptor) throws -> FileSystem.Descriptor {
        guard let album else { return try mapping("open the library folder") { try FileSystem.reopen(root) } }
        return try mapping("open the album folder") { try FileSystem.openDirectory(album.path, in: root) }
    }

    /// Opens every asset's folder and checks its file is there.
    private func resolveFiles(
        _ ids: [String], _ directory: FolderAlbumDirectory, root: FileSystem.Descriptor
    ) throws -> [(id: String, album: FolderAlbum?, name: String, folder: FileSystem.Descriptor)] {
        var found: [(id: String, album: FolderAlbum?, name: String, folder: FileSystem.Descriptor)] = []
        do {
            for id in ids {
                let (album, name) = try mapping("find the asset") { try locate(id, directory) }
                let folder = try open(album, in: root)
                found.append((id, album, name, folder))
                guard FolderNaming.isMediaFileName(name), FileSystem.fileStatus(of: name, in: folder)?.kind == .regular
                else {
                    throw AlbumError(.assetNotFound, "There is no asset with the identifier \(id) in \(root.path).")
                }
            }
        } catch {
            for item in found { FileSystem.close(item.folder) }
            throw error
        }
        return found
    }

    package func addAssets(_ ids: [String], toAlbumWithID albumID: String) async throws -> [String] {
        try await Blocking.run {
            try self.withLock("add to the album") { root, state in
                let directory = FolderAlbumDirectory(
                    root: root, remembered: FolderLibraryState.remembered(state: state), hints: self.folderHints)
                guard let target = try self.mapping("find the album", { try directory.album(id: albumID) }) else {
                    throw AlbumError(
                        .albumNotFound, "There is no album with the identifier \(albumID) in \(self.root.path).")
                }
                let sources = try self.resolveFiles(ids, directory, root: root)
                defer { for item in sources { FileSystem.close(item.folder) } }
                let folder = try self.open(target, in: root)
                var made: [String] = []
                var result: [String] = []
                do {
                    for source in sources {
                        if source.album?.id == albumID {
                            result.append(source.id)  // already in the album
                            continue
                        }
                        let name = try self.link(
                            source.name, from: source.folder, into: folder, at: target.path, state: state)
                        made.append(name)
                        result.append(albumID + "/" + name)
                    }
                    try self.mapping("add to the album") { try FileSystem.fsync(folder) }
                } catch {
                    // Undo of the links this call just made; the error thrown is the one that matters.
                    for name in made { try? FileSystem.unlink(name, in: folder) }
                    throw error
                }
                return result
            }
        }
    }

    /// Gives `folder` (at `path` below the root) the file `name` of `source` under a free name: a
    /// hard link, or a copy across file systems; never replaces a file.
    private func link(
        _ name: String, from source: FileSystem.Descriptor, into folder: FileSystem.Descriptor,
        at path: FolderAlbumPath, state: FileSystem.Descriptor
    ) throws -> String {
        for attempt in 1...Self.maximumNameAttempts {
            let candidate = FolderNaming.fileName(name, attempt: attempt)
            do {
                try FileSystem.link(name, in: source, as: candidate, in: folder)
                return candidate
            } catch {
                if error.errno == EEXIST { continue }
                guard error.errno == EXDEV || error.errno == EPERM || error.errno == EMLINK else {
                    throw error.libraryError("add to the album")
                }
                return try copy(name, from: source, into: folder, as: candidate, noting: (path, state))
            }
        }
        throw AlbumError(.ioFailure, "No free name for \(name) in \(folder.path).")
    }

    /// Copies the file `name` of `source` into `folder` under a free name. With `noting`, the
    /// folder (at that path below the root) is first noted in `staging/` when it is on another file
    /// system (``FolderLibraryState/prepareStaging(in:at:state:)``), so recovery removes the copy
    /// a killed process leaves there.
    private func copy(
        _ name: String, from source: FileSystem.Descriptor, into folder: FileSystem.Descriptor, as first: String,
        noting: (path: FolderAlbumPath, state: FileSystem.Descriptor)? = nil
    ) throws -> String {
        let input = try mapping("read the photo") { try FileSystem.openForReading(source.path + "/" + name) }
        defer { FileSystem.close(input.0) }
        if let noting {
            try mapping("copy the photo") {
                try FolderLibraryState.prepareStaging(in: folder, at: noting.path, state: noting.state)
            }
        }
        let staged = try mapping("copy the photo") {
            try FileSystem.stage(in: folder, as: StagingName(kind: "partial"))
        }
        var published = false
        defer { if !published { FileSystem.abandon(staged) } }
        try mapping("copy the photo") {
            try FileSystem.forEachChunk(of: input.0) { try FileSystem.write(staged.descriptor, $0) }
            try FileSystem.fsync(staged.descriptor)
        }
        for attempt in 1...Self.maximumNameAttempts {
            let candidate = attempt == 1 ? first : FolderNaming.fileName(name, attempt: attempt)
            do { try FileSystem.publish(staged, as: candidate) } catch  where error.errno == EEXIST { continue } catch {
                throw error.libraryError("copy the photo")
            }
            published = true
            FileSystem.close(staged.descriptor)
            return candidate
        }
        throw AlbumError(.ioFailure, "No free name for \(name) in \(folder.path).")
    }

    package func removeAssets(_ ids: [String], fromAlbumWithID albumID: String) async throws {
        try await Blocking.run {
            try self.withLock("remove from the album") { root, state in
                let directory = FolderAlbumDirectory(
                    root: root, remembered: FolderLibraryState.remembered(state: state), hints: self.folderHints)
                guard try self.mapping("find the album", { try directory.album(id: albumID) }) != nil else {
                    throw AlbumError(
                        .albumNotFound, "There is no album with the identifier \(albumID) in \(self.root.path).")
                }
                if let other = ids.first(where: { !$0.hasPrefix(albumID + "/") }) {
                    throw AlbumError(.assetNotFound, "The asset \(other) is not in the album.")
                }
                let files = try self.resolveFiles(ids, directory, root: root)
                defer { for item in files { FileSystem.close(item.folder) } }
                let top = try self.mapping("open the library folder") { try FileSystem.reopen(root) }
                // Files with more than one name: their other names may be in another album, or
                // outside the library (the Trash, a `cp -al` backup), where they do not count.
                let identities = files.map { file in
                    FileSystem.fileStatus(of: file.name, in: file.folder).flatMap {
                        $0.linkCount > 1 ? LinkedFile($0) : nil
                    }
                }
                var linked: [LinkedFile: String] = [:]
                for (file, identity) in zip(files, identities) {
                    if let identity { linked[identity] = file.album?.name ?? "" }
                }
                let heldElsewhere =
                    linked.isEmpty
                    ? []
                    : try self.mapping("find the album folders") { try self.filesHeld(linked, directory, root: root) }
                for (file, identity) in zip(files, identities) {
                    if let identity, heldElsewhere.contains(identity) {
                        // Another album of this library holds the same file: this name alone goes.
                        try self.mapping("remove from the album") { try FileSystem.unlink(file.name, in: file.folder) }
                    } else {
                        let sidecars = FolderSidecars.names(
                            // Unlistable folder: no sidecars are found, the photo alone moves (nothing is lost).
                            for: file.name, among: (try? FileSystem.names(in: file.folder)) ?? [])
                        try self.moveToTop(file.name, from: file.folder, top: top)
                        for sidecar in sidecars {  // its .xmp sidecars go with it
                            // A sidecar that cannot move stays in the album folder, untouched.
                            try? self.moveToTop(sidecar, from: file.folder, top: top)
                        }
                    }
                    try self.mapping("remove from the album") { try FileSystem.fsync(file.folder) }
                }
                try self.mapping("remove from the album") { try FileSystem.fsync(top) }
            }
        }
    }

    /// A file by device and inode: the same file under every one of its names.
    struct LinkedFile: Hashable {
        let device: UInt64
        let inode: UInt64

        init(_ info: FileStatus) {
            device = info.device
            inode = info.inode
        }
    }

    /// Of the files `linked` (each with the folder, relative to the root, it is removed from), the
    /// ones that another folder of this library provably holds too: a photo or video name in the
    /// top folder or in a listed album folder (never a hidden or excluded folder, never through a
    /// symlink) other than the folder it is removed from. A name in the Trash or in a backup outside
    /// the library does not count. Listing stops once every file is found.
    private func filesHeld(
        _ linked: [LinkedFile: String], _ directory: FolderAlbumDirectory, root: FileSystem.Descriptor
    ) throws -> Set<LinkedFile> {
        var found = Set<LinkedFile>()
        let folders = [FolderAlbumPath(components: [])] + (try directory.albums()).map(\.path)
        for path in folders where found.count < linked.count {
            guard
                let folder = try FileSystem.unlessOutOfDescriptors({ () throws(SystemError) in
                    try FileSystem.openDirectory(path, in: root)
                })
            else { continue }
            let names =
                try FileSystem.unlessOutOfDescriptors { () throws(SystemError) in try FileSystem.names(in: folder) }
                ?? []
            for name in names where FolderNaming.isMediaFileName(name) {
                guard let info = FileSystem.fileStatus(of: name, in: folder), info.kind == .regular,
                    info.linkCount > 1, let removedFrom = linked[LinkedFile(info)], removedFrom != path.relative
                else { continue }
                found.insert(LinkedFile(info))
            }
        }
        return found
    }

    /// Moves `name` to the library's top folder under a free name (never replacing a file).
    private func moveToTop(_ name: String, from folder: FileSystem.Descriptor, top: FileSystem.Descriptor) throws {
        for attempt in 1...Self.maximumNameAttempts {
            let candidate = FolderNaming.fileName(name, attempt: attempt)
            guard let failure = FileSystem.tryRename(name, in: folder, to: candidate, in: top) else {
                return
            }
            if failure.errno == EEXIST { continue }
            if failure.errno == EXDEV {
                _ = try copy(name, from: folder, into: top, as: candidate)
                try mapping("remove from the album") { try FileSystem.unlink(name, in: folder) }
                return
            }
            throw failure.libraryError("remove from the album")
        }
        throw AlbumError(.ioFailure, "No free name for \(name) in \(top.path).")
    }

    package func deleteAssets(_ ids: [String]) async throws -> [AssetDeletion] {
        try await deleteAssets(ids, permanently: false)
    }

    /// Removes the files (and their `.xmp` sidecars) for good: `album delete-asset --permanently`.
    package func deleteAssetsPermanently(_ ids: [String]) async throws -> [AssetDeletion] {
        try await deleteAssets(ids, permanently: true)
    }

    /// Moves each asset's file and sidecars to the Trash, or removes them (`permanently`), all
    /// names checked first: nothing is deleted when one id is unknown.
    private func deleteAssets(_ ids: [String], permanently: Bool) async throws -> [AssetDeletion] {
        try await Blocking.run {
            try self.withLock("delete the assets") { root, state in
                let directory = FolderAlbumDirectory(
                    root: root, remembered: FolderLibraryState.remembered(state: state), hints: self.folderHints)
                let files = try self.resolveFiles(ids, directory, root: root)
                defer { for item in files { FileSystem.close(item.folder) } }
                var deleted: [AssetDeletion] = []
                for file in files {
                    let path = (file.album.map { self.url(of: $0.path) } ?? self.root).appendingPathComponent(file.name)
                    do {
                        let sidecars = FolderSidecars.names(
                            // Unlistable folder: no sidecars found, the photo alone goes to the Trash (nothing lost).
                            for: file.name, among: (try? FileSystem.names(in: file.folder)) ?? [])
                        if permanently {
                            try FileSystem.unlink(file.name, in: file.folder)
                            // Its sidecars describe only it: they go with it (one already gone is no failure).
                            for sidecar in sidecars { try? FileSystem.unlink(sidecar, in: file.folder) }
                            try FileSystem.fsync(file.folder)
                            deleted.append(AssetDeletion(id: file.id))
                            continue
                        }
                        let place = try self.trash.move(file.name, in: file.folder, from: path.path)
                        deleted.append(AssetDeletion(id: file.id, trashURL: URL(fileURLWithPath: place)))
                        // Its .xmp sidecars go to the Trash with it.
                        for sidecar in sidecars {
                            let sidecarPath = path.deletingLastPathComponent().appendingPathComponent(sidecar).path
                            // A sidecar that cannot go to the Trash stays where it was, untouched.
                            _ = try? self.trash.move(sidecar, in: file.folder, from: sidecarPath)
                        }
                    } catch {
                        throw AlbumError(
                            .ioFailure,
                            permanently
                                ? "Cannot delete \(path.path): \(error). \(deleted.count) of \(ids.count) were deleted before it; nothing else was deleted."
                                : "Cannot move \(path.path) to the Trash: \(error). \(deleted.count) of \(ids.count) were moved to the Trash before it; nothing else was deleted.",
                            file: path.path, underlying: error)
                    }
                }
                return deleted
            }
        }
    }
}
