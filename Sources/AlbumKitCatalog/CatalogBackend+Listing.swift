import AlbumKitCore
import Foundation

/// Pages of the whole library and of one album, each a seek in an index of the catalog: the
/// listing keys are raw columns (`added_key`, `taken_key`, an album's `position`), so the first
/// page of a million assets costs what the first page of ten does.
extension CatalogBackend {
    package func assets(in order: AssetOrder, after cursor: AssetCursor?, limit: Int) async throws -> AssetPage {
        try await assets(in: order, matching: .all, after: cursor, limit: limit)
    }

    /// The kinds, the order's dates and the album are conditions of the query; what only the asset
    /// itself tells (the camera, the place, the name, …) is judged on each row read, a scan that goes
    /// on until the page is full or the listing ends.
    package func assets(in order: AssetOrder, matching filter: AssetFilter, after cursor: AssetCursor?, limit: Int)
        async throws -> AssetPage
    {
        guard filter.readsEachAsset else {
            let query = try CatalogListing(order: order, filter: filter, after: cursor)
            return try await Blocking.run {
                try self.withIndex("list the library") { connection in
                    let rows = try connection.index!.db.rows(query.sql, query.arguments(limit: limit + 1))
                    let page = Array(rows.prefix(limit))
                    var next: String?
                    if rows.count > limit, let last = page.last, let id = last.text(0) {
                        next = AssetCursor(key: CatalogListing.key(from: last.values[10], in: order), id: id).token
                    }
                    return AssetPage(assets: try page.map(self.assetInfo), nextCursor: next)
                }
            }
        }
        var found: [(asset: AssetInfo, cursor: AssetCursor)] = []
        var position = cursor
        // Read in chunks, each its own short hold of the index, so a scan of a large library lets
        // saves in between.
        let chunk = max(limit + 1, 500)
        while found.count <= limit {
            let query = try CatalogListing(order: order, filter: filter, after: position)
            let (rows, last) = try await Blocking.run {
                try self.withIndex("list the library") { connection in
                    let rows = try connection.index!.db.rows(query.sql, query.arguments(limit: chunk))
                    let last = rows.last.flatMap { row in
                        row.text(0).map {
                            AssetCursor(key: CatalogListing.key(from: row.values[10], in: order), id: $0)
                        }
                    }
                    return (
                        try rows.map { row in
                            (asset: try self.assetInfo(row), key: CatalogListing.key(from: row.values[10], in: order))
                        }, last
                    )
                }
            }
            for row in rows where filter.matches(row.asset, in: order) {
                found.append((row.asset, AssetCursor(key: row.key, id: row.asset.id)))
                if found.count > limit { break }
            }
            guard rows.count == chunk, let last else { break }
            position = last
        }
        let page = found.prefix(limit)
        let next = found.count > limit ? page.last?.cursor.token : nil
        return AssetPage(assets: page.map(\.asset), nextCursor: next)
    }

    package func assets(inAlbumWithID id: String, after cursor: AssetCursor?, limit: Int) async throws -> AssetPage {
        let position = try cursor.map { try CatalogListing.albumPosition($0) } ?? 0
        return try await Blocking.run {
            try self.withIndex("list the album") { connection in
                let rows = try connection.index!.db.rows(
                    CatalogListing.albumPageSQL, [.text(id), .integer(position), .integer(Int64(limit) + 1)])
                let page = Array(rows.prefix(limit))
                var next: String?
                if rows.count > limit, let last = page.last, let id = last.text(0), let position = last.integer(10) {
                    next = AssetCursor(key: String(position), id: id).token
                }
                return AssetPage(assets: try page.map(self.assetInfo), nextCursor: next)
            }
        }
    }

