import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The save: stage (copy and hash into an invisible file), flush the data, publish and flush the
/// names, record (``CatalogBackend/record(_:whenDecided:whenDurable:_:)``).
extension CatalogBackend {
    package struct Staged: Sendable {
        let id: String
        let media: StagedMedia
        /// Keeps the shard folder's descriptor (``FileSystem/StagedFile/directory``) open.
        let folders: ShardFolders
        let relativePath: String
        let fileName: String
        let shard: String
        /// This save created the shard directory: `originals/` must be flushed for a lone save.
        let createdShard: Bool
        /// What the caller asked for (creation date, location, favourite, moving its file).
        let request: Media
        /// For a lone save, work started while it was staged so that its commit need not wait for
        /// it: its name listed as being published (``ProcessOwner/notePublishing(_:in:)``), and
        /// then (`flushing`) the file named, its data flushed, and its folder flushed. `nil` for an
        /// item of a chunk, whose commit does all of that for all at once.
        ///
        /// Named before its data is flushed, the file's name and its data reach the disk in one
        /// commit of a file system that journals metadata (ext4: one journal commit, not two), and
        /// the folder's flush finds nothing left to commit.
        let listing: Blocking.Work?
        let flushing: Blocking.Work?
        /// Its name is given while it is staged (``flushing``), not by its commit.
        var isNamedWhenStaged: Bool { flushing != nil }
        var file: FileSystem.StagedFile { media.file }

        /// The library file names of its companions, beside its own: `ID-1.xmp`, `ID-2.cr2`, ….
        var companionNames: [String] {
            media.companions.indices.map { "\(id)-\($0 + 1).\(media.companions[$0].fileExtension)" }
        }

        /// Its own path and its companions', below the library's folder.
        var relativePaths: [String] {
            [relativePath] + companionNames.map { "originals/\(shard)/\($0)" }
        }

        /// Its file and its companions'.
        var files: [FileSystem.StagedFile] { [media.file] + media.companions.map(\.file) }

        /// The companions as the save records them.
        var companionRecords: [CatalogCompanion] {
            let names = companionNames
            return media.companions.indices.map { index in
                let companion = media.companions[index]
                return CatalogCompanion(
                    role: companion.role.rawValue, name: companion.originalName,
                    path: "originals/\(shard)/\(names[index])", size: companion.byteSize, sha256: companion.sha256)
            }
        }

        /// Removes its published names (this save's own, never recorded), companions first; a name
        /// not published yet is no failure. Throws the first other failure, after trying every name.
        func unpublish() throws(SystemError) {
            var failure: SystemError?
            for name in companionNames + [fileName] {
                do throws(SystemError) { try RemovalGate.removeFile(named: name, in: file.directory) } catch {
                    if error.errno != ENOENT, failure == nil { failure = error }
                }
            }
            if let failure { throw failure }
        }
    }

    package func albumUnavailableReason(needsAlbum: Bool) async throws -> String? {
        guard !isReadOnly else {
            throw AlbumError(
                .libraryUnwritable, "The library \(root.path) is on read-only media or not writable; nothing was saved."
            )
        }
        return nil
    }

    package func stage(_ media: Media) async throws -> Staged {
        let folders = ShardFolders(gate: gate)
        return try await Blocking.run { try self.stageNow(media, into: folders, alone: true) }
    }

    /// Stages a chunk on one thread per core, every item into the same shard folder, opened once.
    package func stage(
        _ media: [Media], prepared: @escaping @Sendable () -> Void
    ) async -> [Result<Staged, AlbumError>] {
        let folders = ShardFolders(gate: gate)
        let alone = media.count == 1
        return await stageOnEveryCore(media, prepared: prepared) {
            try self.stageNow($0, into: folders, alone: alone)
        }
    }

