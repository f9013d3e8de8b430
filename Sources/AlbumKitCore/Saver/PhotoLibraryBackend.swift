/// The seam between the saver and a photo library (catalog, folders, PhotoKit).
///
/// A backend executes; it never decides policy. The saver stages media, then asks the backend to
/// commit a batch in one transaction: resolve the album with ``AlbumRequest/resolve(in:)``, create
/// it when needed, create the assets and add them to it — all or nothing.
package protocol PhotoLibraryBackend: Sendable {
    /// Media validated and prepared for commit (bytes copied and hashed, not yet visible).
    associatedtype Staged: Sendable

    /// Identifies the library within the process (e.g. `catalog:/path`), for serialization.
    var identity: String { get }

    /// How many staged items one commit takes at most (open files and flush cost).
    var preferredBatchSize: Int { get }

    /// Formats this library can never hold (PhotoKit: containers Photos does not import). The
    /// saver refuses such files with `.unsupportedMedia` before it asks for access or stages
    /// anything, so a batch of only such files shows no permission prompt. Default: none.
    var unsupportedFormats: Set<MediaFormat> { get }

    /// How messages name this library ("Photos"); default "the library".
    var libraryName: String { get }

    /// Whether albums can be used now (PhotoKit asks for access here); `nil` when they can,
    /// else the reason they cannot.
    ///
    /// - Throws: `.accessDenied` when not even the library can be written.
    func albumUnavailableReason(needsAlbum: Bool) async throws -> String?

    /// Validates and prepares one item. Nothing becomes visible.
    func stage(_ media: Media) async throws -> Staged

    /// Stages `media`, keeping its order, several items at once; `prepared` runs after each item.
    /// The default stages two at a time with ``stage(_:)``; backends whose staging is blocking file
    /// work stage on one thread per core instead (``Blocking/forEach(_:_:)``).
    func stage(_ media: [Media], prepared: @escaping @Sendable () -> Void) async -> [Result<Staged, AlbumError>]

    /// Releases a staged item that will not be committed.
    func discard(_ staged: Staged) async

    /// Commits staged items in one transaction, into `album` when given.
    ///
    /// - Throws: ``AlbumVanished`` when the resolved album disappeared before the commit (nothing
    ///   was saved; the saver retries once), ``AlbumRefused`` when the library refused the album
    ///   with the access given (nothing was saved; the saver applies the policy), or an
    ///   `AlbumError` (nothing was saved).
    func commit(_ staged: [Staged], to album: AlbumRequest?) async throws -> CommitReceipt

    /// Every album, oldest first.
    func albums() async throws -> [AlbumInfo]
    /// Every album's title, oldest first: without counting what each holds, where that costs.
    func albumTitles() async throws -> [String]
    /// Resolves `title` without creating anything (remembered id, then oldest with the title).
    func findAlbum(titled title: AlbumTitle) async throws -> String?
    /// The assets of an album, in the order they were added.
    func assets(inAlbumWithID id: String) async throws -> [AssetInfo]
    /// Creates an album with `title` unless one resolves; returns its id and outcome.
    func createAlbum(titled title: AlbumTitle) async throws -> (id: String, outcome: AlbumOutcome)
    /// Renames an album.
    func renameAlbum(id: String, to title: AlbumTitle) async throws
    /// Deletes an album; `force` allows deleting a folder album's files.
    func deleteAlbum(id: String, force: Bool) async throws
    /// Deletes an album; `permanently` skips the Trash of a folder library. Returns where the
    /// album's files went and the albums inside it that went with it.
    func deleteAlbum(id: String, force: Bool, permanently: Bool) async throws -> AlbumDeletionReceipt
    /// Checks every asset's file against what the library records.
    func verify() async throws -> VerificationReport

    // MARK: Assets (default: `.notSupported`)

    /// At most `limit` (≥ 1) assets of the whole library — in albums or not — in `order`, after
    /// `cursor` (`nil`: from the start). Sort by ``AssetOrder/sortKey(of:)`` then id, and make the
    /// next cursor from the last asset returned, so pages never repeat or skip an asset that stays
    /// (``AssetCursor/page(of:in:after:limit:)`` does it for a list in memory).
    func assets(in order: AssetOrder, after cursor: AssetCursor?, limit: Int) async throws -> AssetPage
    /// Adds existing assets to an existing album, after its current assets; an asset already in
    /// it stays where it is. All or nothing. Returns each asset's id in the album, in order: the
    /// same ids, except in a folder library, where the album folder gets its own file (and id).
    ///
    /// - Throws: `.albumNotFound`; `.assetNotFound` naming the first unknown id (nothing changed).
    func addAssets(_ ids: [String], toAlbumWithID albumID: String) async throws -> [String]
    /// Removes assets from an album; they stay in the library (a folder library moves a file that
    /// is in no other album to its top folder). All or nothing.
    ///
    /// - Throws: `.albumNotFound`; `.assetNotFound` for an id that is not in the album (nothing changed).
    func removeAssets(_ ids: [String], fromAlbumWithID albumID: String) async throws
    /// Deletes assets from the library and every album. A catalog removes row and file so that a
    /// crash at any point leaves neither a file without its row nor a row without its file; a
    /// folder library moves the files to the Trash; Photos asks the user and keeps them in
    /// "Recently Deleted". All ids are checked before anything is deleted.
    ///
    /// - Throws: `.assetNotFound` naming the first unknown id (nothing deleted).
    func deleteAssets(_ ids: [String]) async throws -> [AssetDeletion]

    /// Writes the original of `asset` into `file` when the library keeps originals outside the
    /// file system (a shared library's object store), checking its SHA-256 as it arrives; returns
    /// `false` when the library has no such copy to give (its originals are `AssetInfo.fileURL`s,
    /// or live in another app). Runs on a blocking thread. Default: `false`.
    func copyOriginal(of asset: AssetInfo, into file: FileSystem.Descriptor) throws -> Bool
}

