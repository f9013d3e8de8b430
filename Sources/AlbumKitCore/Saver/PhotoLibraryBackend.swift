import Foundation

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

    /// The folder the library keeps its files in, and what to call it ("catalog library"), where
    /// it has one on this machine: nothing is exported into it. Default: none.
    var libraryFolder: (root: URL, kind: String)? { get }

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

    /// Whether the library keeps ``Media/companions`` (sidecars, the raw of a pair) with their
    /// photo; when `false` the saver reports them in ``SavedAsset/companionsLeftOut``. Default: `false`.
    var keepsCompanions: Bool { get }

    /// Whether ``recognise(_:in:)`` finds files before they are copied (catalog and folder
    /// libraries); when `false` the saver never probes. Default: `false`.
    var recognisesFiles: Bool { get }

    /// For each probe, the asset that already holds that file where a save into `album` looks
    /// for it (a catalog: the whole library; a folder library: the album's folder, or the top folder
    /// without an album), or `nil`: by original name, size and modification time when the probe
    /// was not read, by size and SHA-256 when it was (``FileProbe/sha256``), never by reading the
    /// library's copy where the library records its hash. Reads only; a `nil` probe is `nil`.
    /// Default: nothing is recognised.
    func recognise(_ probes: [FileProbe?], in album: AlbumRequest?) async throws -> [RecognisedFile?]

    /// Commits staged items in one transaction, into `album` when given.
    ///
    /// - Throws: ``AlbumVanished`` when the resolved album disappeared before the commit (nothing
    ///   was saved; the saver retries once), ``AlbumRefused`` when the library refused the album
    ///   with the access given (nothing was saved; the saver applies the policy), or an
    ///   `AlbumError` (nothing was saved).
    func commit(_ staged: [Staged], to album: AlbumRequest?) async throws -> CommitReceipt

    /// Every album, oldest first.
    func albums() async throws -> [AlbumInfo]
    /// The album with identifier `id`, `nil` when there is none: that album looked up, never
    /// found in a listing of them all (each kind implements it; there is no default).
    func album(withID id: String) async throws -> AlbumInfo?
    /// Every album's title, oldest first: without counting what each holds, where that costs.
    func albumTitles() async throws -> [String]
    /// Resolves `title` without creating anything (remembered id, then oldest with the title).
    func findAlbum(titled title: AlbumTitle) async throws -> String?
    /// The assets of an album, in the order they were added.
    func assets(inAlbumWithID id: String) async throws -> [AssetInfo]
    /// At most `limit` (≥ 1) assets of an album in its order, after `cursor` (`nil`: from the
    /// start). The default pages ``assets(inAlbumWithID:)``; the catalog seeks in its index.
    func assets(inAlbumWithID id: String, after cursor: AssetCursor?, limit: Int) async throws -> AssetPage
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
    /// As ``verify()``, reporting files and bytes checked as it goes. Default: ``verify()``, with
    /// no progress.
    func verify(progress: (@Sendable (VerificationProgress) -> Void)?) async throws -> VerificationReport

    // MARK: Access (default: always authorized)

    /// The access the app has at `level`, without prompting. AlbumKit's own libraries: always
    /// `.authorized`.
    func access(for level: PhotoLibraryAccessLevel) async -> PhotoLibraryAccess
    /// Prompts for `level` when the user was never asked; returns the access then.
    func requestAccess(for level: PhotoLibraryAccessLevel) async -> PhotoLibraryAccess
    /// The access at `level` now, read without waiting (a SwiftUI `body` asks it). Default:
    /// ``PhotoLibraryAccess/authorized``.
    func currentAccess(for level: PhotoLibraryAccessLevel) -> PhotoLibraryAccess

    // MARK: Changes (default: polling)

    /// The library's changes from now on, until the consumer stops iterating. The default polls
    /// (``LibraryChangePoller``) every `interval`; a backend that can be told (Photos' change
    /// observer, the catalog's journal, inotify) replaces it.
    func changes(polling interval: Duration) -> AsyncThrowingStream<LibraryChange, any Error>

    // MARK: Assets (default: `.notSupported`)

    /// As ``assets(in:after:limit:)``, only assets that pass `filter`. The default scans pages of
    /// ``assets(in:after:limit:)`` from the filter's first date and stops at its last; a backend
    /// that can filter where it stores (a query) replaces it.
    func assets(in order: AssetOrder, matching filter: AssetFilter, after cursor: AssetCursor?, limit: Int)
        async throws -> AssetPage

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
    /// Deletes assets for good (recently deleted ones too). Default: `.notSupported`.
    func deleteAssetsPermanently(_ ids: [String]) async throws -> [AssetDeletion]
    /// The recently deleted assets, most recently deleted first. Default: `.notSupported`.
    func recentlyDeletedAssets() async throws -> [RecentlyDeletedAsset]
    /// Brings recently deleted assets back into their albums. Default: `.notSupported`.
    func restoreAssets(_ ids: [String]) async throws
    /// Deletes for good what was deleted before `date`; how many. Default: `.notSupported`.
    func purgeRecentlyDeleted(before date: Date) async throws -> Int

    /// Writes the original of `asset` into `file` when the library keeps originals outside the
    /// file system (a shared library's object store), checking its SHA-256 as it arrives; returns
    /// `false` when the library has no such copy to give (its originals are `AssetInfo.fileURL`s,
    /// or live in another app). Runs on a blocking thread. Default: `false`.
    func copyOriginal(of asset: AssetInfo, into file: FileSystem.Descriptor) throws -> Bool
    /// As ``copyOriginal(of:into:)``, for one of an asset's companions (``AssetInfo/companions``
    /// without a file URL). Default: `false`.
    func copyCompanion(_ companion: AssetCompanion, into file: FileSystem.Descriptor) throws -> Bool

    /// Reads asset `id`'s original (a Live Photo's photo) with `body`, on a blocking thread, from
    /// where the library keeps it: a file, an object store (only the ranges `body` reads), memory.
    /// Returns `nil` when this library cannot read its originals (Photos). Default: `nil`.
    ///
    /// - Throws: `.assetNotFound`; what reading threw, as an `AlbumError` naming the asset's file.
    func readOriginal<T: Sendable>(
        ofAssetWithID id: String, _ body: @escaping @Sendable (any ByteSource) throws -> T
    ) async throws -> T?

    /// A small image of asset `id` at most about `maxPixelSize` on its longest side where the
    /// library can scale, or `nil` when it has none. Default: the thumbnail stored in the original
    /// (``readOriginal(ofAssetWithID:_:)``), as stored; Photos renders one.
    func thumbnail(ofAssetWithID id: String, maxPixelSize: Int) async throws -> AssetThumbnail?

    /// The photo of asset `id` at full size, or `nil` when the library has none to give. Default:
    /// a photo's original (``readOriginal(ofAssetWithID:_:)``) byte for byte; `nil` for a video.
    func fullSizeImage(ofAssetWithID id: String) async throws -> AssetImage?

    /// The SHA-256 of asset `id`'s bytes as the library holds them, read back now (to check a copy
    /// before its source is removed); `nil` when this library cannot read its copies back.
    func storedSHA256(ofAssetWithID id: String) async throws -> String?

    /// The SHA-256s of the files kept with asset `id` (``AssetInfo/companions``), read back now;
    /// empty when it has none or this library keeps none. Default: empty.
    func storedCompanionSHA256s(ofAssetWithID id: String) async throws -> Set<String>

    /// Asset `id`'s files as the library holds them, read back now (``StoredCopies``): what
    /// ``SourceRemoval`` checks before it removes a saved source. `nil` when this library cannot
    /// read its copies back as files. Default: `nil`.
    func storedCopies(ofAssetWithID id: String) async throws -> StoredCopies?
}