    /// Stages `media` into `folders`; `alone` (a lone save) lists its name as being published
    /// while it is copied, and starts flushing its data once it is (``Staged/listing``).
    private func stageNow(_ media: Media, into folders: ShardFolders, alone: Bool) throws -> Staged {
        let id = RandomID.make()
        var createdShard = false
        var listing: (work: Blocking.Work, path: String)?
        // A failed staging leaves its name listed by mistake for no longer than the listing takes.
        func unlist() {
            guard let listing else { return }
            listing.work.finish()
            ProcessOwner.clearPublishing([listing.path], in: ownersPath)
        }
        let staged: StagedMedia
        do {
            staged = try StagedMedia(
                media, owners: ownersPath, flush: false, ownsDirectory: false,
                inspected: { [ownersPath] metadata in
                    guard alone, media.companions.isEmpty else { return }
                    let path = "originals/\(folders.name)/\(id).\(metadata.format.fileExtension)"
                    listing = (Blocking.start { try ProcessOwner.notePublishing([path], in: ownersPath) }, path)
                },
                in: {
                    do throws(SystemError) {
                        let (directory, created) = try folders.open()
                        createdShard = created
                        return directory
                    } catch {
                        throw error.libraryError("create the folder for the photo")
                    }
                })
        } catch {
            unlist()
            throw error
        }
        // The copy keeps the file's modification time (as `cp -p` does): with the original name and
        // size the index records, it is what a save recognises a file already saved by
        // (``recognise(_:in:)``).
        if let modified = staged.modified {
            do { try FileSystem.setModificationTime(staged.file.descriptor, to: modified) } catch {
                FileSystem.abandon(staged.file)
                unlist()
                throw error.libraryError("write the photo")
            }
        }
        let fileName = "\(id).\(staged.metadata.format.fileExtension)"
        let file = staged.file
        let created = createdShard
        return Staged(
            id: id, media: staged, folders: folders, relativePath: "originals/\(folders.name)/\(fileName)",
            fileName: fileName, shard: folders.name, createdShard: createdShard, request: media,
            listing: listing?.work,
            flushing: listing.map { listing in
                Blocking.start { [self] in
                    try listing.work.wait()
                    try FileSystem.publish(file, as: fileName)
                    try Self.flush([file.descriptor], ofChunk: false)
                    try flushFolders([file.directory], createdShard: created)
                }
            })
    }

    package func discard(_ staged: Staged) async {
        // Nothing is closed while a flush still uses it.
        staged.flushing?.finish()
        if let listing = staged.listing {
            listing.finish()
            // Named while staged, never recorded: ours to remove. A name that cannot be removed
            // stays listed, so the next opening after this process removes it.
            let removed = !staged.isNamedWhenStaged || (try? staged.unpublish()) != nil
            if removed { ProcessOwner.clearPublishing(staged.relativePaths, in: ownersPath) }
        }
        for file in staged.files { FileSystem.abandon(file) }
    }

    package func commit(_ staged: [Staged], to album: AlbumRequest?) async throws -> CommitReceipt {
        try await Blocking.run { acknowledge in try self.commitNow(staged, to: album, acknowledge: acknowledge) }
    }

