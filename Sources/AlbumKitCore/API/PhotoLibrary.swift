import Dispatch
import Foundation

/// A photo library: AlbumKit's own catalog, a folder of album folders, or the system library.
///
/// ```swift
/// let library = try PhotoLibrary.catalog(at: URL(fileURLWithPath: "Photos.albumlibrary"))
/// let saved = try await library.album(titled: "Touch Code Magazine").save(.file(photoURL))
/// ```
public struct PhotoLibrary: Sendable {
    let opening: BackendOpening

    /// The backend, once it is open (opening may still be running in the background).
    package var backend: any LibraryBackend {
        get async throws { try await opening.backend() }
    }

    /// Waits until the library is open; throws what opening threw (the CLI reports that once
    /// instead of once per file).
    package func opened() async throws { _ = try await backend }

    /// Wraps a backend (the PhotoKit module and tests use this).
    package init(backend: some LibraryBackend) { self.opening = BackendOpening(backend) }

    /// A library whose backend `open` opens on a background thread, started now.
    package init(opening open: @escaping @Sendable () throws -> any LibraryBackend) {
        self.opening = BackendOpening(open)
    }

    /// The album titled `title`. No I/O happens until you save; the title is validated then.
    ///
    /// ```swift
    /// let album = library.album(titled: "Trips", accessPolicy: .saveToLibraryWhenAlbumUnavailable)
    /// ```
    public func album(titled title: String, accessPolicy: AlbumAccessPolicy = .requireAlbum) -> Album {
        Album(library: self, title: title, accessPolicy: accessPolicy)
    }

    /// Saves one photo or video to the library only (no album; the "camera roll").
    ///
    /// ```swift
    /// let saved = try await library.save(.file(url))
    /// ```
    /// - Throws: `AlbumError` (`.fileNotFound`, `.notMedia`, `.corruptMedia`, `.notEnoughSpace`, …).
    @discardableResult
    public func save(_ media: Media) async throws -> SavedAsset {
        try await save([media], progress: nil)[0].get()
    }

    /// Saves many items to the library only; one result per item, in order. `onResult` is called
    /// with each item's index and result as soon as that item is durable (or has failed), in order.
    ///
    /// ```swift
    /// let results = await library.save(urls.map { .file($0) }) { _ in } onResult: { index, result in
    ///     print(urls[index].lastPathComponent, (try? result.get().assetID) ?? "failed")
    /// }
    /// ```
    @discardableResult
    public func save(
        _ media: [Media], progress: (@Sendable (SaveProgress) -> Void)? = nil,
        onResult: (@Sendable (_ index: Int, _ result: Result<SavedAsset, AlbumError>) -> Void)? = nil
    ) async -> [Result<SavedAsset, AlbumError>] {
        await Self.run(opening, media, album: nil, policy: .requireAlbum, progress: progress, onResult: onResult)
    }

    /// Every album, oldest first.
    ///
    /// ```swift
    /// for album in try await library.albums() { print(album.title, album.count) }
    /// ```
    public func albums() async throws -> [AlbumInfo] {
        try await Self.mapping { try await albumBrowsing().albums() }
    }

    /// Every album's title, oldest first: as ``albums()`` without counting each album's assets
    /// (a folder library lists only its folders).
    ///
    /// ```swift
    /// let titles = try await library.albumTitles()
    /// ```
    public func albumTitles() async throws -> [String] {
        try await Self.mapping { try await albumBrowsing().albumTitles() }
    }

    /// The assets in the album titled `title`, in the order they were added.
    ///
    /// ```swift
    /// let assets = try await library.assets(inAlbumTitled: "Trips")
    /// ```
    /// - Throws: `.albumNotFound` when no album resolves, `.invalidAlbumTitle`.
    public func assets(inAlbumTitled title: String) async throws -> [AssetInfo] {
        try await Self.mapping {
            let id = try await existingAlbumID(title)
            return try await albumBrowsing().assets(inAlbumWithID: id)
        }
    }

    /// Creates the album titled `title` unless it already exists; returns its description.
    ///
    /// ```swift
    /// let info = try await library.createAlbum(titled: "Trips")
    /// ```
    @discardableResult
    public func createAlbum(titled title: String) async throws -> AlbumInfo {
        try await Self.mapping {
            let title = try AlbumTitle(title)
            let editing = try await albumEditing()
            let created = try await editing.createAlbum(titled: title)
            return try await editing.album(withID: created.id) ?? AlbumInfo(id: created.id, title: title.text, count: 0)
        }
    }

    /// Renames the album titled `title` to `newTitle`. Its identifier stays, so saves that
    /// remembered it keep finding it.
    ///
    /// ```swift
    /// try await library.renameAlbum(titled: "Trips", to: "Trips 2026")
    /// ```
    public func renameAlbum(titled title: String, to newTitle: String) async throws {
        try await Self.mapping {
            let newTitle = try AlbumTitle(newTitle)
            let id = try await existingAlbumID(title)
            try await albumEditing().renameAlbum(id: id, to: newTitle)
        }
    }