extension PhotoLibraryBackend {
    /// 64 items per commit.
    package var preferredBatchSize: Int { 64 }

    /// The titles of ``albums()``.
    package func albumTitles() async throws -> [String] { try await albums().map(\.title) }

    package func stage(
        _ media: [Media], prepared: @escaping @Sendable () -> Void
    ) async -> [Result<Staged, AlbumError>] {
        await withTaskGroup(of: (Int, Result<Staged, AlbumError>).self) { group in
            var results = [Result<Staged, AlbumError>?](repeating: nil, count: media.count)
            var next = 0
            func launch() {
                guard next < media.count else { return }
                let index = next
                let item = media[index]
                next += 1
                group.addTask {
                    do { return (index, .success(try await stage(item))) } catch {
                        return (index, .failure(AlbumError.wrap(error, file: item.displayName)))
                    }
                }
            }
            for _ in 0..<2 { launch() }
            while let (index, result) = await group.next() {
                results[index] = result
                prepared()
                launch()
            }
            return results.map { $0! }
        }
    }

    /// Stages `media` on one blocking thread per core with `stage`, a synchronous staging function.
    package func stageOnEveryCore(
        _ media: [Media], prepared: @escaping @Sendable () -> Void,
        _ stage: @escaping @Sendable (Media) throws -> Staged
    ) async -> [Result<Staged, AlbumError>] {
        let results = Locked([Result<Staged, AlbumError>?](repeating: nil, count: media.count))
        await Blocking.forEach(media.count) { index in
            let item = media[index]
            let result: Result<Staged, AlbumError>
            do { result = .success(try stage(item)) } catch {
                result = .failure(AlbumError.wrap(error, file: item.displayName))
            }
            results.withLock { $0[index] = result }
            prepared()
        }
        return results.withLock { $0.map { $0! } }
    }

    private var unsupported: AlbumError {
        AlbumError(.notSupported, "This library cannot list, move or delete single assets.")
    }

    /// Not supported unless the backend says otherwise.
    package func assets(in order: AssetOrder, after cursor: AssetCursor?, limit: Int) async throws -> AssetPage {
        throw unsupported
    }
    /// Not supported unless the backend says otherwise.
    package func addAssets(_ ids: [String], toAlbumWithID albumID: String) async throws -> [String] {
        throw unsupported
    }
    /// Not supported unless the backend says otherwise.
    package func removeAssets(_ ids: [String], fromAlbumWithID albumID: String) async throws { throw unsupported }
    /// Not supported unless the backend says otherwise.
    package func deleteAssets(_ ids: [String]) async throws -> [AssetDeletion] { throw unsupported }

    /// Originals are files (or out of reach): nothing to copy here.
    package func copyOriginal(of asset: AssetInfo, into file: FileSystem.Descriptor) throws -> Bool { false }

    /// Every format AlbumKit reads can be held.
    package var unsupportedFormats: Set<MediaFormat> { [] }

    /// "the library".
    package var libraryName: String { "the library" }

    /// Libraries that never delete files (a catalog keeps the assets, Photos has its own
    /// "Recently Deleted") delete the album alone.
    package func deleteAlbum(id: String, force: Bool, permanently: Bool) async throws -> AlbumDeletionReceipt {
        try await deleteAlbum(id: id, force: force)
        return AlbumDeletionReceipt()
    }
}

/// What deleting an album moved.
package struct AlbumDeletionReceipt: Sendable {
    /// Where the album's folder went in the Trash; `nil` when no files moved or they were deleted
    /// permanently.
    package var trashPath: String?
    /// The albums that went (the album itself first, then those inside it).
    package var albums: [AlbumInfo]

    package init(trashPath: String? = nil, albums: [AlbumInfo] = []) {
        self.trashPath = trashPath
        self.albums = albums
    }
}

/// The album of a commit disappeared between lookup and commit; nothing was saved.
package struct AlbumVanished: Error, Sendable {
    package let albumID: String
    package init(albumID: String) { self.albumID = albumID }
}

/// The library refused the album with the access the user gave (Photos under limited access);
/// nothing was saved. The saver applies the access policy: fail, or save to the library only.
package struct AlbumRefused: Error, Sendable {
    package let albumTitle: String
    /// Why, for messages and `.skipped(reason)`.
    package let reason: String
    package init(albumTitle: String, reason: String) {
        self.albumTitle = albumTitle
        self.reason = reason
    }
}

/// What a backend committed.
package struct CommitReceipt: Sendable {
    /// The album used, `nil` when none was asked for.
    package var albumID: String?
    /// What happened to it.
    package var albumOutcome: AlbumOutcome?
    /// One result per staged item, in order.
    package var assets: [Result<CommittedAsset, AlbumError>]

    package init(albumID: String?, albumOutcome: AlbumOutcome?, assets: [Result<CommittedAsset, AlbumError>]) {
        self.albumID = albumID
        self.albumOutcome = albumOutcome
        self.assets = assets
    }
}

/// One committed asset.
package struct CommittedAsset: Sendable {
    package var assetID: String
    package var isExisting: Bool
    /// The library held these bytes, but not intact: this save put its copy back.
    package var isRestored: Bool
    package var metadata: MediaMetadata?

    package init(assetID: String, isExisting: Bool = false, isRestored: Bool = false, metadata: MediaMetadata?) {
        self.assetID = assetID
        self.isExisting = isExisting
        self.isRestored = isRestored
        self.metadata = metadata
    }
}