    /// A save's one write order: the files' data and names durable, then the save recorded
    /// (``record(_:whenDecided:whenDurable:_:)``: the journal's flush is the commit point, where
    /// the save is acknowledged; the index's commit and the tidying up follow).
    ///
    /// Three threads at once: one flushes the files' data (it needs no name); one lists the names
    /// about to be published (flushed before any of them exists: should this process die or the
    /// power fail before the record, the next opening proves these files are its own and never
    /// recorded, ``recover()``), publishes them and flushes them; this one decides the save under
    /// the journal's lock meanwhile, and appends the record once the other two are done.
    private func commitNow(
        _ staged: [Staged], to album: AlbumRequest?, acknowledge: @escaping @Sendable (CommitReceipt) -> Void
    ) throws -> CommitReceipt {
        guard !isReadOnly else {
            throw AlbumError(
                .libraryUnwritable, "The library \(root.path) is on read-only media or not writable; nothing was saved."
            )
        }
        let now = LibraryClock.now().timeIntervalSince1970
        let paths = staged.flatMap(\.relativePaths)
        // A lone save's data flush and listing started while it was staged (``Staged/listing``).
        let unflushed = staged.filter { $0.flushing == nil }
        let flushingRest = unflushed.isEmpty ? nil : Blocking.start { [self] in try flushData(unflushed) }
        let flushingData = {
            for item in staged { try item.flushing?.wait() }
            try flushingRest?.wait()
        }
        let unlisted = staged.filter { $0.listing == nil }.flatMap(\.relativePaths)
        // A lone save's file is named while it is staged (``Staged/flushing``); a failed save
        // removes that name too.
        let namedWhenStaged = staged.filter(\.isNamedWhenStaged)
        let toName = staged.filter { !$0.isNamedWhenStaged }
        let published = Locked<[Staged]>(namedWhenStaged)
        let publication = Milestone()
        let publishing = Blocking.start { [self] in
            do {
                for item in namedWhenStaged { try item.flushing?.wait() }
                for item in toName { try item.listing?.wait() }
                if !unlisted.isEmpty { try ProcessOwner.notePublishing(unlisted, in: ownersPath) }
                try publish(toName, noting: published)
                publication.reach()
            } catch {
                publication.reach(.failure(error))
                throw error
            }
            try flushNames(toName)
        }
        defer { ProcessOwner.clearPublishing(paths, in: ownersPath) }
        let receipt: CommitReceipt
        do {
            if let hook = beforeRecording.withLock({ $0 }) {
                try publication.wait()
                hook()
            }
            receipt = try record(
                "save the photos",
                whenDecided: {
                    try flushingData()
                    try publishing.wait()
                    TestPause.at("before-record")
                },
                whenDurable: { receipt in
                    // Its companions were copied and recorded with it: they move with it.
                    for item in staged where item.request.movesFile {
                        // The staged copies, named or (for bytes an asset already held, whose
                        // file the decision found intact) about to go: never the caller's files.
                        let sums = [item.media.sha256] + item.media.companions.map(\.sha256)
                        let copies = zip(sums, item.files).compactMap { sum, file in
                            // A copy that cannot be looked at matches no source: nothing is removed.
                            (try? FileSystem.version(of: file.descriptor)).map { StoredCopy(sha256: sum, file: $0.id) }
                        }
                        item.request.removeMovedFiles(companionsKept: true, heldAs: copies, libraryRoot: self.root.path)
                    }
                    acknowledge(receipt)
                    TestPause.at("after-acknowledge")
                },
                { recorder in
                    try self.decide(staged, album: album, at: now, recorder: recorder, published: publication.wait)
                })
        } catch {
            // Nothing is undone while the files are still being flushed or published.
            try? flushingData()
            publishing.finish()
            try rollBack(published.withLock { $0 }, after: error)
        }
        // Saved: the staged files close here (the shard folders with the last item that holds
        // them). A failure above leaves them to the saver's ``discard(_:)``, which closes each once.
        for item in staged {
            for file in item.files { FileSystem.close(file.descriptor) }
        }
        // After the acknowledgement: the next lone save finds its staged file made.
        if staged.count == 1, let item = staged.first { FileSystem.prepareSpareStagedFile(in: item.file.directory) }
        return receipt
    }

    /// Gives each staged file its name, noting each item in `published` before it is published
    /// (what a failed save undoes). Its companions before it: a name of the asset's own is
    /// published last, so an undo that stops half-way never leaves the photo without its companions.
    private func publish(_ staged: [Staged], noting published: Locked<[Staged]>) throws {
        for item in staged {
            published.withLock { $0.append(item) }
            for (companion, name) in zip(item.media.companions, item.companionNames) {
                try FileSystem.publish(companion.file, as: name)
            }
            try FileSystem.publish(item.file, as: item.fileName)
        }
    }

    /// Every staged file's data reaches the disk in one barrier: for a chunk on Linux one
    /// `syncfs`, elsewhere (and for a lone save, whose `fsync` writes only its own pages) the
    /// files' flushes, the last `F_FULLFSYNC` emptying the drive's cache of all of them.
    private func flushData(_ staged: [Staged]) throws {
        try Self.flush(staged.flatMap { $0.files.map(\.descriptor) }, ofChunk: staged.count > 1)
    }

    /// (As ``flushData(_:)``.)
    private static func flush(_ files: [FileSystem.Descriptor], ofChunk: Bool) throws {
        #if os(Linux) || os(Android)
            if ofChunk {
                try FileSystem.flush(files, wholeFileSystem: true)
                return
            }
        #endif
        try FileSystem.flush(files)
    }

    /// The new names are durable before the save is recorded: each shard folder is flushed, and
    /// `originals/` when a save created a shard in it.
    private func flushNames(_ staged: [Staged]) throws {
        var seen = Set<String>()
        try flushFolders(
            staged.filter { seen.insert($0.shard).inserted }.map(\.file.directory),
            createdShard: staged.contains(where: \.createdShard))
    }

    /// Flushes `folders`, and `originals/` too when a save created one of them.
    private func flushFolders(_ folders: [FileSystem.Descriptor], createdShard: Bool) throws {
        for folder in folders { try FileSystem.fsync(folder) }
        if createdShard {
            let originals = try FileSystem.openDirectory(originalsPath)
            defer { FileSystem.close(originals) }
            try FileSystem.fsync(originals)
        }
    }

