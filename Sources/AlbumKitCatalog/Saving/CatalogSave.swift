import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A save into a catalog library, as the steps it takes, in the order they start. The journal is
/// the library: a photo is saved once the journal's line naming it is flushed, so everything that
/// line names is durable before it is written, and nothing is acknowledged before it is flushed.
///
/// 1. **Stage** (``stage(_:into:alone:in:)``): each photo (and its companions) is copied and
///    hashed into an invisible file in its shard folder (`originals/XX/`): an `O_TMPFILE` inode,
///    or a hidden `.OWNER.ID.partial` file where that is missing.
/// 2. **Publish** (``startPublishing()``, on other threads, while step 3 begins): the final names
///    are listed in `owners/TOKEN.publishing` and the list flushed *before* any of them exists (so
///    the next opening can prove an unrecorded name is this process's and remove it); each file
///    gets its name (`linkat`, never replacing anything). For a chunk on Linux, one `syncfs` after
///    the last name then makes the files' data and their names durable at once. Elsewhere the
///    shard folders are flushed (`originals/` too when a shard was made) and, beside it, the files'
///    data (the file's `fsync` for a lone save). A lone save (one photo
///    without companions) starts all of this while it is staged: its name is listed while it is
///    copied (or was listed after the process's previous lone save: ``NamesListedAhead``), and it
///    is named, its data flushed and then its folder, as soon as the copy ends.
/// 3. **Decide** (``decide(_:named:)``, under the journal's lock, the index caught up with the journal
///    inside one SQLite transaction): the album found or created; for each photo a new asset, or
///    the asset that already holds its bytes (this copy removed, or put in place of that asset's
///    missing file, only once step 2 has named it). Each record is applied to the index at once;
///    the records are encoded. Then the save **waits for step 2**: a failed flush fails the save
///    here, before anything is journaled.
/// 4. **Append and flush** (``CatalogTransaction/appendAndFlush()``): the records are appended to
///    the journal and `fdatasync`ed — **the commit point**. Should either fail, the journal is cut
///    back, the index rolls back, the published names are removed (``rollBack(_:after:)``) and
///    the save fails: nothing of it is anywhere.
/// 5. **Acknowledge** (``acknowledge(_:to:)``): moved source files are removed, and the caller is
///    resumed with the receipt while this thread goes on.
/// 6. **Commit the index** (``CatalogTransaction/commitIndex()``, no flush) and release the
///    journal's lock; then take the names off the publishing list, close the staged files, and
///    make the next lone save's staged file ahead of time (``finish()``). Killed before the
///    commit, the next reader applies the record from the journal.
///
/// ```swift
/// let staged = try CatalogSave.stage(media, into: ShardFolders(gate: backend.gate), alone: true, in: backend)
/// let receipt = try CatalogSave(backend, saving: [staged], to: album).commit(acknowledge: { _ in })
/// ```
///
/// Threads: the caller's, one that stages, and for a lone save two started while staging (the
/// listing; the naming and flushing); the commit's own, and beside it one that flushes the data of
/// a chunk and one that lists, names and flushes the names (for a lone save it only waits).
struct CatalogSave {
    typealias Staged = CatalogBackend.Staged

    let backend: CatalogBackend
    let staged: [Staged]
    let album: AlbumRequest?
    /// When the save happened, as its records say.
    let now: TimeInterval

    init(_ backend: CatalogBackend, saving staged: [Staged], to album: AlbumRequest?) {
        self.backend = backend
        self.staged = staged
        self.album = album
        self.now = LibraryClock.now().timeIntervalSince1970
    }

    // MARK: 1. Stage

    /// Stages `media` into `folders`; `alone` (a lone save) lists its name as being published while
    /// it is copied, and gives it its name and flushes it once it is (``Staged/publishing``).
    static func stage(
        _ media: Media, into folders: ShardFolders, alone: Bool, in backend: CatalogBackend
    ) throws -> Staged {
        var id = RandomID.make()
        let ownersPath = backend.ownersPath
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
                inspected: { metadata in
                    guard alone, media.companions.isEmpty else { return }
                    let fileExtension = metadata.format.fileExtension
                    if let listed = backend.namesListedAhead.take(shard: folders.name, fileExtension: fileExtension) {
                        // Listed and flushed after an earlier lone save: nothing to wait for.
                        id = listed.id
                        listing = (Blocking.Work.ended, listed.relativePath)
                        return
                    }
                    let path = "originals/\(folders.name)/\(id).\(fileExtension)"
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
        // (``CatalogBackend/recognise(_:in:)``).
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
            publishing: listing.map { listing in
                // On this thread once the caller has its staged photo: no other thread to wake.
                Blocking.startOnceResumed {
                    try listing.work.wait()
                    try FileSystem.publish(file, as: fileName)
                    try flushData(of: [file.descriptor], asChunk: false)
                    try flush(folders: [file.directory], madeShard: created, in: backend)
                }
            })
    }