extension PhotoLibraryBackend {
    /// 64 items per commit.
    package var preferredBatchSize: Int { 64 }

    /// Companions are not kept.
    package var keepsCompanions: Bool { false }

    package func verify(progress: (@Sendable (VerificationProgress) -> Void)?) async throws -> VerificationReport {
        try await verify()
    }

    /// Files are recognised only once copied (by the commit).
    package var recognisesFiles: Bool { false }

    /// Nothing is recognised before it is copied.
    package func recognise(_ probes: [FileProbe?], in album: AlbumRequest?) async throws -> [RecognisedFile?] {
        probes.map { _ in nil }
    }

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

    /// Always authorized: AlbumKit's own libraries ask for nothing.
    package func access(for level: PhotoLibraryAccessLevel) async -> PhotoLibraryAccess { .authorized }

    package func currentAccess(for level: PhotoLibraryAccessLevel) -> PhotoLibraryAccess { .authorized }

    /// Answers ``access(for:)``: there is nothing to ask.
    package func requestAccess(for level: PhotoLibraryAccessLevel) async -> PhotoLibraryAccess {
        await access(for: level)
    }

    /// Polls the library every `interval`.
    package func changes(polling interval: Duration) -> AsyncThrowingStream<LibraryChange, any Error> {
        LibraryChangePoller(backend: self, interval: interval).changes()
    }