    /// The album's count and blocks are read with the slice, in one hold of the index: in the
    /// album's order a sum of the blocks' kept counts (``CatalogSchema/albumBlockSize`` places
    /// each) finds the block, then one seek and a step through that block at most; by capture date
    /// a step through `album_asset_taken` as far as the position: through the index alone when no
    /// member is recently deleted (1 000 000 members: 0.1–0.2 s to the end), else reading each
    /// member's asset on the way (10–15 s).
    package func assets(inAlbumWithID id: String, orderedBy order: AssetOrder, at position: Int, limit: Int)
        async throws -> AlbumSlice
    {
        try await Blocking.run {
            try self.withIndex("list the album") { connection in
                let db = connection.index!.db
                guard let count = try db.row("SELECT ready_count FROM album WHERE id = ?", [.text(id)])?.integer(0)
                else {
                    throw AlbumError(.albumNotFound, "There is no album with the identifier \(id).")
                }
                guard position < count else {
                    return AlbumSlice(assets: [], position: position, albumCount: Int(count))
                }
                let rows: [Row]
                switch order {
                case .dateAdded:
                    var before: Int64 = 0
                    var block: Int64 = 0
                    let wanted = Int64(position)
                    let statement = try db.statement(CatalogListing.albumBlocksSQL)
                    try statement.bind([.text(id)])
                    defer { statement.reset() }
                    while let row = try statement.step(), let number = row.integer(0), let counted = row.integer(1) {
                        if before + counted > wanted {
                            block = number
                            break
                        }
                        before += counted
                    }
                    rows = try db.rows(
                        CatalogListing.albumPlaceSQL,
                        [
                            .text(id), .integer(block * CatalogSchema.albumBlockSize), .integer(Int64(limit)),
                            .integer(wanted - before),
                        ])
                case .captureDate:
                    let members = try db.row(CatalogListing.albumMembersSQL, [.text(id)])?.integer(0) ?? -1
                    if members == count {
                        // Every member is listed: the place is a step through the index alone (no
                        // asset read for the places before it), then a seek from the asset there.
                        let start = try db.row(
                            CatalogListing.albumTakenStartSQL, [.text(id), .integer(Int64(position))])
                        if let start, let key = start.text(0), let asset = start.text(1) {
                            rows = try db.rows(
                                CatalogListing.albumTakenFromSQL,
                                [.text(id), .text(key), .text(asset), .integer(Int64(limit))])
                        } else {
                            rows = []
                        }
                    } else {
                        rows = try db.rows(
                            CatalogListing.albumTakenPlaceSQL,
                            [.text(id), .integer(Int64(limit)), .integer(Int64(position))])
                    }
                }
                return AlbumSlice(assets: try rows.map(self.assetInfo), position: position, albumCount: Int(count))
            }
        }
    }
}

/// One page's query of the whole library in an order, with a filter: per kind listed, a seek in
/// that order's index (`asset_by_added` or `asset_by_taken`, whose first column is the kind),
/// merged by key and id as the rows are read (no sort, not even of a page).
///
/// ```swift
/// let query = try CatalogListing(order: .captureDate, filter: .videos, after: nil)
/// let rows = try db.rows(query.sql, query.arguments(limit: 101))
/// ```
struct CatalogListing {
    let sql: String
    private let cursor: (key: SQLValue, id: String)?
    private let bounds: (lower: SQLValue, upper: SQLValue)?
    private let albumID: String?

    /// The columns of every listing row: ``CatalogBackend/assetInfo(_:)``'s ten, then the key.
    static let columns =
        "s.id, s.original_name, s.kind, s.byte_size, s.added_at, s.sha256, s.path, s.metadata, s.favorite, s.companions"

    /// The raw column holding `order`'s sort key.
    static func keyColumn(_ order: AssetOrder) -> String {
        switch order {
        case .dateAdded: "added_key"
        case .captureDate: "taken_key"
        }
    }

    /// - Throws: `.invalidArgument` for a cursor whose key is not one of `order`.
    init(order: AssetOrder, filter: AssetFilter, after cursor: AssetCursor?) throws {
        self.cursor = try cursor.map { (key: try Self.value(ofKey: $0.key, in: order), id: $0.id) }
        self.bounds = try filter.keyBounds(in: order).map {
            (lower: try Self.value(ofKey: $0.lower, in: order), upper: try Self.value(ofKey: $0.upper, in: order))
        }
        let column = "s." + Self.keyColumn(order)
        var conditions = ["s.state = 'ready'"]
        if self.cursor != nil { conditions.append("(\(column), s.id) > (?1, ?2)") }
        if bounds != nil { conditions.append("\(column) >= ?3 AND \(column) < ?4") }
        albumID = filter.albumID
        if albumID != nil {
            // A lookup in `album_asset`'s primary key per asset read.
            conditions.append("EXISTS (SELECT 1 FROM album_asset m WHERE m.album_id = ?6 AND m.asset_id = s.id)")
        }
        let kinds = MediaKind.allCases.filter { filter.kinds?.contains($0) ?? true }.map(\.rawValue)
        // One seek per kind in its order, merged as they are read (SQLite's merge of a compound
        // select, each side read only as far as the page needs): nothing is sorted.
        let parts = kinds.map { kind in
            """
            SELECT \(Self.columns), \(column) AS listing_key FROM asset s
            WHERE s.kind = '\(kind)' AND \(conditions.joined(separator: " AND "))
            """
        }
        sql =
            parts.isEmpty
            ? "SELECT \(Self.columns), NULL FROM asset s WHERE 0 LIMIT ?5"
            : parts.joined(separator: "\nUNION ALL\n") + "\nORDER BY listing_key, id LIMIT ?5"
    }

    /// The query's arguments for a page of `limit` rows.
    func arguments(limit: Int) -> [SQLValue] {
        [
            cursor?.key ?? .null, .text(cursor?.id ?? ""), bounds?.lower ?? .null, bounds?.upper ?? .null,
            .integer(Int64(limit)),
        ] + (albumID.map { [.text($0)] } ?? [])
    }