    /// Deletes the album titled `title`. In a catalog the assets stay in the library; in a folder
    /// library the folder goes to the Trash (the freedesktop.org Trash, so a file manager can
    /// restore it) with everything in it, so a non-empty album needs `force`; `permanently` deletes
    /// the files instead.
    ///
    /// ```swift
    /// let deleted = try await library.deleteAlbum(titled: "Trips", force: true)
    /// print(deleted.trashURL?.path ?? "deleted")
    /// ```
    /// - Throws: `.albumNotFound`; `.ambiguousAlbumTitle`; `.albumNotEmpty` for a non-empty folder
    ///   album without `force`.
    @discardableResult
    public func deleteAlbum(titled title: String, force: Bool = false, permanently: Bool = false) async throws
        -> DeletedAlbum
    {
        try await Self.mapping {
            let id = try await existingAlbumID(title)
            let receipt = try await albumEditing().deleteAlbum(id: id, force: force, permanently: permanently)
            return DeletedAlbum(
                id: id, title: receipt.albums.first?.title ?? title,
                trashURL: receipt.trashPath.map { URL(fileURLWithPath: $0) },
                albums: receipt.albums)
        }
    }

    /// Checks that every asset's file is present with its recorded size and SHA-256, and that no
    /// stray file is there.
    ///
    /// ```swift
    /// let report = try await library.verify()
    /// ```
    public func verify() async throws -> VerificationReport {
        try await Self.mapping { try await capability((any LibraryVerifying).self, for: "verify its files").verify() }
    }

    /// As ``verify()``, calling `progress` after each file is checked: files and bytes done of all
    /// (catalog and folder libraries; others check without reporting). A catalog checks files on
    /// every core, so `progress` may be called from several threads at once.
    ///
    /// ```swift
    /// let report = try await library.verify { print("\($0.completed)/\($0.total)") }
    /// ```
    public func verify(
        progress: @escaping @Sendable (VerificationProgress) -> Void
    ) async throws -> VerificationReport {
        try await Self.mapping {
            try await capability((any LibraryVerifying).self, for: "verify its files").verify(progress: progress)
        }
    }

    /// As ``verify(progress:)``, as deep as `depth` says: ``VerificationDepth/thorough`` also
    /// compares a catalog's index with its journal replayed afresh.
    ///
    /// ```swift
    /// let report = try await library.verify(.thorough)
    /// print(report.isHealthy ? "healthy" : report.problems.joined(separator: "\n"))
    /// ```
    public func verify(
        _ depth: VerificationDepth, progress: (@Sendable (VerificationProgress) -> Void)? = nil
    ) async throws -> VerificationReport {
        try await Self.mapping {
            try await capability((any LibraryVerifying).self, for: "verify its files").verify(depth, progress: progress)
        }
    }

    func existingAlbumID(_ title: String) async throws -> String {
        let title = try AlbumTitle(title)
        guard let id = try await backend.findAlbum(titled: title) else {
            throw AlbumError(
                .albumNotFound, "There is no album titled \"\(title.text)\".", albumTitle: title.text)
        }
        return id
    }

    package static func mapping<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw AlbumError.wrap(error) }
    }

    static func run(
        _ opening: BackendOpening, _ media: [Media], album: String?, albumID: String? = nil,
        policy: AlbumAccessPolicy, recognising check: RecognitionCheck = .content,
        progress: (@Sendable (SaveProgress) -> Void)?,
        onResult: (@Sendable (Int, Result<SavedAsset, AlbumError>) -> Void)? = nil
    ) async -> [Result<SavedAsset, AlbumError>] {
        var title: AlbumTitle?
        let backend: any LibraryBackend
        do {
            if let album { title = try AlbumTitle(album) }
            backend = try await opening.backend()
        } catch {
            let error = AlbumError.wrap(error)
            for index in media.indices { onResult?(index, .failure(error)) }
            return media.map { _ in .failure(error) }
        }
        return await save(backend, media, title, albumID, policy, check, progress, onResult)
    }

    private static func save<B: LibraryBackend>(
        _ backend: B, _ media: [Media], _ title: AlbumTitle?, _ albumID: String?, _ policy: AlbumAccessPolicy,
        _ check: RecognitionCheck, _ progress: (@Sendable (SaveProgress) -> Void)?,
        _ onResult: (@Sendable (Int, Result<SavedAsset, AlbumError>) -> Void)?
    ) async -> [Result<SavedAsset, AlbumError>] {
        await Saver(backend: backend).save(
            media, to: title, albumID: albumID, policy: policy, recognising: check, progress: progress,
            onResult: onResult)
    }

    /// The library's backend: given, or being opened on a background thread.
    final class BackendOpening: Sendable {
        private let task: Task<any LibraryBackend, any Error>
        /// The backend's access now, without waiting; `nil` for AlbumKit's own libraries, which are
        /// opened in the background and always give access.
        let currentAccess: (@Sendable (PhotoLibraryAccessLevel) -> PhotoLibraryAccess)?

        init(_ backend: some LibraryBackend) {
            task = Task { backend }
            let controlled = backend as? any AccessControl
            currentAccess = { controlled?.currentAccess(for: $0) ?? .authorized }
        }

        init(_ open: @escaping @Sendable () throws -> any LibraryBackend) {
            currentAccess = nil
            // On the blocking queue, not one of the few threads async code runs on: opening can
            // wait for another process's lock.
            task = Task { try await Blocking.run(open) }
        }

        func backend() async throws -> any LibraryBackend {
            do { return try await task.value } catch { throw AlbumError.wrap(error) }
        }
    }
}
