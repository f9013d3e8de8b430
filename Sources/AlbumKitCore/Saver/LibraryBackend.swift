import Foundation

/// What every library kind does: the seam between the saver and a photo library (catalog,
/// folders, shared, Photos, in memory).
///
/// A backend executes; it never decides policy. The saver stages media, then asks the backend to
/// commit a batch in one transaction: resolve the album with ``AlbumRequest/resolve(in:)``, create
/// it when needed, create the assets and add them to it — all or nothing. What a kind can do beyond
/// saving is a capability it adopts where true (Sources/AlbumKitCore/Capabilities/): listing albums
/// is ``AlbumBrowsing``, changing them ``AlbumEditing``, and so on; ``PhotoLibrary`` asks for a
/// capability once per call with `capability(_:orThrow:)`.
///
/// ```swift
/// extension MyBackend: LibraryBackend { … }  // stage, discard, commit, findAlbum, albumUnavailableReason
/// extension MyBackend: AlbumBrowsing { … }   // only when it can list its albums
/// ```
package protocol LibraryBackend: Sendable {
    /// Media validated and prepared for commit (bytes copied and hashed, not yet visible).
    associatedtype Staged: Sendable

    /// Identifies the library within the process (e.g. `catalog:/path`), for serialization.
    var identity: String { get }

    /// How many staged items one commit takes at most (open files and flush cost). Default: 64.
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
    /// work stage on one thread per core instead (``stageOnEveryCore(_:prepared:_:)``).
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

    /// Resolves `title` without creating anything (remembered id, then oldest with the title).
    func findAlbum(titled title: AlbumTitle) async throws -> String?
}

extension LibraryBackend {
    /// 64 items per commit.
    package var preferredBatchSize: Int { 64 }

    /// Every format AlbumKit reads can be held.
    package var unsupportedFormats: Set<MediaFormat> { [] }

    /// "the library".
    package var libraryName: String { "the library" }

    /// No folder of its own on this machine.
    package var libraryFolder: (root: URL, kind: String)? { nil }

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
