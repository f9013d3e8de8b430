import AlbumKitCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Recognising files a folder album already holds before they are copied (``RecognitionCheck``):
/// the album's folder (the top folder without an album) is where a save would put them, under
/// their original name (`name 2.jpg`, … when it was taken), with the source's size and
/// modification time, which a save keeps. By content, as a save compares: a photo or video file
/// of the same size, head digest and SHA-256 (the folder's files of that size are read, once per
/// file version: a folder library records no hashes of its own).
extension FolderBackend: FileRecognition {
    package func recognise(_ probes: [FileProbe?], in album: AlbumRequest?) async throws -> [RecognisedFile?] {
        let none = [RecognisedFile?](repeating: nil, count: probes.count)
        guard probes.contains(where: { $0 != nil }) else { return none }
        return try await Blocking.run {
            // Reads only. A library or album folder that is not there (yet) holds nothing; a save
            // reports what is wrong with it.
            guard let root = try? FileSystem.openRoot(self.root.path) else { return none }
            // No readable state folder: no remembered titles (a hint); albums are found by their folders.
            let state = try? FolderLibraryState.open(root: root)
            defer { state.map(FileSystem.close) }
            let directory = FolderAlbumDirectory(
                root: root, remembered: FolderLibraryState.remembered(state: state), hints: self.folderHints)
            var albumID: String?
            let folder: FileSystem.Descriptor
            if let album {
                // Reads only (see above): an album that cannot be found or opened holds nothing to recognise.
                guard let id = try? album.find(in: directory), let found = try? directory.album(id: id),
                    let opened = try? FileSystem.openDirectory(found.path, in: root)
                else { return none }
                albumID = id
                folder = opened
            } else {
                // Reads only (see above): a root that cannot be reopened holds nothing to recognise.
                guard let opened = try? FileSystem.reopen(root) else { return none }
                folder = opened
            }
            var contents: FolderContents?
            var found = none
            for index in probes.indices {
                guard let probe = probes[index] else { continue }
                let name: String?
                if let sha256 = probe.sha256 {
                    // A folder that cannot be read recognises nothing: the file is saved, and the save reports why.
                    if contents == nil { contents = try? FolderContents(directory: folder, cache: self.hashCache) }
                    name = contents?.identical(size: probe.size, sha256: sha256, preferred: probe.name) { probe.head }
                } else {
                    name = Self.fileNamed(like: probe, in: folder)
                }
                guard let name else { continue }
                found[index] = RecognisedFile(
                    assetID: albumID.map { $0 + "/" + name } ?? name, albumID: albumID, isMember: true,
                    companionsToUpdate: self.companionsToUpdate(probe, photo: name, in: folder))
            }
            return found
        }
    }

    /// The names of `probe`'s companions that the photo `photo` in `folder` does not have beside it
    /// as they are (under the name a save gives them): by content when the probe was read, else by
    /// size and modification time, which a save keeps.
    private func companionsToUpdate(_ probe: FileProbe, photo: String, in folder: FileSystem.Descriptor) -> [String] {
        let names = AssetCompanion.names(of: probe.companions.map(\.name), photo: probe.name, as: photo)
        return zip(probe.companions, names).filter { companion, name in
            guard let status = FileSystem.fileStatus(of: name, in: folder), status.kind == .regular,
                status.size == companion.size
            else { return true }
            if let sha256 = companion.sha256 { return hashCache.sha256(of: name, in: folder) != sha256 }
            return status.modified != companion.modified
        }.map { companion, _ in companion.name }
    }

    /// The photo or video file in `folder` a save of `probe` made: its name, or that name numbered
    /// (`IMG_1 2.JPG`, while such names exist), with the probe's size and modification time.
    private static func fileNamed(like probe: FileProbe, in folder: FileSystem.Descriptor) -> String? {
        guard FolderNaming.isMediaFileName(probe.name) else { return nil }
        for attempt in 1...maximumNameAttempts {
            let name = FolderNaming.fileName(probe.name, attempt: attempt)
            guard let status = FileSystem.fileStatus(of: name, in: folder) else {
                if attempt == 1 { continue }  // the first may be gone while numbered ones stay
                return nil
            }
            if status.kind == .regular, status.size == probe.size, status.modified == probe.modified { return name }
        }
        return nil
    }
}

extension FolderBackend: OriginalReading {
    package func storedSHA256(ofAssetWithID id: String) async throws -> String? {
        try await Blocking.run { try self.withAssetFile(id) { file in try FileSystem.sha256(of: file) } }
    }

