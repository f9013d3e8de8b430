import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The saving contract of a folder library (``FolderBackend`` describes the protocol): staging
/// into `.albumkit/staging/`, discarding, and the commit that finds or creates the album folder,
/// flushes the batch, publishes each file under its own name and places its companions beside it.
extension FolderBackend {
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
                if contents.isTaken(name) || companionNames.contains(where: contents.isTaken)
                    || contents.leavesGoProCopyUnclaimed(name, companions: companionNames)
                {
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
}
