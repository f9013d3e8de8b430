import Foundation

/// Assets and albums by identifier: listing the whole library, moving assets between albums,
/// deleting them. Identifiers are the stable handle (titles can change or repeat); every
/// operation that takes a title has a form that takes an album's `id`.
extension PhotoLibrary {
    /// A page of every asset in the library, in albums or not, in `order`, keeping only those that
    /// pass `filter`.
    ///
    /// ```swift
    /// let page = try await library.assets(orderedBy: .captureDate, matching: .videos, limit: 100)
    /// let more = try await library.assets(orderedBy: .captureDate, matching: .videos, after: page.nextCursor, limit: 100)
    /// ```
    /// - Parameters:
    ///   - order: ``AssetOrder/dateAdded`` or ``AssetOrder/captureDate``, oldest first.
    ///   - filter: which kinds, dates, cameras, formats, places, names and album to list; every asset by default.
    ///   - cursor: the previous page's ``AssetPage/nextCursor``, from the same order and filter;
    ///     `nil` for the first page.
    ///   - limit: the page size, 1 or more.
    /// - Throws: `.invalidArgument` for a malformed cursor or a limit below 1; `.notSupported`.
    public func assets(
        orderedBy order: AssetOrder = .dateAdded, matching filter: AssetFilter = .all, after cursor: String? = nil,
        limit: Int = 100
    ) async throws -> AssetPage {
        try await Self.mapping {
            guard limit >= 1 else {
                throw AlbumError(.invalidArgument, "The page size must be 1 or more, not \(limit).")
            }
            if filter.isEmpty {
                return AssetPage(assets: [], nextCursor: nil)
            }
            return try await capability((any AlbumBrowsing).self, orThrow: .singleAssetsNotSupported).assets(
                in: order, matching: filter, after: try cursor.map { try AssetCursor(token: $0, order: order) },
                limit: limit)
        }
    }

    /// A page of every asset, in `order`.
    ///
    /// ```swift
    /// let page = try await library.assets(orderedBy: .captureDate, limit: 100)
    /// ```
    @available(*, deprecated, renamed: "assets(orderedBy:matching:after:limit:)")
    public func assets(in order: AssetOrder, after cursor: String? = nil, limit: Int = 100) async throws -> AssetPage {
        try await assets(orderedBy: order, matching: .all, after: cursor, limit: limit)
    }

    /// Every asset of the library that passes `filter`, page by page, as one sequence.
    ///
    /// ```swift
    /// for try await asset in library.allAssets(orderedBy: .dateAdded, matching: .photos) { print(asset.id) }
    /// ```
    public func allAssets(
        orderedBy order: AssetOrder = .dateAdded, matching filter: AssetFilter = .all, pageSize: Int = 500
    ) -> AsyncThrowingStream<AssetInfo, any Error> {
        let library = self
        return Self.paged { cursor in
            try await library.assets(orderedBy: order, matching: filter, after: cursor, limit: pageSize)
        }
    }

    /// Every asset of the library, page by page, as one sequence.
    ///
    /// ```swift
    /// for try await asset in library.allAssets(orderedBy: .dateAdded) { print(asset.id) }
    /// ```
    @available(*, deprecated, renamed: "allAssets(orderedBy:matching:pageSize:)")
    public func allAssets(in order: AssetOrder, pageSize: Int = 500) -> AsyncThrowingStream<AssetInfo, any Error> {
        allAssets(orderedBy: order, matching: .all, pageSize: pageSize)
    }

    /// The description of the album with identifier `id` (its title and count now).
    ///
    /// ```swift
    /// let info = try await library.albumInfo(withID: saved.albumID!)
    /// ```
    /// - Throws: `.albumNotFound`.
    public func albumInfo(withID id: String) async throws -> AlbumInfo {
        try await Self.mapping {
            guard let info = try await albumBrowsing().album(withID: id) else {
                throw AlbumError(.albumNotFound, "There is no album with the identifier \(id).")
            }
            return info
        }
    }

    /// The album titled `title`, as saves resolve it (the remembered album, else the oldest with
    /// that title) — its identifier is the stable handle for later calls.
    ///
    /// ```swift
    /// let id = try await library.albumInfo(titled: "Trips").id
    /// ```
    /// - Throws: `.albumNotFound`, `.invalidAlbumTitle`.
    public func albumInfo(titled title: String) async throws -> AlbumInfo {
        try await Self.mapping { try await albumInfo(withID: try await existingAlbumID(title)) }
    }

