/// A library that lists its albums and assets (every kind AlbumKit has).
///
/// ```swift
/// let browsing = try await library.capability((any AlbumBrowsing).self, for: "list its albums")
/// for album in try await browsing.albums() { print(album.title) }
/// ```
package protocol AlbumBrowsing: LibraryBackend {
    /// Every album, oldest first.
    func albums() async throws -> [AlbumInfo]

    /// The album with identifier `id`, `nil` when there is none: that album looked up, never
    /// found in a listing of them all (each kind implements it; there is no default).
    func album(withID id: String) async throws -> AlbumInfo?

    /// Every album's title, oldest first: without counting what each holds, where that costs.
    /// Default: the titles of ``albums()``.
    func albumTitles() async throws -> [String]

    /// The assets of an album, in the order they were added.
    func assets(inAlbumWithID id: String) async throws -> [AssetInfo]

    /// The assets of album `id` whose original file name's ``OriginalNameKey`` is one of `keys`
    /// (keys already folded, at most ``OriginalNameKey/chunkSize`` of them), in any order; none
    /// for an album that is not there. Found by name — an index's seek, a look-up in the
    /// album's folder — never by reading the album's other assets (each kind implements it; there
    /// is no default). ``PhotoLibrary/assets(inAlbumWithID:originallyNamed:)`` asks for it.
    func assets(inAlbumWithID id: String, originallyNamed keys: [String]) async throws -> [AssetInfo]

    /// The album `title` resolves to (``LibraryBackend/findAlbum(titled:)``, nothing created)
    /// with its assets of ``assets(inAlbumWithID:originallyNamed:)`` for `keys`; `nil` when no
    /// album resolves. The default asks one, then the other; the shared library asks both at once.
    func album(titled title: AlbumTitle, assetsOriginallyNamed keys: [String]) async throws
        -> (id: String, assets: [AssetInfo])?

    /// At most `limit` (≥ 1) assets of an album in its order, after `cursor` (`nil`: from the
    /// start). The default pages ``assets(inAlbumWithID:)``; the catalog seeks in its index.
    func assets(inAlbumWithID id: String, after cursor: AssetCursor?, limit: Int) async throws -> AssetPage

    /// At most `limit` (≥ 1) assets of an album from `position` (≥ 0) in `order` (``AssetOrder/dateAdded``:
    /// the album's own order, as it was filled; ``AssetOrder/captureDate``: by capture key, then id),
    /// with the album's count read with them. The default slices ``assets(inAlbumWithID:)``; the
    /// catalog seeks in its index.
    func assets(inAlbumWithID id: String, orderedBy order: AssetOrder, at position: Int, limit: Int)
        async throws -> AlbumSlice

    /// At most `limit` (≥ 1) assets of the whole library — in albums or not — in `order`, after
    /// `cursor` (`nil`: from the start). Sort by ``AssetOrder/sortKey(of:)`` then id, and make the
    /// next cursor from the last asset returned, so pages never repeat or skip an asset that stays
    /// (``AssetCursor/page(of:in:after:limit:)`` does it for a list in memory).
    func assets(in order: AssetOrder, after cursor: AssetCursor?, limit: Int) async throws -> AssetPage

    /// As ``assets(in:after:limit:)``, only assets that pass `filter`. The default scans pages of
    /// ``assets(in:after:limit:)`` from the filter's first date and stops at its last; a backend
    /// that can filter where it stores (a query) replaces it.
    func assets(in order: AssetOrder, matching filter: AssetFilter, after cursor: AssetCursor?, limit: Int)
        async throws -> AssetPage
}

extension AlbumBrowsing {
    /// ``findAlbum(titled:)``, then ``assets(inAlbumWithID:originallyNamed:)``.
    package func album(titled title: AlbumTitle, assetsOriginallyNamed keys: [String]) async throws
        -> (id: String, assets: [AssetInfo])?
    {
        guard let id = try await findAlbum(titled: title) else { return nil }
        return (id, try await assets(inAlbumWithID: id, originallyNamed: keys))
    }

    /// The titles of ``albums()``.
    package func albumTitles() async throws -> [String] { try await albums().map(\.title) }

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

    /// ``listedSlice(inAlbumWithID:orderedBy:at:limit:)``.
    package func assets(inAlbumWithID id: String, orderedBy order: AssetOrder, at position: Int, limit: Int)
        async throws -> AlbumSlice
    {
        try await listedSlice(inAlbumWithID: id, orderedBy: order, at: position, limit: limit)
    }

    /// A slice of ``assets(inAlbumWithID:)`` (sorted by capture key and id for
    /// ``AssetOrder/captureDate``, as ``AssetCursor/sorted(_:in:)`` sorts a listing).
    package func listedSlice(inAlbumWithID id: String, orderedBy order: AssetOrder, at position: Int, limit: Int)
        async throws -> AlbumSlice
    {
        let all = try await assets(inAlbumWithID: id)
        let ordered = order == .captureDate ? AssetCursor.sorted(all, in: order) : all
        let start = min(ordered.count, max(0, position))
        let end = min(ordered.count, start + max(1, limit))
        return AlbumSlice(assets: Array(ordered[start..<end]), position: position, albumCount: ordered.count)
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

    /// The library's changes found by reading it again every `interval` (``LibraryChangePoller``):
    /// what a kind that cannot be told of its changes gives; `started` as the poller calls it.
    package func polledChanges(every interval: Duration, started: @escaping @Sendable () -> Void = {})
        -> AsyncThrowingStream<LibraryChange, any Error>
    {
        LibraryChangePoller(backend: self, interval: interval).changes(started: started)
    }
}