    /// Reads the asset's file in its album's folder (or the top folder).
    package func readOriginal<T: Sendable>(
        ofAssetWithID id: String, _ body: @escaping @Sendable (any ByteSource) throws -> T
    ) async throws -> T? {
        try await Blocking.run {
            try self.withAssetFile(id) { file in
                let size = try self.mapping("read the library's copy") { try FileSystem.size(of: file) }
                do { return try body(FileByteSource(file: file, size: UInt64(size))) } catch {
                    throw AlbumError.wrap(error, file: file.path)
                }
            }
        }
    }

    /// Runs `body` with asset `id`'s file open for reading.
    ///
    /// - Throws: `.assetNotFound` when the id names no album or no file.
    func withAssetFile<T>(_ id: String, _ body: (FileSystem.Descriptor) throws -> T) throws -> T {
        let root = try mapping("open the library folder") { try FileSystem.openRoot(self.root.path) }
        // Without AlbumKit's state folder the remembered albums are only hints gone: the
        // asset is still found by its folder.
        let state = try? FolderLibraryState.open(root: root)
        defer { state.map(FileSystem.close) }
        let directory = FolderAlbumDirectory(
            root: root, remembered: FolderLibraryState.remembered(state: state), hints: folderHints)
        let (album, name) = try mapping("find the asset") { try locate(id, directory) }
        let file: FileSystem.Descriptor
        do {
            let folder = try album.map { try FileSystem.openDirectory($0.path, in: root) } ?? FileSystem.reopen(root)
            file = try FileSystem.openFile(name, in: folder)
        } catch let error as SystemError where error.errno == ENOENT {
            throw AlbumError(.assetNotFound, "There is no asset with the identifier \(id) in \(self.root.path).")
        } catch let error as SystemError {
            throw error.libraryError("read the library's copy back")
        }
        return try mapping("read the library's copy back") { try body(file) }
    }

    package func storedCompanionSHA256s(ofAssetWithID id: String) async throws -> Set<String> {
        try await Blocking.run {
            let root = try self.mapping("open the library folder") { try FileSystem.openRoot(self.root.path) }
            // (as in ``storedSHA256(ofAssetWithID:)``)
            let state = try? FolderLibraryState.open(root: root)
            defer { state.map(FileSystem.close) }
            let directory = FolderAlbumDirectory(
                root: root, remembered: FolderLibraryState.remembered(state: state), hints: self.folderHints)
            let (album, name) = try self.mapping("find the asset") { try self.locate(id, directory) }
            return try self.mapping("read the library's copy back") {
                let folder =
                    try album.map { try FileSystem.openDirectory($0.path, in: root) } ?? FileSystem.reopen(root)
                var found = Set<String>()
                for companion in FolderSidecars.names(for: name, among: try FileSystem.names(in: folder)) {
                    let file = try FileSystem.openFile(companion, in: folder)
                    found.insert(try FileSystem.sha256(of: file))
                }
                return found
            }
        }
    }
}

extension FolderBackend: StoredCopyReading {
    /// The asset's file in its album's folder and the sidecars beside it, read back now.
    package func storedCopies(ofAssetWithID id: String) async throws -> StoredCopies? {
        try await Blocking.run {
            let root = try self.mapping("open the library folder") { try FileSystem.openRoot(self.root.path) }
            // (as in ``storedSHA256(ofAssetWithID:)``)
            let state = try? FolderLibraryState.open(root: root)
            defer { state.map(FileSystem.close) }
            let directory = FolderAlbumDirectory(
                root: root, remembered: FolderLibraryState.remembered(state: state), hints: self.folderHints)
            let (album, name) = try self.mapping("find the asset") { try self.locate(id, directory) }
            return try self.mapping("read the library's copy back") {
                let folder =
                    try album.map { try FileSystem.openDirectory($0.path, in: root) } ?? FileSystem.reopen(root)
                func copy(_ name: String) throws -> StoredCopy {
                    let file = try FileSystem.openFile(name, in: folder)
                    return StoredCopy(
                        sha256: try FileSystem.sha256(of: file), file: try FileSystem.version(of: file).id)
                }
                let original = try copy(name)
                let companions = try FolderSidecars.names(for: name, among: try FileSystem.names(in: folder)).map(copy)
                return StoredCopies(original: original, companions: companions, libraryRoot: self.root.path)
            }
        }
    }
}