    /// The identifier of the album titled `title`, as saves resolve it, without reading what the
    /// album holds (its count): one look-up where ``albumInfo(titled:)`` makes two.
    ///
    /// ```swift
    /// let id = try await library.albumID(titled: "Trips")
    /// ```
    /// - Throws: `.albumNotFound`, `.invalidAlbumTitle`.
    package func albumID(titled title: String) async throws -> String {
        try await Self.mapping { try await existingAlbumID(title) }
    }

    /// The album with identifier `id`, for saving into exactly it: by id, a save never goes into
    /// another album with the same title and never creates one (`.albumNotFound` once it is gone).
    ///
    /// ```swift
    /// let trips = try await library.album(withID: info.id, accessPolicy: .requireAlbum)
    /// try await trips.save(.file(photoURL))
    /// ```
    /// - Throws: `.albumNotFound`.
    public func album(withID id: String, accessPolicy: AlbumAccessPolicy) async throws -> Album {
        let info = try await albumInfo(withID: id)
        return Album(library: self, title: info.title, accessPolicy: accessPolicy, boundID: id)
    }

    /// The assets in the album with identifier `id`, in the order they were added.
    ///
    /// ```swift
    /// let assets = try await library.assets(inAlbumWithID: info.id)
    /// ```
    /// - Throws: `.albumNotFound`.
    public func assets(inAlbumWithID id: String) async throws -> [AssetInfo] {
        try await Self.mapping {
            _ = try await albumInfo(withID: id)
            return try await albumBrowsing().assets(inAlbumWithID: id)
        }
    }

    /// The assets of the album with identifier `id` whose original file name is one of `names`,
    /// the letters A–Z in either case (``OriginalNameKey``): what `album save --album` reads to tell
    /// a new version of a photo already there, found by name in every kind (an album of 100 000 is
    /// not listed for one photo). A long list is asked in parts; an album that is not there has none.
    ///
    /// ```swift
    /// let earlier = try await library.assets(inAlbumWithID: info.id, originallyNamed: ["IMG_0001.JPG"])
    /// ```
    package func assets(inAlbumWithID id: String, originallyNamed names: some Sequence<String>) async throws
        -> [AssetInfo]
    {
        try await Self.mapping {
            let browsing = try await albumBrowsing()
            return try await Self.assets(originallyNamed: names) { part in
                try await browsing.assets(inAlbumWithID: id, originallyNamed: part)
            }
        }
    }

    /// The album titled `title` (the one a save into it would use; `nil` when there is none or the
    /// title is not one) with its assets whose original file name is one of `names`, as
    /// ``assets(inAlbumWithID:originallyNamed:)`` finds them: what `album save --album` reads
    /// first, in one request where the library can (a shared library: one round trip).
    ///
    /// ```swift
    /// let (id, earlier) = try await library.album(titled: "Trips", assetsOriginallyNamed: ["IMG_0001.JPG"]) ?? ("", [])
    /// ```
    package func album(titled title: String, assetsOriginallyNamed names: some Sequence<String>) async throws
        -> (id: String, assets: [AssetInfo])?
    {
        // A title that cannot be an album's names no album: none to find.
        guard let title = try? AlbumTitle(title) else { return nil }
        return try await Self.mapping {
            let browsing = try await albumBrowsing()
            var id: String?
            var missing = false
            let assets = try await Self.assets(originallyNamed: names) { part in
                if let id { return try await browsing.assets(inAlbumWithID: id, originallyNamed: part) }
                guard !missing, let found = try await browsing.album(titled: title, assetsOriginallyNamed: part) else {
                    missing = true
                    return []
                }
                id = found.id
                return found.assets
            }
            if id == nil, !missing { id = try await backend.findAlbum(titled: title) }
            return id.map { ($0, assets) }
        }
    }