    /// Decides the save under the journal's lock, with the index up to date: the album (found,
    /// created or recreated), and for each item a new asset, or the asset that already holds its
    /// bytes (this copy removed; put in place of that asset's file when the file is missing or
    /// damaged; brought back when it was recently deleted).
    ///
    /// `published` waits until the staged files have their names (published on another thread
    /// meanwhile): called before any of them is removed or moved.
    private func decide(
        _ staged: [Staged], album: AlbumRequest?, at now: TimeInterval, recorder: ChangeRecorder,
        published: () throws -> Void
    ) throws -> CommitReceipt {
        let store = CatalogAlbumStore(recorder: recorder, now: now)
        let resolved = try album.map { try $0.findOrCreate(in: store) }
        var assets: [Result<CommittedAsset, AlbumError>] = []
        var members: [String] = []
        var inBatch: [String: String] = [:]  // sha256 + size → asset id
        for item in staged {
            let content = "\(item.media.sha256)/\(item.media.byteSize)"
            var existing = inBatch[content]
            var restored = false
            if existing == nil, let found = try store.asset(withContent: item.media) {
                let intact = hasIntactFile(found.path, size: item.media.byteSize, sha256: item.media.sha256)
                // An asset whose file lies through a link (a record someone else wrote) cannot be
                // restored there: this copy is saved as an asset of its own instead.
                if intact || canRestoreFile(at: found.path) {
                    existing = found.id
                    if found.isDeleted { try recorder.record(.restoreAssets([found.id])) }
                    if !intact {
                        // The asset's file is gone or damaged: this copy becomes its file, so
                        // saving the photo again restores it.
                        try published()
                        try restore(found.path, from: item.relativePath)
                        restored = true
                    }
                }
            }
            var updated: [String] = []
            if let existing {
                try published()
                if !restored {
                    // Same bytes, same asset: this copy goes (never recorded; ours).
                    try RemovalGate.removeFile(named: item.fileName, in: item.file.directory)
                }
                updated = try updateCompanions(of: existing, with: item, recorder: recorder)
                inBatch[content] = existing
            } else {
                try recorder.record(
                    .save(
                        .init(
                            id: item.id, path: item.relativePath, originalName: item.media.originalFilename,
                            byteSize: item.media.byteSize, sha256: item.media.sha256,
                            kind: item.media.metadata.kind.rawValue, format: item.media.metadata.format.rawValue,
                            addedAt: now, metadata: Self.metadata(of: item).jsonText,
                            isFavorite: item.request.isFavorite, companions: item.companionRecords)))
                inBatch[content] = item.id
            }
            let assetID = existing ?? item.id
            if !members.contains(assetID) { members.append(assetID) }
            assets.append(
                .success(
                    CommittedAsset(
                        assetID: assetID, isExisting: existing != nil, isRestored: restored,
                        metadata: Self.metadata(of: item), companionsUpdated: updated)))
        }
        if let resolved {
            let missing = try members.filter { id in
                try recorder.db.row(
                    "SELECT 1 FROM album_asset WHERE album_id = ? AND asset_id = ?", [.text(resolved.id), .text(id)])
                    == nil
            }
            if !missing.isEmpty { try recorder.record(.addToAlbum(album: resolved.id, assets: missing, at: now)) }
        }
        return CommitReceipt(albumID: resolved?.id, albumOutcome: resolved?.outcome, assets: assets)
    }

    /// Brings the companions of the asset `id` (which already holds `item`'s bytes) up to date with
    /// `item`'s: a staged companion whose bytes the asset holds already goes (this copy is ours,
    /// never recorded); any other is added, or takes the place of the asset's companion of that
    /// name, in one `setCompanions` record. The earlier file it replaces is removed once that record
    /// is durable (as a purge's files are), so a crash leaves the old companions or the new ones.
    ///
    /// - Returns: the names of the companions added or replaced.
    private func updateCompanions(of id: String, with item: Staged, recorder: ChangeRecorder) throws -> [String] {
        guard !item.media.companions.isEmpty else { return [] }
        let recorded =
            try recorder.db.row("SELECT companions FROM asset WHERE id = ?", [.text(id)])?.text(0)
            .flatMap(CatalogCompanion.list(fromJSON:)) ?? []
        var companions = recorded
        var updated: [String] = []
        let names = item.companionNames
        for (offset, companion) in item.companionRecords.enumerated() {
            if recorded.contains(where: { $0.sha256 == companion.sha256 && $0.size == companion.size }) {
                try RemovalGate.removeFile(named: names[offset], in: item.file.directory)
                continue
            }
            if let at = companions.firstIndex(where: { $0.name == companion.name }) {
                companions[at] = companion
            } else {
                companions.append(companion)
            }
            updated.append(companion.name)
        }
        if !updated.isEmpty { try recorder.record(.setCompanions(asset: id, companions: companions)) }
        return updated
    }