    // MARK: The commit: steps 2 to 6

    /// Publishes, decides, appends and flushes the save, and calls `acknowledge` once it is
    /// durable; commits the index after.
    ///
    /// - Returns: the receipt `acknowledge` was given.
    func commit(acknowledge: @escaping @Sendable (CommitReceipt) -> Void) throws -> CommitReceipt {
        guard !backend.isReadOnly else {
            throw AlbumError(
                .libraryUnwritable,
                "The library \(backend.root.path) is on read-only media or not writable; nothing was saved.")
        }
        let publication = startPublishing()
        defer { ProcessOwner.clearPublishing(staged.flatMap(\.relativePaths), in: backend.ownersPath) }
        let receipt: CommitReceipt
        do {
            if let hook = backend.beforeRecording.withLock({ $0 }) {
                try publication.named.wait()
                hook()
            }
            receipt = try backend.withTransaction("save the photos") { transaction in
                let receipt = try decide(transaction.recorder, named: publication.named.wait)
                transaction.encodeRecords()
                try publication.waitUntilDurable()
                TestPause.at("before-record")
                try transaction.appendAndFlush()
                self.acknowledge(receipt, to: acknowledge)
                transaction.commitIndex()
                return receipt
            }
        } catch {
            // Nothing is undone while the files are still being flushed or published.
            publication.finish()
            try rollBack(publication.published.withLock { $0 }, after: error)
        }
        finish()
        return receipt
    }

    // MARK: 2. Publish

    /// Step 2 under way on other threads: what waits for it, and what it published so far.
    struct Publication {
        /// Flushes the data of the files not flushed while staged (`nil`: none).
        let dataFlush: Blocking.Work?
        /// Lists, names and flushes the names of the files not named while staged (for a lone
        /// save: waits until its naming and flushing started while staged ends).
        let naming: Blocking.Work
        /// Reached once every file has its name (before the names are flushed).
        let named: Milestone
        /// The items whose names may exist: what a failed save removes.
        let published: Locked<[Staged]>
        /// The lone items' naming and flushing, started while staged.
        let publishedWhileStaged: [Staged]

        /// Waits until every file's data and name is durable; rethrows the first failure.
        func waitUntilDurable() throws {
            for item in publishedWhileStaged { try item.publishing?.wait() }
            try dataFlush?.wait()
            try naming.wait()
        }

        /// Waits until all of it has ended, whatever it gave: before undoing what it works on.
        func finish() {
            for item in publishedWhileStaged { item.publishing?.finish() }
            dataFlush?.finish()
            naming.finish()
        }
    }

    /// Starts step 2 for the items whose staging did not. For a chunk on Linux, one thread lists
    /// their names (flushed), gives the names, then makes data and names durable in one `syncfs`;
    /// elsewhere, and for one item, the data's flush runs on a thread of its own while the other
    /// lists, names and flushes the folders.
    private func startPublishing() -> Publication {
        let unflushed = staged.filter { !$0.isPublishedWhileStaged }
        let publishedWhileStaged = staged.filter(\.isPublishedWhileStaged)
        let unlisted = staged.filter { $0.listing == nil }.flatMap(\.relativePaths)
        let published = Locked<[Staged]>(publishedWhileStaged)
        let named = Milestone()
        let oneBarrier = Self.flushesWholeFileSystem(chunkOf: unflushed.count)
        let dataFlush =
            unflushed.isEmpty || oneBarrier
            ? nil
            : Blocking.start {
                try Self.flushData(of: unflushed.flatMap { $0.files.map(\.descriptor) }, asChunk: unflushed.count > 1)
            }
        let naming = Blocking.start { [backend] in
            do {
                for item in publishedWhileStaged { try item.publishing?.wait() }
                if !unlisted.isEmpty { try ProcessOwner.notePublishing(unlisted, in: backend.ownersPath) }
                try Self.publish(unflushed, noting: published)
                named.reach()
            } catch {
                named.reach(.failure(error))
                throw error
            }
            if oneBarrier {
                // After the last name is given, so that the one `syncfs` makes durable the files'
                // data, their names in the shard folder, and a new shard's name in `originals/`:
                // the folders' own flushes would only repeat it.
                try Self.flushData(of: unflushed.flatMap { $0.files.map(\.descriptor) }, asChunk: true)
            } else {
                try Self.flushNames(of: unflushed, in: backend)
            }
        }
        return Publication(
            dataFlush: dataFlush, naming: naming, named: named, published: published,
            publishedWhileStaged: publishedWhileStaged)
    }