    /// As ``album(titled:assetsOriginallyNamed:)``, asked for now and answered by the closure it
    /// returns, as the library was now: a shared library sends it with the first request of the
    /// save that follows (one round trip fewer). `nil` where the library cannot defer it (any
    /// other kind, a title that is not one, or names too many for one query): ask now instead.
    ///
    /// ```swift
    /// let earlier = await library.albumLater(titled: "Trips", assetsOriginallyNamed: ["IMG_0001.JPG"])
    /// _ = await library.album(titled: "Trips").save(media)
    /// let versions = try await earlier?()?.assets ?? []
    /// ```
    package func albumLater(titled title: String, assetsOriginallyNamed names: [String]) async
        -> (@Sendable () async throws -> (id: String, assets: [AssetInfo])?)?
    {
        let parts = OriginalNameKey.queryParts(for: names.map(OriginalNameKey.of))
        // A title that is not one, or a library that cannot defer (its kind, or it failed to
        // open): not deferred; the caller's look-up made now reports what is wrong.
        guard parts.count == 1, let albumTitle = try? AlbumTitle(title),
            let deferring = try? await capability((any AlbumLookupDeferring).self, for: "defer a look-up")
        else { return nil }
        let answer = deferring.albumLater(titled: albumTitle, assetsOriginallyNamed: parts[0])
        return {
            try await Self.mapping {
                guard let found = try await answer() else { return nil }
                return (found.id, try await Self.assets(originallyNamed: names) { _ in found.assets })
            }
        }
    }

    /// The assets `lookUp` finds for each part of the keys of `names` (``OriginalNameKey/queryParts(for:)``),
    /// each once, and only those whose name is one asked for (Swift compares composed and decomposed
    /// forms as one), whatever a store's fold let through.
    private static func assets(
        originallyNamed names: some Sequence<String>, _ lookUp: ([String]) async throws -> [AssetInfo]
    ) async throws -> [AssetInfo] {
        var wanted = Set<String>()
        for name in names { wanted.insert(OriginalNameKey.of(name)) }
        var found: [AssetInfo] = []
        var seen = Set<String>()
        for part in OriginalNameKey.queryParts(for: wanted) {
            for asset in try await lookUp(part) where seen.insert(asset.id).inserted {
                guard let name = asset.originalFilename, wanted.contains(OriginalNameKey.of(name)) else { continue }
                found.append(asset)
            }
        }
        return found
    }

    /// A page of the album with identifier `id`, in the order its assets were added: for an album
    /// too large to list at once (a grid that shows the first screen at once, a listing printed
    /// as it is read).
    ///
    /// ```swift
    /// var page = try await library.assets(inAlbumWithID: info.id, after: nil, limit: 200)
    /// while let next = page.nextCursor {
    ///     page = try await library.assets(inAlbumWithID: info.id, after: next, limit: 200)
    /// }
    /// ```
    /// - Parameters:
    ///   - cursor: the previous page's ``AssetPage/nextCursor`` of the same album; `nil` for the
    ///     first page.
    ///   - limit: the page size, 1 or more.
    /// - Throws: `.albumNotFound`; `.invalidArgument` for a malformed cursor or a limit below 1.
    public func assets(inAlbumWithID id: String, after cursor: String?, limit: Int) async throws -> AssetPage {
        try await Self.mapping {
            guard limit >= 1 else {
                throw AlbumError(.invalidArgument, "The page size must be 1 or more, not \(limit).")
            }
            let position = try cursor.map(AssetCursor.init(albumToken:))
            _ = try await albumInfo(withID: id)
            return try await albumBrowsing().assets(inAlbumWithID: id, after: position, limit: limit)
        }
    }

    /// The assets of the album with identifier `id` from `position` on, with the album's count read
    /// with them: a grid jumps to any place of an album of a million in one read, where pages after
    /// a cursor would read every asset before it. In ``AssetOrder/dateAdded`` the album's own order
    /// (as it was filled, what ``assets(inAlbumWithID:after:limit:)`` pages); in
    /// ``AssetOrder/captureDate`` when each was taken, ties by identifier (as
    /// ``assets(orderedBy:matching:after:limit:)`` lists the album).
    ///
    /// ```swift
    /// let info = try await library.albumInfo(titled: "Trips")
    /// let middle = try await library.assets(inAlbumWithID: info.id, at: info.count / 2, limit: 100)
    /// let newest = try await library.assets(
    ///     inAlbumWithID: info.id, orderedBy: .captureDate, at: max(0, info.count - 100), limit: 100)
    /// ```
    /// - Parameters:
    ///   - position: the place of the first asset wanted, from 0; past the album's end, no assets.
    ///   - limit: how many at most, 1 or more.
    /// - Throws: `.albumNotFound`; `.invalidArgument` for a position below 0 or a limit below 1.
    public func assets(
        inAlbumWithID id: String, orderedBy order: AssetOrder = .dateAdded, at position: Int, limit: Int
    ) async throws -> AlbumSlice {
        try await Self.mapping {
            guard limit >= 1 else {
                throw AlbumError(.invalidArgument, "The page size must be 1 or more, not \(limit).")
            }
            guard position >= 0 else {
                throw AlbumError(.invalidArgument, "A position in an album is 0 or more, not \(position).")
            }
            return try await albumBrowsing().assets(inAlbumWithID: id, orderedBy: order, at: position, limit: limit)
        }
    }