    /// The file's metadata, with the creation date and location the caller gave in place of the
    /// file's own.
    static func metadata(of item: Staged) -> MediaMetadata { item.request.described(item.media.metadata) }

    /// Whether the library's file `relative` (an asset's path) is there: a regular file of `size`
    /// bytes with the SHA-256 `sha256`. Hashed only when the size matches, and only for bytes the
    /// library already holds (a re-save): "already there" must mean an intact copy is.
    func hasIntactFile(_ relative: String, size: Int64, sha256: String) -> Bool {
        // Reached beneath the library's folder only: a file a link leads to is not the library's.
        guard let status = gate.status(of: relative), status.kind == .regular,
            // A probe: a file that cannot be read is not intact (`false`), and an intact copy is written.
            status.size == size, let (file, _) = try? gate.openFileForReading(relative)
        else { return false }
        defer { FileSystem.close(file) }
        // Unreadable (as above): not intact.
        return (try? FileSystem.sha256(of: file)) == sha256
    }

    /// Whether a copy can be put at the library's file `relative` through the gate: its folder opens
    /// beneath the library's folder without a link, or is missing (and is made).
    func canRestoreFile(at relative: String) -> Bool {
        do {
            let folder = try gate.openFolder((relative as NSString).deletingLastPathComponent)
            FileSystem.close(folder)
            return true
        } catch {
            return error.errno == ENOENT
        }
    }

    /// Replaces the library's file `damagedFile` (missing or damaged) by the library's file `copy`
    /// (the same bytes, intact): the damaged one is shelved, the copy renamed into its place, both
    /// folders flushed — durable before the commit that acknowledges it. Both go through the
    /// library's gate (``RemovalGate``): neither path leads out of the library or through a link.
    func restore(_ damagedFile: String, from copy: String) throws {
        shelve(damagedFile: damagedFile)
        let into = (damagedFile as NSString).deletingLastPathComponent
        let from = (copy as NSString).deletingLastPathComponent
        do throws(SystemError) {
            try gate.moveFile(copy, to: damagedFile)
            for folder in Set([into, from]) {
                let opened = try gate.openFolder(folder)
                defer { FileSystem.close(opened) }
                try FileSystem.fsync(opened)
            }
        } catch {
            throw error.libraryError("restore the damaged file \(damagedFile)")
        }
    }

    /// Moves the library's file `relative`, when it is there, to `damaged/originals/` (kept, and no
    /// longer where the asset's file goes). When it cannot be moved (`damaged` is not a folder, say)
    /// it is removed: its bytes are known to be wrong, and an intact copy replaces it. Only a
    /// regular file beneath the library's folder is moved or removed (``RemovalGate``).
    func shelve(damagedFile relative: String) {
        guard gate.status(of: relative) != nil else { return }
        let name = (relative as NSString).lastPathComponent
        do throws(SystemError) {
            // A link or FIFO in its place is moved aside too (the entry, not what it leads to).
            try gate.moveFile(relative, to: "damaged/originals/\(RandomID.make())-\(name)", settingAside: true)
        } catch {
            // Neither shelved nor removed (a folder in its place stays): the rename in
            // ``restore(_:from:)`` fails on it and reports why.
            _ = try? gate.removeFile(relative)
        }
    }

    /// Undoes a failed save: removes the files it published (its own, never recorded) and
    /// rethrows `error`. The staged descriptors stay open for ``discard(_:)``. A file that cannot be
    /// removed is removed by the next opening after this process has exited (its owner file
    /// names it).
    private func rollBack(_ published: [Staged], after error: any Error) throws -> Never {
        let cause = AlbumError.library(error, "save the photos", path: catalogPath)
        var kept = 0
        for item in published {
            do { try item.unpublish() } catch { kept += 1 }
        }
        guard kept == 0 else {
            throw AlbumError(
                cause.code,
                cause.message
                    + " Undoing the save left \(kept) published file(s), removed when the library is opened after this process has exited.",
                file: cause.file, albumTitle: cause.albumTitle, underlying: cause.underlying)
        }
        throw cause
    }
}