    /// Gives each staged file its name, noting each item in `published` before it is published
    /// (what a failed save undoes). Its companions before it: a name of the asset's own is
    /// published last, so an undo that stops half-way never leaves the photo without its companions.
    private static func publish(_ staged: [Staged], noting published: Locked<[Staged]>) throws {
        for item in staged {
            published.withLock { $0.append(item) }
            for (companion, name) in zip(item.media.companions, item.companionNames) {
                try FileSystem.publish(companion.file, as: name)
            }
            try FileSystem.publish(item.file, as: item.fileName)
        }
    }

    /// Whether a chunk of `count` items is made durable by one `syncfs` of the library's file
    /// system (data and names at once: on Linux, `syncfs` writes every file's data and every
    /// change of the file system's metadata, as `sync` does): on Linux, for more than one item.
    /// A lone item's `fsync` writes only its own pages, not every other writer's.
    private static func flushesWholeFileSystem(chunkOf count: Int) -> Bool {
        #if os(Linux) || os(Android)
            return count > 1
        #else
            return false
        #endif
    }

    /// Every staged file's data reaches the disk in one barrier: for a chunk on Linux one
    /// `syncfs`, elsewhere (and for a lone save, whose `fsync` writes only its own pages) the
    /// files' flushes, the last `F_FULLFSYNC` emptying the drive's cache of all of them.
    private static func flushData(of files: [FileSystem.Descriptor], asChunk: Bool) throws {
        #if os(Linux) || os(Android)
            if asChunk {
                try FileSystem.flush(files, wholeFileSystem: true)
                return
            }
        #endif
        try FileSystem.flush(files)
    }

    /// The new names are durable before the save is recorded: each shard folder is flushed, and
    /// `originals/` when a save created a shard in it.
    private static func flushNames(of staged: [Staged], in backend: CatalogBackend) throws {
        var seen = Set<String>()
        try flush(
            folders: staged.filter { seen.insert($0.shard).inserted }.map(\.file.directory),
            madeShard: staged.contains(where: \.createdShard), in: backend)
    }

    /// Flushes `folders`, and `originals/` too when a save made one of them.
    private static func flush(
        folders: [FileSystem.Descriptor], madeShard: Bool, in backend: CatalogBackend
    ) throws {
        for folder in folders { try FileSystem.fsync(folder) }
        if madeShard {
            let originals = try FileSystem.openDirectory(backend.originalsPath)
            defer { FileSystem.close(originals) }
            try FileSystem.fsync(originals)
        }
    }

    // MARK: 3. Decide