    /// Every asset of the album with identifier `id` in the album's order, page by page, as one
    /// sequence: what lists a large album without holding it.
    ///
    /// ```swift
    /// for try await asset in library.allAssets(inAlbumWithID: info.id) { print(asset.id) }
    /// ```
    /// The sequence throws `.albumNotFound` when the album is not there.
    public func allAssets(inAlbumWithID id: String, pageSize: Int = 500) -> AsyncThrowingStream<AssetInfo, any Error> {
        let library = self
        return Self.paged { cursor in try await library.assets(inAlbumWithID: id, after: cursor, limit: pageSize) }
    }

    /// The assets of the pages `page` gives, from the first (a `nil` cursor) to the one without a
    /// next cursor, as one sequence that stops reading when its consumer goes away.
    static func paged(_ page: @escaping @Sendable (String?) async throws -> AssetPage)
        -> AsyncThrowingStream<AssetInfo, any Error>
    {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var cursor: String?
                    repeat {
                        let next = try await page(cursor)
                        for asset in next.assets { continuation.yield(asset) }
                        cursor = next.nextCursor
                    } while cursor != nil && !Task.isCancelled
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Renames the album with identifier `id`.
    ///
    /// ```swift
    /// try await library.renameAlbum(withID: info.id, to: "Trips 2026")
    /// ```
    public func renameAlbum(withID id: String, to newTitle: String) async throws {
        try await Self.mapping {
            let newTitle = try AlbumTitle(newTitle)
            _ = try await albumInfo(withID: id)
            try await albumEditing().renameAlbum(id: id, to: newTitle)
        }
    }

    /// Deletes the album with identifier `id` (see ``deleteAlbum(titled:force:permanently:)``).
    ///
    /// ```swift
    /// try await library.deleteAlbum(withID: info.id)
    /// ```
    @discardableResult
    public func deleteAlbum(withID id: String, force: Bool = false, permanently: Bool = false) async throws
        -> DeletedAlbum
    {
        try await Self.mapping {
            let info = try await albumInfo(withID: id)
            let receipt = try await albumEditing().deleteAlbum(id: id, force: force, permanently: permanently)
            return DeletedAlbum(
                id: id, title: receipt.albums.first?.title ?? info.title,
                trashURL: receipt.trashPath.map { URL(fileURLWithPath: $0) }, albums: receipt.albums)
        }
    }

    /// Adds existing assets to the album with identifier `albumID`, after its current ones; an
    /// asset already there stays where it is. Returns the assets' identifiers in the album (a
    /// folder library gives the album its own copy, with its own identifier).
    ///
    /// ```swift
    /// try await library.addAssets(withIDs: [asset.id], toAlbumWithID: favourites.id)
    /// ```
    /// - Throws: `.albumNotFound`; `.assetNotFound` (nothing was added).
    @discardableResult
    public func addAssets(withIDs ids: [String], toAlbumWithID albumID: String) async throws -> [String] {
        try await Self.mapping {
            guard !ids.isEmpty else { return [] }
            return try await capability((any AlbumEditing).self, orThrow: .singleAssetsNotSupported).addAssets(
                Self.unique(ids), toAlbumWithID: albumID)
        }
    }

    /// Adds existing assets to the album titled `title` (which must exist).
    ///
    /// ```swift
    /// try await library.addAssets(withIDs: [asset.id], toAlbumTitled: "Favourites")
    /// ```
    @discardableResult
    public func addAssets(withIDs ids: [String], toAlbumTitled title: String) async throws -> [String] {
        try await Self.mapping { try await addAssets(withIDs: ids, toAlbumWithID: try await existingAlbumID(title)) }
    }

    /// Removes assets from the album with identifier `albumID`; they stay in the library.
    ///
    /// ```swift
    /// try await library.removeAssets(withIDs: [asset.id], fromAlbumWithID: info.id)
    /// ```
    /// - Throws: `.albumNotFound`; `.assetNotFound` for an asset not in the album (nothing was removed).
    public func removeAssets(withIDs ids: [String], fromAlbumWithID albumID: String) async throws {
        try await Self.mapping {
            guard !ids.isEmpty else { return }
            try await capability((any AlbumEditing).self, orThrow: .singleAssetsNotSupported).removeAssets(
                Self.unique(ids), fromAlbumWithID: albumID)
        }
    }

    /// Removes assets from the album titled `title`; they stay in the library.
    ///
    /// ```swift
    /// try await library.removeAssets(withIDs: [asset.id], fromAlbumTitled: "Trips")
    /// ```
    public func removeAssets(withIDs ids: [String], fromAlbumTitled title: String) async throws {
        try await Self.mapping {
            try await removeAssets(withIDs: ids, fromAlbumWithID: try await existingAlbumID(title))
        }
    }

    /// Deletes assets from the library and from every album, recoverably: a catalog moves them to
    /// its recently deleted (``restoreAssets(withIDs:)`` brings them back), a folder library moves
    /// the files to the Trash, Photos asks the user and keeps them in "Recently Deleted".
    ///
    /// ```swift
    /// let deleted = try await library.deleteAssets(withIDs: [asset.id])
    /// ```
    /// - Throws: `.assetNotFound` (nothing was deleted).
    @discardableResult
    public func deleteAssets(withIDs ids: [String]) async throws -> [AssetDeletion] {
        try await Self.mapping {
            guard !ids.isEmpty else { return [] }
            return try await capability((any AssetDeleting).self, orThrow: .singleAssetsNotSupported).deleteAssets(
                Self.unique(ids))
        }
    }

    /// Deletes assets for good: a catalog removes their files (recently deleted ones too), a
    /// folder library skips the Trash.
    ///
    /// ```swift
    /// try await library.deleteAssets(withIDs: [asset.id], permanently: true)
    /// ```
    /// - Throws: `.assetNotFound` (nothing was deleted); `.notSupported` where the library has no
    ///   permanent deletion of its own (Photos).
    @discardableResult
    public func deleteAssets(withIDs ids: [String], permanently: Bool) async throws -> [AssetDeletion] {
        guard permanently else { return try await deleteAssets(withIDs: ids) }
        return try await Self.mapping {
            guard !ids.isEmpty else { return [] }
            return try await capability((any PermanentDeleting).self, orThrow: .recentlyDeletedNotSupported)
                .deleteAssetsPermanently(Self.unique(ids))
        }
    }

    /// The recently deleted assets, most recently deleted first, with when each was deleted.
    ///
    /// ```swift
    /// for item in try await library.recentlyDeletedAssets() { print(item.asset.id, item.deletedAt) }
    /// ```
    /// - Throws: `.notSupported` where the library keeps no recently deleted of its own (a folder
    ///   library uses the desktop Trash, Photos its own album).
    public func recentlyDeletedAssets() async throws -> [RecentlyDeletedAsset] {
        try await Self.mapping { try await recentlyDeletedKeeping().recentlyDeletedAssets() }
    }

    /// Brings recently deleted assets back, into the albums they were in.
    ///
    /// ```swift
    /// try await library.restoreAssets(withIDs: [asset.id])
    /// ```
    /// - Throws: `.assetNotFound` for an id that is not recently deleted (nothing restored).
    public func restoreAssets(withIDs ids: [String]) async throws {
        try await Self.mapping {
            guard !ids.isEmpty else { return }
            try await recentlyDeletedKeeping().restoreAssets(Self.unique(ids))
        }
    }

    /// Deletes for good what was deleted before `date` (default: 30 days ago); returns how many.
    ///
    /// ```swift
    /// let removed = try await library.emptyRecentlyDeleted()
    /// ```
    @discardableResult
    public func emptyRecentlyDeleted(deletedBefore date: Date = Date(timeIntervalSinceNow: -30 * 86_400))
        async throws -> Int
    {
        try await Self.mapping { try await recentlyDeletedKeeping().purgeRecentlyDeleted(before: date) }
    }

    /// The backend as a library that keeps recently deleted assets.
    private func recentlyDeletedKeeping() async throws -> any RecentlyDeletedKeeping {
        try await capability((any RecentlyDeletedKeeping).self, orThrow: .recentlyDeletedNotSupported)
    }

    /// `ids` without repeats, in their first order.
    private static func unique(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }
}
