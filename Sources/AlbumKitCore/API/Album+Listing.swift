import Foundation

/// An album describing and listing itself: the same answers as the library's calls by
/// identifier, without passing the title or the identifier again.
extension Album {
    /// The album now: its identifier, title and number of assets. An album named by title is
    /// looked up as saves look it up (the remembered album, else the oldest with that title), and
    /// ``id`` is known afterwards.
    ///
    /// ```swift
    /// let album = library.album(titled: "Trips")
    /// let info = try await album.info()
    /// print(info.title, info.count, album.id == info.id)   // Trips 12 true
    /// ```
    /// - Throws: `.albumNotFound` before the first save into it (or once it was deleted);
    ///   `.invalidAlbumTitle`.
    public func info() async throws -> AlbumInfo {
        try await PhotoLibrary.mapping {
            let id = try await resolvedID()
            return try await library.albumInfo(withID: id)
        }
    }

    /// A page of the album's assets in `order`, keeping only those that pass `filter` — paged as
    /// ``PhotoLibrary/assets(orderedBy:matching:after:limit:)`` pages the whole library.
    ///
    /// ```swift
    /// var page = try await album.assets(orderedBy: .captureDate, limit: 50)
    /// while let next = page.nextCursor {
    ///     page = try await album.assets(orderedBy: .captureDate, after: next, limit: 50)
    /// }
    /// ```
    /// - Parameters:
    ///   - order: ``AssetOrder/dateAdded`` or ``AssetOrder/captureDate``, oldest first.
    ///   - filter: which kinds and dates to list; every asset by default.
    ///   - cursor: the previous page's ``AssetPage/nextCursor`` (same order and filter); `nil` first.
    ///   - limit: the page size, 1 or more.
    /// - Throws: `.albumNotFound` before the first save into it (or once it was deleted);
    ///   `.invalidArgument` for a malformed cursor or a limit below 1.
    public func assets(
        orderedBy order: AssetOrder = .dateAdded, matching filter: AssetFilter = .all, after cursor: String? = nil,
        limit: Int = 100
    ) async throws -> AssetPage {
        try await PhotoLibrary.mapping {
            guard limit >= 1 else {
                throw AlbumError(.invalidArgument, "The page size must be 1 or more, not \(limit).")
            }
            let position = try cursor.map { try AssetCursor(token: $0, order: order) }
            let listing = try await listing(orderedBy: order, matching: filter)
            return AssetCursor.page(of: listing, in: order, after: position, limit: limit)
        }
    }

    /// Every asset of the album that passes `filter`, in `order` (sorted as the pages are).
    package func listing(orderedBy order: AssetOrder, matching filter: AssetFilter = .all) async throws
        -> [AssetInfo]
    {
        let id = try await resolvedID()
        let all = try await library.assets(inAlbumWithID: id)
        return AssetCursor.sorted(all.filter { filter.matches($0, in: order) }, in: order)
    }

    /// The identifier saves would use now: the one the album was named by, else the album its
    /// title resolves to (remembered in ``id``).
    ///
    /// - Throws: `.albumNotFound` (and ``id`` is forgotten) when no album resolves.
    package func resolvedID() async throws -> String {
        if let boundID { return boundID }
        do {
            let id = try await PhotoLibrary.mapping { try await library.existingAlbumID(title) }
            learnt.withLock { $0 = id }
            return id
        } catch let error as AlbumError where error.code == .albumNotFound {
            learnt.withLock { $0 = nil }
            throw AlbumError(
                .albumNotFound, "There is no album titled \"\(title)\" (the first save into it creates it).",
                albumTitle: title)
        }
    }
}
