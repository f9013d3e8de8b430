import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The save protocol (see ``CatalogBackend``): stage, pending rows and data flushed, publish
/// and flush the names, commit, journal.
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
        var file: FileSystem.StagedFile { media.file }
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
        let folders = ShardFolders(originals: originalsPath)
        return try await Blocking.run { try self.stageNow(media, into: folders) }
    }

    /// Stages a chunk on one thread per core, every item into the same shard folder, opened once.
    package func stage(
        _ media: [Media], prepared: @escaping @Sendable () -> Void
    ) async -> [Result<Staged, AlbumError>] {
        let folders = ShardFolders(originals: originalsPath)
        return await stageOnEveryCore(media, prepared: prepared) { try self.stageNow($0, into: folders) }
    }

    private func stageNow(_ media: Media, into folders: ShardFolders) throws -> Staged {
        let id = RandomID.make()
        var createdShard = false
        let staged = try StagedMedia(media, owners: ownersPath, flush: false, ownsDirectory: false) {
            do throws(SystemError) {
                let (directory, created) = try folders.open()
                createdShard = created
                return directory
            } catch {
                throw error.libraryError("create the folder for the photo")
            }
        }
        let fileName = "\(id).\(staged.metadata.format.fileExtension)"
        return Staged(
            id: id, media: staged, folders: folders, relativePath: "originals/\(folders.name)/\(fileName)",
            fileName: fileName, shard: folders.name, createdShard: createdShard)
    }

    package func discard(_ staged: Staged) async {
        FileSystem.abandon(staged.file)
    }

    package func commit(_ staged: [Staged], to album: AlbumRequest?) async throws -> CommitReceipt {
        try await Blocking.run { try self.commitNow(staged, to: album) }
    }

    private func commitNow(_ staged: [Staged], to album: AlbumRequest?) throws -> CommitReceipt {
        // Checked before and after the catalog commits: a chunk stages into folders it opened once,
        // so without it a batch could go on saving into a library that was deleted (or a catalog
        // replaced) under it, and acknowledge saves into a catalog no one can open any more.
        try checkCatalogIsStillTheLibrarys()
        let now = Date().timeIntervalSince1970
        try ProcessOwner.register(in: ownersPath)
        try insertPendingRows(staged, at: now)
        var published: [Staged] = []
        do {
            // One barrier for the pending rows and the data, before any file has a name.
            try flushPendingRowsAndData(staged)
            for item in staged {
                try FileSystem.publish(item.file, as: item.fileName)
                published.append(item)
            }
            try flushNames(staged)
        } catch {
            try rollBack(staged, published: published, after: error)
        }

        beforeMarkingReady.withLock { $0 }?()
        TestPause.at("before-ready")
        let outcome: ReadyOutcome
        do {
            try journal.reserveSpace(
                bytes: SaveJournal.bytesNeeded(
                    forSavesNamed: staged.map(\.media.originalFilename), title: album?.title.text))
            outcome = try markReady(staged, album: album, at: now)
        } catch {
            try rollBack(staged, published: published, after: error)
        }
        try checkCatalogIsStillTheLibrarys()
        // The commit point: transaction B was not flushed; its journal records are, before anyone
        // is told the save succeeded. Should B be lost with the power, opening the library rolls it
        // forward from them (``rollForward()``).
        do { try journal.append(outcome.records) } catch let failure {
            // Transaction B committed (its disk space was reserved, so this is not a full disk): the
            // save stands, so it must not be reported failed. Its commit is flushed instead, which
            // makes it as durable as the journal's flush would have; only the journal, which
            // rebuilds a lost catalog, lacks it.
            do { try withDatabase("save the photos") { db in try db.syncWAL() } } catch {
                throw failure.libraryError("record the save in the library's journal")
            }
        }
        takeSnapshot(whenDue: outcome.snapshotState)
        // Saved: the staged files close here (the shard folders with the last item that holds
        // them). A failure anywhere above leaves them to the saver's ``discard(_:)``, which closes
        // each once; closing them before the last check that can fail closed them twice.
        for item in staged { FileSystem.close(item.file.descriptor) }
        return outcome.receipt
    }

    /// Throws `libraryNotFound` when the library's catalog is no longer the file this backend
    /// opened (the library was removed, or its catalog replaced, while saving).
    private func checkCatalogIsStillTheLibrarys() throws {
        guard let opened = catalogFile, FileSystem.fileID(atPath: catalogPath) == opened else {
            throw AlbumError(
                .libraryNotFound,
                "The library \(root.path) was removed or its catalog replaced while saving; nothing more was saved.")
        }
    }

    /// Transaction A: the assets as `pending`, owned by this process, so no published file is ever
    /// without a row. Committed without a flush: ``flushPendingRowsAndData(_:)`` makes it durable
    /// with the staged files' data, before any of them is named.
    private func insertPendingRows(_ staged: [Staged], at now: TimeInterval) throws {
        try withUnflushedCommits("save the photos") { db in
            try db.immediateTransaction {
                for item in staged {
                    let metadata = item.media.metadata.jsonText
                    try db.run(
                        """
                        INSERT INTO asset (id, state, kind, format, path, original_name, byte_size, sha256, added_at, owner, metadata)
                        VALUES (?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                        [
                            .text(item.id), .text(item.media.metadata.kind.rawValue),
                            .text(item.media.metadata.format.rawValue), .text(item.relativePath),
                            SQLValue(item.media.originalFilename), .integer(item.media.byteSize),
                            .text(item.media.sha256), .real(now), .text(ProcessOwner.token), .text(metadata),
                        ])
                }
            }
        }
    }

    /// Runs `body` with the connection's commits written but not flushed (`synchronous = NORMAL`:
    /// the WAL is flushed later, by the caller's own barrier), then restores full durability. A
    /// connection that cannot be switched back runs nothing else until it can: what `body` did
    /// stands (a committed transaction B must never be undone as if it had failed).
    func withUnflushedCommits<T>(_ what: String, _ body: (Database) throws -> T) throws -> T {
        try withDatabase(what) { db in
            try db.execute("PRAGMA synchronous = NORMAL")
            defer {
                if (try? db.execute("PRAGMA synchronous = FULL")) == nil { mustRestoreFlushing.withLock { $0 = true } }
            }
            return try body(db)
        }
    }

    /// Transaction A's rows and every staged file's data reach the disk in one barrier: for a chunk
    /// on Linux one `syncfs` (the catalog and `originals/` share a file system), elsewhere, and for
    /// a lone save, the WAL's flush and then the files' (the last `F_FULLFSYNC` empties the drive's
    /// cache of all of them). A lone save's two flushes write only its own pages, where `syncfs`
    /// also writes the catalog's shared-memory index and anything else dirty on the disk: 6 % less
    /// latency measured (Docs/performance.md).
    private func flushPendingRowsAndData(_ staged: [Staged]) throws {
        let files = staged.map(\.file.descriptor)
        #if os(Linux) || os(Android)
            if staged.count > 1, sharesDiskWithOriginals(staged[0].file.directory) {
                try FileSystem.flush(files, wholeFileSystem: true)
                return
            }
        #endif
        try withDatabase("save the photos") { db in try db.syncWAL() }
        try FileSystem.flush(files)
    }

    /// Whether the catalog is on the file system of `directory` (a shard folder), so one `syncfs`
    /// flushes both.
    private func sharesDiskWithOriginals(_ directory: FileSystem.Descriptor) -> Bool {
        guard let catalog = catalogFile, let shard = try? FileSystem.fileStatus(of: directory) else { return false }
        return catalog.device == shard.device
    }

    /// The new names are durable before any row says "ready": each shard folder is flushed, and
    /// `originals/` when a save created a shard in it.
    private func flushNames(_ staged: [Staged]) throws {
        var seen = Set<String>()
        for item in staged where seen.insert(item.shard).inserted { try FileSystem.fsync(item.file.directory) }
        if staged.contains(where: \.createdShard) {
            let originals = try FileSystem.openDirectory(originalsPath)
            defer { FileSystem.close(originals) }
            try FileSystem.fsync(originals)
        }
    }

    /// What transaction B gave: the receipt, the journal records, and the catalog's snapshot
    /// bookkeeping (read in B, not in two reads of their own after it).
    struct ReadyOutcome {
        var receipt: CommitReceipt
        var records: [SaveJournal.Record]
        var snapshotState: SnapshotState
    }

    /// Transaction B: album, `ready`, membership, atomically. An item whose bytes are already in
    /// the library (or earlier in this batch) becomes that asset: its own row and file go.
    private func markReady(
        _ staged: [Staged], album: AlbumRequest?, at now: TimeInterval
    ) throws -> ReadyOutcome {
        try withUnflushedCommits("save the photos") { db in
            try db.immediateTransaction {
                let store = CatalogAlbumStore(db: db, now: now)
                let resolved = try album.map { try $0.findOrCreate(in: store) }
                var position = try resolved.map { try store.lastPosition(inAlbum: $0.id) } ?? 0
                var assets: [Result<CommittedAsset, AlbumError>] = []
                var records: [SaveJournal.Record] = []
                var inBatch: [String: String] = [:]  // sha256 + size → asset id
                for item in staged {
                    let content = "\(item.media.sha256)/\(item.media.byteSize)"
                    var existing = inBatch[content]
                    var damaged: String?
                    if existing == nil, let found = try store.asset(withContent: item.media) {
                        existing = found.id
                        if !hasIntactFile(found.path, size: item.media.byteSize, sha256: item.media.sha256) {
                            damaged = found.path
                        }
                    }
                    let assetID = existing ?? item.id
                    if let damaged {
                        // The asset's file is gone or damaged: this copy becomes its file, so saving
                        // the photo again restores it (reusing the asset would store nothing, again).
                        try heal(assetID, damagedFile: damaged, with: item, in: db)
                        inBatch[content] = assetID
                    } else if existing != nil {
                        // Same bytes, same asset: drop this copy, row and file.
                        guard try db.run("DELETE FROM asset WHERE id = ? AND state = 'pending'", [.text(item.id)]) == 1
                        else { throw Self.lostPendingRow(item) }
                        // Removed before COMMIT: a crash in between leaves a pending row without its
                        // file, which recovery removes; a failure undoes the whole batch.
                        try FileSystem.unlink(item.fileName, in: item.file.directory)
                    } else {
                        guard
                            try db.run(
                                "UPDATE asset SET state = 'ready', owner = NULL WHERE id = ? AND state = 'pending'",
                                [.text(item.id)]) == 1
                        else { throw Self.lostPendingRow(item) }
                        inBatch[content] = item.id
                    }
                    if let resolved,
                        try store.addIfMissing(assetID, toAlbum: resolved.id, position: position + 1, at: now)
                    {
                        position += 1
                    }
                    let row = try db.row(
                        "SELECT path, original_name, added_at FROM asset WHERE id = ?", [.text(assetID)])
                    records.append(
                        SaveJournal.Record(
                            op: .save, asset: assetID, path: row?.text(0), name: row?.text(1),
                            size: item.media.byteSize,
                            sha256: item.media.sha256, added: row?.real(2) ?? now, album: resolved?.id,
                            title: album?.title.text, at: now, pending: item.id, batch: staged[0].id,
                            of: staged.count))
                    assets.append(
                        .success(
                            CommittedAsset(
                                assetID: assetID, isExisting: existing != nil, isRestored: damaged != nil,
                                metadata: item.media.metadata)
                        ))
                }
                // Every record before the journal's current end belongs to a committed save.
                try Self.recordSaves(Int64(staged.count), journalLength: journal.length(), in: db)
                let snapshot = try SnapshotState(in: db)
                let receipt = CommitReceipt(
                    albumID: resolved?.id, albumOutcome: resolved?.outcome, assets: assets)
                if let resolved, let title = album?.title, resolved.outcome != .found {
                    records.insert(
                        SaveJournal.Record(
                            op: .createAlbum, album: resolved.id, title: title.text, at: now, batch: staged[0].id,
                            of: staged.count), at: 0)
                }
                return ReadyOutcome(receipt: receipt, records: records, snapshotState: snapshot)
            }
        }
    }

    /// Whether the library's file `relative` (an asset's path) is there: a regular file of `size`
    /// bytes with the SHA-256 `sha256`. Hashed only when the size matches, and only for bytes the
    /// library already holds (a re-save): "already there" must mean an intact copy is.
    func hasIntactFile(_ relative: String, size: Int64, sha256: String) -> Bool {
        let path = root.path + "/" + relative
        guard let status = FileSystem.fileStatus(atPath: path, following: false), status.kind == .regular,
            status.size == size, let (file, _) = try? FileSystem.openForReading(path)
        else { return false }
        defer { FileSystem.close(file) }
        return (try? FileSystem.sha256(of: file)) == sha256
    }

    /// Gives asset `id`, whose file `damagedFile` is missing or damaged, `item`'s bytes (inside
    /// transaction B, before it commits): the damaged file is shelved (``shelve(damagedFile:)``),
    /// `item`'s published file is renamed to the asset's own path and the folders flushed, and
    /// `item`'s pending row goes. The asset's row is unchanged — id, path, albums, original name —
    /// so the journal, `repair` and every reader find it where they always did.
    private func heal(_ id: String, damagedFile: String, with item: Staged, in db: Database) throws {
        guard try db.run("DELETE FROM asset WHERE id = ? AND state = 'pending'", [.text(item.id)]) == 1
        else { throw Self.lostPendingRow(item) }
        try restore(damagedFile, from: item.relativePath)
    }

    /// Replaces the library's file `damagedFile` (missing or damaged) by the library's file `copy`
    /// (the same bytes, intact): the damaged one is shelved, the copy renamed into its place, both
    /// folders flushed — durable before the commit that acknowledges it.
    func restore(_ damagedFile: String, from copy: String) throws {
        shelve(damagedFile: damagedFile)
        let target = root.path + "/" + damagedFile
        let source = root.path + "/" + copy
        do throws(SystemError) {
            try FileSystem.makeDirectory(atPath: (target as NSString).deletingLastPathComponent)
            let into = try FileSystem.openDirectory((target as NSString).deletingLastPathComponent)
            defer { FileSystem.close(into) }
            let from = try FileSystem.openDirectory((source as NSString).deletingLastPathComponent)
            defer { FileSystem.close(from) }
            try FileSystem.renameWithoutReplacing(
                (source as NSString).lastPathComponent, in: from, to: (target as NSString).lastPathComponent, in: into)
            try FileSystem.fsync(into)
            try FileSystem.fsync(from)
        } catch {
            throw error.libraryError("restore the damaged file \(damagedFile)")
        }
    }

    /// Moves the library's file `relative`, when it is there, to `damaged/originals/` (kept, and no
    /// longer where the asset's file goes). When it cannot be moved (`damaged` is not a folder, say)
    /// it is removed: its bytes are known to be wrong, and an intact copy replaces it.
    func shelve(damagedFile relative: String) {
        let damaged = root.path + "/" + relative
        guard FileSystem.fileStatus(atPath: damaged, following: false) != nil else { return }
        let name = (damaged as NSString).lastPathComponent
        do throws(SystemError) {
            let shelf = root.path + "/damaged/originals"
            try FileSystem.makeDirectory(atPath: shelf)
            let from = try FileSystem.openDirectory((damaged as NSString).deletingLastPathComponent)
            defer { FileSystem.close(from) }
            let to = try FileSystem.openDirectory(shelf)
            defer { FileSystem.close(to) }
            try FileSystem.renameWithoutReplacing(name, in: from, to: "\(RandomID.make())-\(name)", in: to)
        } catch {
            try? FileSystem.unlink(damaged)
        }
    }

    /// The pending row of an item vanished before it was marked ready: another process judged this
    /// one dead and removed the row and its file. Nothing of the batch may be acknowledged.
    private static func lostPendingRow(_ item: Staged) -> AlbumError {
        AlbumError(
            .ioFailure,
            "The save of \(item.media.originalFilename ?? item.id) was undone by another process's recovery; nothing was saved. Try again."
        )
    }

    /// Undoes a failed commit (removes published files, then the pending rows) and rethrows
    /// `error`. The staged descriptors stay open for ``discard(_:)``. A failure to undo leaves
    /// pending rows that the next recovery removes once this process is gone; it is reported too.
    private func rollBack(_ staged: [Staged], published: [Staged], after error: any Error) throws -> Never {
        let cause = AlbumError.library(error, "save the photos", path: catalogPath)
        // A row goes only with its file: a file that cannot be removed keeps its pending row, which
        // recovery removes with the file once this process has exited.
        var kept: Set<String> = []
        for item in published {
            do { try FileSystem.unlink(item.fileName, in: item.file.directory) } catch { kept.insert(item.id) }
        }
        var leftover = kept.isEmpty ? [] : ["\(kept.count) published file(s)"]
        do {
            try withDatabase("undo the save") { db in
                try db.immediateTransaction {
                    for item in staged where !kept.contains(item.id) {
                        try db.run("DELETE FROM asset WHERE id = ? AND state = 'pending'", [.text(item.id)])
                    }
                }
            }
        } catch {
            leftover.append("pending catalog rows (\(AlbumError.wrap(error).message))")
        }
        guard leftover.isEmpty else {
            throw AlbumError(
                cause.code,
                cause.message
                    + " Undoing the save left \(leftover.joined(separator: " and ")), removed when the library is opened after this process has exited.",
                file: cause.file, albumTitle: cause.albumTitle, underlying: cause.underlying)
        }
        throw cause
    }
}
