import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Album folders: opening one level by level without following symlinks, creating one (and its
/// missing parents) in hiding before renaming it into place, and keeping its marker.
extension FolderBackend {
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
