import Dispatch
import Foundation

/// A named album in a ``PhotoLibrary``. Saving finds it (remembered identifier, then title),
/// creates it when missing, recreates it when deleted, and adds the asset — in one transaction.
/// It also lists and describes itself, and knows its identifier once a save or a look-up found it.
///
/// ```swift
/// let album = library.album(titled: "Touch Code Magazine")
/// let saved = try await album.save(.file(photoURL))
/// print(saved.albumOutcome)   // created the first time, found afterwards
/// print(album.id ?? "")       // the album's identifier, known since the save
/// let info = try await album.info()
/// let page = try await album.assets(limit: 50)
/// ```
public struct Album: Sendable {
    /// The library the album belongs to.
    public let library: PhotoLibrary
    /// The title as given.
    public let title: String
    /// What to do when the library does not let the app use albums.
    public let accessPolicy: AlbumAccessPolicy
    /// The identifier the album was named by (``PhotoLibrary/album(withID:accessPolicy:)``): saves
    /// then go into exactly that album, never one created anew.
    let boundID: String?
    /// The identifier learnt from the last save or look-up, shared by every copy of this value.
    let learnt: Locked<String?>

    init(library: PhotoLibrary, title: String, accessPolicy: AlbumAccessPolicy, boundID: String? = nil) {
        self.library = library
        self.title = title
        self.accessPolicy = accessPolicy
        self.boundID = boundID
        self.learnt = Locked(boundID)
    }

    /// The album's identifier: known when it was named by ``PhotoLibrary/album(withID:accessPolicy:)``,
    /// and for an album named by title once a save into it (or ``info()``, ``assets(orderedBy:matching:after:limit:)``)
    /// found or created it; `nil` before. A save that recreates a deleted album updates it.
    ///
    /// ```swift
    /// let album = library.album(titled: "Trips")
    /// try await album.save(.file(url))
    /// let id = album.id!   // the same for every copy of `album`
    /// ```
    public var id: String? { boundID ?? learnt.withLock { $0 } }

    /// Remembers the album identifier a successful result gives (the album it went into).
    private func learn(from result: Result<SavedAsset, AlbumError>) {
        guard boundID == nil, case .success(let saved) = result, let id = saved.albumID else { return }
        learnt.withLock { $0 = id }
    }

    /// Saves one photo or video into the album.
    ///
    /// ```swift
    /// let saved = try await album.save(.data(jpegBytes, filename: "IMG_0001.JPG"))
    /// ```
    /// - Throws: `AlbumError`: `.invalidAlbumTitle`, `.fileNotFound`, `.fileUnreadable`, `.notMedia`,
    ///   `.corruptMedia`, `.accessDenied`, `.notEnoughSpace`, `.libraryUnwritable`, `.albumUnavailable`, …
    @discardableResult
    public func save(_ media: Media) async throws -> SavedAsset {
        try await save([media], progress: nil)[0].get()
    }

    /// Saves many items into the album: one result per item, in order. A bad file fails alone;
    /// the others are saved. `onResult` is called with each item's index and result as soon as that
    /// item is durable (or has failed), in order — so what it reports is saved even if the program
    /// stops before the batch ends. `progress` is called one report at a time, in order: its
    /// `fraction` never moves back; a slow callback holds back only the thread it is called on.
    /// Cancelling the task finishes the items being committed and reports the rest as `.cancelled`.
    ///
    /// ```swift
    /// let results = await album.save(urls.map { .file($0) }) { print($0.completed, "/", $0.total) }
    /// await album.save(urls.map { .file($0) }, onResult: { index, result in print(index, result) })
    /// ```
    @discardableResult
    public func save(
        _ media: [Media], progress: (@Sendable (SaveProgress) -> Void)? = nil,
        onResult: (@Sendable (_ index: Int, _ result: Result<SavedAsset, AlbumError>) -> Void)? = nil
    ) async -> [Result<SavedAsset, AlbumError>] {
        // Every result passes through `onResult` (failures before the save began too).
        await PhotoLibrary.run(
            library.opening, media, album: title, albumID: boundID, policy: accessPolicy, progress: progress,
            onResult: { index, result in
                learn(from: result)
                onResult?(index, result)
            })
    }

    /// Saves one item and calls `completion` exactly once, on `queue` (the main queue by default).
    ///
    /// ```swift
    /// album.save(.file(url)) { result in
    ///     if case .failure(let error) = result { print(error.code) }
    /// }
    /// ```
    public func save(
        _ media: Media, queue: DispatchQueue = .main,
        completion: @escaping @Sendable (Result<SavedAsset, AlbumError>) -> Void
    ) {
        Task {
            let result = await save([media], progress: nil)[0]
            queue.async { completion(result) }
        }
    }
}

extension PhotoLibrary {
    /// Saves one item into the album titled `album` (found, created or recreated as
    /// ``Album/save(_:)`` does) — the one-line form of `album(titled:).save(_:)`.
    ///
    /// ```swift
    /// let saved = try await library.save(.file(url), toAlbum: "Touch Code Magazine")
    /// ```
    /// - Throws: `AlbumError`, as ``Album/save(_:)``.
    @discardableResult
    public func save(_ media: Media, toAlbum album: String) async throws -> SavedAsset {
        try await self.album(titled: album).save(media)
    }

    /// Saves one item into the album titled `album` and calls `completion` exactly once, on `queue`
    /// (the main queue by default) — the classic `saveImage:toAlbum:withCompletionBlock:`.
    ///
    /// ```swift
    /// library.save(.file(url), toAlbum: "Touch Code Magazine") { result in print(result) }
    /// ```
    public func save(
        _ media: Media, toAlbum album: String, queue: DispatchQueue = .main,
        completion: @escaping @Sendable (Result<SavedAsset, AlbumError>) -> Void
    ) {
        self.album(titled: album).save(media, queue: queue, completion: completion)
    }
}