    /// A sort key of `order` (``AssetOrder/sortKey(of:)``) as its column holds it: the date added's
    /// `%017.6f` as integer microseconds, the capture date's text as it is.
    ///
    /// - Throws: `.invalidArgument` for a key that is not of `order`.
    static func value(ofKey key: String, in order: AssetOrder) throws -> SQLValue {
        switch order {
        case .captureDate:
            return .text(key)
        case .dateAdded:
            let parts = key.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].utf8.count == 6, parts[0].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int64(parts[0] + parts[1])
            else {
                throw AlbumError(
                    .invalidArgument,
                    "\"\(key)\" is not a position in a listing by date added; pass the cursor the previous page gave.")
            }
            return .integer(value)
        }
    }

    /// The sort key of `order` a column value stands for (the inverse of ``value(ofKey:in:)``).
    static func key(from value: SQLValue, in order: AssetOrder) -> String {
        switch (order, value) {
        case (.dateAdded, .integer(let microseconds)):
            let seconds = String(microseconds / 1_000_000)
            let fraction = String(microseconds % 1_000_000)
            return String(repeating: "0", count: max(0, 10 - seconds.count)) + seconds + "."
                + String(repeating: "0", count: 6 - fraction.count) + fraction
        case (_, .text(let text)): return text
        default: return ""
        }
    }

    /// A page of an album in its order, after position `?2`: a seek in `album_asset_order`.
    static let albumPageSQL = """
        SELECT \(columns.replacingOccurrences(of: "s.added_at", with: "m.added_at")), m.position
        FROM album_asset m JOIN asset s ON s.id = m.asset_id
        WHERE m.album_id = ?1 AND m.position > ?2 AND s.state = 'ready' ORDER BY m.position LIMIT ?3
        """

    /// An album's blocks in its order with their kept counts: a seek in `album_block`.
    static let albumBlocksSQL = """
        SELECT block, ready_count FROM album_block WHERE album_id = ?1 AND ready_count > 0 ORDER BY block
        """

    /// `?3` assets of album `?1` in its order from its `?4`th one not recently deleted at or after
    /// position `?2` (the start of a block): a seek in `album_asset_order`, then a step through one
    /// block at most.
    static let albumPlaceSQL = """
        SELECT \(columns.replacingOccurrences(of: "s.added_at", with: "m.added_at")), m.position
        FROM album_asset m JOIN asset s ON s.id = m.asset_id
        WHERE m.album_id = ?1 AND m.position >= ?2 AND s.state = 'ready' ORDER BY m.position LIMIT ?3 OFFSET ?4
        """

    /// `?2` assets of album `?1` by capture key and id from its `?3`th one not recently deleted: a
    /// step through `album_asset_taken` (whose rows end with the asset's id), nothing sorted.
    static let albumTakenPlaceSQL = """
        SELECT \(columns.replacingOccurrences(of: "s.added_at", with: "m.added_at")), m.position
        FROM album_asset m INDEXED BY album_asset_taken JOIN asset s ON s.id = m.asset_id
        WHERE m.album_id = ?1 AND s.state = 'ready' ORDER BY m.taken_key, m.asset_id LIMIT ?2 OFFSET ?3
        """

    /// How many memberships album `?1` has, recently deleted assets' included: a count over
    /// `album_asset_order`'s entries for the album, no asset read.
    static let albumMembersSQL = "SELECT count(*) FROM album_asset WHERE album_id = ?1"

    /// The capture key and asset of album `?1`'s `?2`th membership by capture key and id: a step
    /// through `album_asset_taken` alone (right when no member is recently deleted).
    static let albumTakenStartSQL = """
        SELECT taken_key, asset_id FROM album_asset INDEXED BY album_asset_taken
        WHERE album_id = ?1 ORDER BY taken_key, asset_id LIMIT 1 OFFSET ?2
        """

    /// `?4` assets of album `?1` by capture key and id from key `?2` and asset `?3` on: a seek in
    /// `album_asset_taken`.
    static let albumTakenFromSQL = """
        SELECT \(columns.replacingOccurrences(of: "s.added_at", with: "m.added_at")), m.position
        FROM album_asset m INDEXED BY album_asset_taken JOIN asset s ON s.id = m.asset_id
        WHERE m.album_id = ?1 AND (m.taken_key, m.asset_id) >= (?2, ?3) AND s.state = 'ready'
        ORDER BY m.taken_key, m.asset_id LIMIT ?4
        """

    /// The position in the album an album page's cursor holds.
    ///
    /// - Throws: `.invalidArgument` for a cursor of another listing.
    static func albumPosition(_ cursor: AssetCursor) throws -> Int64 {
        guard let position = Int64(cursor.key), position >= 0 else {
            throw AlbumError(
                .invalidArgument,
                "\"\(cursor.token)\" is not a position in an album; pass the cursor the album's previous page gave.")
        }
        return position
    }
}