    /// Decides the save under the journal's lock, with the index up to date: the album (found,
    /// created or recreated), and for each item a new asset, or the asset that already holds its
    /// bytes (this copy removed; put in place of that asset's file when the file is missing or
    /// damaged; brought back when it was recently deleted).
    ///
    /// `named` waits until the staged files have their names (given on another thread meanwhile):
    /// called before any of them is removed or moved.
    private func decide(_ recorder: ChangeRecorder, named: () throws -> Void) throws -> CommitReceipt {
        let store = CatalogAlbumStore(recorder: recorder, now: now)
        let resolved = try album.map { try $0.findOrCreate(in: store) }
        var assets: [Result<CommittedAsset, AlbumError>] = []
        var members: [String] = []
        var inBatch: [String: String] = [:]  // sha256 + size → asset id
        let added = try addedTimes(in: recorder.db)
        for (offset, item) in staged.enumerated() {
            let content = "\(item.media.sha256)/\(item.media.byteSize)"
            var existing = inBatch[content]
            var restored = false
            if existing == nil, let found = try store.asset(withContent: item.media) {
                let intact = backend.hasIntactFile(found.path, size: item.media.byteSize, sha256: item.media.sha256)
                // An asset whose file lies through a link (a record someone else wrote) cannot be
                // restored there: this copy is saved as an asset of its own instead.
                if intact || backend.canRestoreFile(at: found.path) {
                    existing = found.id
                    if found.isDeleted { try recorder.record(.restoreAssets([found.id])) }
                    if !intact {
                        // The asset's file is gone or damaged: this copy becomes its file, so
                        // saving the photo again restores it.
                        try named()
                        try backend.restore(found.path, from: item.relativePath)
                        restored = true
                    }
                }
            }
            var updated: [String] = []
            if let existing {
                try named()
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
                            addedAt: added[offset], metadata: item.metadata.jsonText,
                            isFavorite: item.request.isFavorite, companions: item.companionRecords)))
                inBatch[content] = item.id
            }
            let assetID = existing ?? item.id
            if !members.contains(assetID) { members.append(assetID) }
            assets.append(
                .success(
                    CommittedAsset(
                        assetID: assetID, isExisting: existing != nil, isRestored: restored,
                        metadata: item.metadata, companionsUpdated: updated)))
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

    /// When each staged photo is added, by its place in `staged`: `now` to the microsecond, one
    /// microsecond more a photo in the order of their original names (then ids) — the order a
    /// listing shows photos of one time in. No two photos of a commit share a time, so a page of a
    /// listing by date added is never of one time, whatever the commit's size; and the times are
    /// in the photos' records, so an index rebuilt from the journal lists them alike.
    ///
    /// `now` is read before the journal's lock: another process may have committed in between
    /// with times at or a little past it. Then this commit starts just after the latest time
    /// added, so times rise with commits and two processes' photos never interleave. A latest
    /// time more than a second ahead (a clock once set wrong, a record from elsewhere) is not
    /// followed: photos are never dated by it.
    private func addedTimes(in db: Database) throws -> [Double] {
        let nowMicroseconds = (now * 1_000_000).rounded(.down)
        let latest =
            try db.row(
                """
                SELECT max(coalesce((SELECT max(added_key) FROM asset WHERE state = 'ready' AND kind = 'photo'), 0),
                           coalesce((SELECT max(added_key) FROM asset WHERE state = 'ready' AND kind = 'video'), 0))
                """)?
            .integer(0).map(Double.init) ?? 0
        let first = latest >= nowMicroseconds && latest < nowMicroseconds + 1_000_000 ? latest + 1 : nowMicroseconds
        func name(_ index: Int) -> (String, String) { (staged[index].media.originalFilename ?? "", staged[index].id) }
        let byName = staged.indices.sorted { name($0) < name($1) }
        var times = [Double](repeating: now, count: staged.count)
        for rank in byName.indices { times[byName[rank]] = (first + Double(rank)) / 1_000_000 }
        return times
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

    // MARK: 4. Append and flush: CatalogTransaction.appendAndFlush()

    // MARK: 5. Acknowledge

    /// The save is durable: the files the caller asked to move are removed (their companions were
    /// copied and recorded with them: they move too), and the caller is given `receipt`.
    private func acknowledge(_ receipt: CommitReceipt, to caller: @Sendable (CommitReceipt) -> Void) {
        for item in staged where item.request.movesFile {
            // The staged copies, named or (for bytes an asset already held, whose file the
            // decision found intact) about to go: never the caller's files.
            let sums = [item.media.sha256] + item.media.companions.map(\.sha256)
            let copies = zip(sums, item.files).compactMap { sum, file in
                // A copy that cannot be looked at matches no source: nothing is removed.
                (try? FileSystem.version(of: file.descriptor)).map { StoredCopy(sha256: sum, file: $0.id) }
            }
            item.request.removeMovedFiles(companionsKept: true, heldAs: copies, libraryRoot: backend.root.path)
        }
        caller(receipt)
        TestPause.at("after-acknowledge")
    }

    // MARK: 6. Commit the index: CatalogTransaction.commitIndex(); then finish

    /// After the index's commit: the staged files close (the shard folders with the last item
    /// that holds them), and a lone save makes the next one's staged file in its folder ahead of
    /// time. A failed save leaves them to ``CatalogBackend/discard(_:)``, which closes each once.
    private func finish() {
        for item in staged {
            for file in item.files { FileSystem.close(file.descriptor) }
        }
        if staged.count == 1, let item = staged.first { FileSystem.prepareStagedFileAhead(in: item.file.directory) }
    }

    /// Undoes a failed save: removes the files it published (its own, never recorded) and
    /// rethrows `error`. The staged descriptors stay open for ``CatalogBackend/discard(_:)``. A
    /// file that cannot be removed is removed by the next opening after this process has exited
    /// (the publishing list names it).
    private func rollBack(_ published: [Staged], after error: any Error) throws -> Never {
        let cause = AlbumError.library(error, "save the photos", path: backend.catalogPath)
        var kept = 0
        for item in published {
            do { try item.unpublish() } catch { kept += 1 }
        }
        guard kept == 0 else {
            throw cause.appending(
                "Undoing the save left \(kept) published file(s), removed when the library is opened after this process has exited."
            )
        }
        throw cause
    }
}