    /// A page of ``assets(inAlbumWithID:)``: after the cursor's asset, or, when it left the album,
    /// from the place it had (the cursor's key, a count of the album's assets before the page's end).
    package func assets(inAlbumWithID id: String, after cursor: AssetCursor?, limit: Int) async throws -> AssetPage {
        let all = try await assets(inAlbumWithID: id)
        var start = 0
        if let cursor {
            start = all.firstIndex { $0.id == cursor.id }.map { $0 + 1 } ?? min(all.count, Int(cursor.key) ?? 0)
        }
        let end = min(all.count, start + max(1, limit))
        let page = Array(all[start..<end])
        let next = end < all.count ? page.last.map { AssetCursor(key: String(end), id: $0.id).token } : nil
        return AssetPage(assets: page, nextCursor: next)
    }

    /// Scans ``assets(in:after:limit:)`` from the filter's first date, keeping what passes.
    package func assets(in order: AssetOrder, matching filter: AssetFilter, after cursor: AssetCursor?, limit: Int)
        async throws -> AssetPage
    {
        guard !filter.isEverything else { return try await assets(in: order, after: cursor, limit: limit) }
        let bounds = filter.keyBounds(in: order)
        var members: Set<String>?
        if let albumID = filter.albumID { members = Set(try await assets(inAlbumWithID: albumID).map(\.id)) }
        var position = cursor
        if let bounds, position.map({ $0.key < bounds.lower }) ?? true {
            // Everything before the first date is skipped without being listed.
            position = AssetCursor(key: bounds.lower, id: "")
        }
        var found: [AssetInfo] = []
        while found.count < limit {
            let page = try await assets(in: order, after: position, limit: max(limit, 100))
            for (index, asset) in page.assets.enumerated() {
                if let bounds, order.sortKey(of: asset) >= bounds.upper {
                    return AssetPage(assets: found, nextCursor: nil)
                }
                guard filter.matches(asset, in: order, albumMembers: members) else { continue }
                found.append(asset)
                if found.count == limit {
                    let more = index < page.assets.count - 1 || page.nextCursor != nil
                    let last = AssetCursor(key: order.sortKey(of: asset), id: asset.id)
                    return AssetPage(assets: found, nextCursor: more ? last.token : nil)
                }
            }
            guard page.nextCursor != nil, let last = page.assets.last else { break }
            position = AssetCursor(key: order.sortKey(of: last), id: last.id)
        }
        return AssetPage(assets: found, nextCursor: nil)
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
    /// Not supported unless the backend says otherwise.
    package func deleteAssetsPermanently(_ ids: [String]) async throws -> [AssetDeletion] { throw noRecentlyDeleted }
    /// Not supported unless the backend says otherwise.
    package func recentlyDeletedAssets() async throws -> [RecentlyDeletedAsset] { throw noRecentlyDeleted }
    /// Not supported unless the backend says otherwise.
    package func restoreAssets(_ ids: [String]) async throws { throw noRecentlyDeleted }
    /// Not supported unless the backend says otherwise.
    package func purgeRecentlyDeleted(before date: Date) async throws -> Int { throw noRecentlyDeleted }

    private var noRecentlyDeleted: AlbumError {
        AlbumError(
            .notSupported,
            "This library keeps no recently deleted of its own (a folder library uses the desktop Trash, Photos its Recently Deleted album)."
        )
    }

    /// Originals are files (or out of reach): nothing to copy here.
    package func copyOriginal(of asset: AssetInfo, into file: FileSystem.Descriptor) throws -> Bool { false }

    package func copyCompanion(_ companion: AssetCompanion, into file: FileSystem.Descriptor) throws -> Bool {
        false
    }

    package func storedSHA256(ofAssetWithID id: String) async throws -> String? { nil }

    /// Originals cannot be read here.
    package func readOriginal<T: Sendable>(
        ofAssetWithID id: String, _ body: @escaping @Sendable (any ByteSource) throws -> T
    ) async throws -> T? { nil }

    /// The EXIF thumbnail stored in the original, as stored; `nil` when it has none or the library
    /// cannot read its originals.
    package func thumbnail(ofAssetWithID id: String, maxPixelSize: Int) async throws -> AssetThumbnail? {
        let found = try await readOriginal(ofAssetWithID: id) { source -> EmbeddedThumbnail? in
            do { return try MediaInspector().embeddedThumbnail(source) } catch let error as MediaInspectionError {
                throw AlbumError(.fileUnreadable, "The original of asset \(id) cannot be read: \(error.reason).")
            }
        }
        guard let thumbnail = found ?? nil else { return nil }
        return AssetThumbnail(
            data: Data(thumbnail.jpeg), pixelWidth: thumbnail.width, pixelHeight: thumbnail.height, format: .jpeg,
            isEmbedded: true)
    }

    package func storedCompanionSHA256s(ofAssetWithID id: String) async throws -> Set<String> { [] }

    /// Its copies are no files it can read back.
    package func storedCopies(ofAssetWithID id: String) async throws -> StoredCopies? { nil }

    /// A photo's original, read whole; `nil` for a video or where originals cannot be read.
    package func fullSizeImage(ofAssetWithID id: String) async throws -> AssetImage? {
        let found = try await readOriginal(ofAssetWithID: id) { source -> AssetImage? in
            // A file AlbumKit cannot read as a photo has no full-size image (nil, as for a video).
            guard let metadata = try? MediaInspector().inspect(source), metadata.kind == .photo else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(Int(clamping: source.size))
            while UInt64(bytes.count) < source.size {
                let chunk = try source.read(at: UInt64(bytes.count), count: 1 << 20)
                guard !chunk.isEmpty else {
                    throw AlbumError(
                        .fileUnreadable,
                        "The original of asset \(id) ended after \(bytes.count) of its \(source.size) bytes.")
                }
                bytes += chunk
            }
            return AssetImage(
                data: Data(bytes), format: metadata.format, pixelWidth: metadata.width, pixelHeight: metadata.height,
                isOriginal: true)
        }
        return found ?? nil
    }

    /// Every format AlbumKit reads can be held.
    package var unsupportedFormats: Set<MediaFormat> { [] }

    /// "the library".
    package var libraryName: String { "the library" }

    /// No folder of its own on this machine.
    package var libraryFolder: (root: URL, kind: String)? { nil }

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
    /// The names of the staged companions not kept (the library already held the photo).
    package var companionsLeftOut: [String]
    /// The names of the staged companions added to, or replacing one of, an existing asset's.
    package var companionsUpdated: [String]

    package init(
        assetID: String, isExisting: Bool = false, isRestored: Bool = false, metadata: MediaMetadata?,
        companionsLeftOut: [String] = [], companionsUpdated: [String] = []
    ) {
        self.companionsUpdated = companionsUpdated
        self.assetID = assetID
        self.isExisting = isExisting
        self.isRestored = isRestored
        self.metadata = metadata
        self.companionsLeftOut = companionsLeftOut
    }
}
