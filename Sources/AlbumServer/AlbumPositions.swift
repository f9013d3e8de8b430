import AlbumKit
import AlbumKitMedia

/// Finds the assets at any position of an album whose listing is paged by keys (a cursor per
/// page): the album grid asks for "assets 700 000 to 700 100", the library answers "the page after
/// this cursor". The cursor at every 500th position is remembered as pages are read, so a position
/// is reached from the nearest one known, and read once per album and count (a change of the
/// album's count forgets its cursors).
///
/// ```swift
/// let assets = try await positions.assets(of: library, album: albumID, count: info.count, from: 700_000, limit: 100)
/// ```
package final class AlbumPositions: Sendable {
    package static let stride = 500
    /// Per album: the count the cursors were read at, and the cursor before each `stride`th asset.
    private let cursors = Locked<[String: (count: Int, cursors: [String?])]>([:])

    package init() {}

    package func assets(of library: PhotoLibrary, album id: String, count: Int, from offset: Int, limit: Int)
        async throws -> [AssetInfo]
    {
        guard offset >= 0, offset < count, limit > 0 else { return [] }
        let stride = Self.stride
        let wanted = offset / stride
        var known = cursors.withLock { table -> [String?] in
            if let entry = table[id], entry.count == count { return entry.cursors }
            table[id] = (count, [nil])
            return [nil]
        }
        while known.count <= wanted {
            let page = try await library.assets(inAlbumWithID: id, after: known[known.count - 1], limit: stride)
            guard let next = page.nextCursor, page.assets.count == stride else { return [] }
            known.append(next)
        }
        let remembered = known
        cursors.withLock { table in
            if let entry = table[id], entry.count == count, entry.cursors.count < remembered.count {
                table[id] = (count, remembered)
            }
        }
        var found: [AssetInfo] = []
        var cursor = known[wanted]
        var skip = offset - wanted * stride
        while found.count < limit {
            // Only as many as are wanted from here (the first screen reads 100, not 500).
            let page = try await library.assets(
                inAlbumWithID: id, after: cursor, limit: min(stride, skip + limit - found.count))
            found += page.assets.dropFirst(skip).prefix(limit - found.count)
            skip = max(0, skip - page.assets.count)
            guard let next = page.nextCursor, !page.assets.isEmpty else { break }
            cursor = next
        }
        return found
    }
}
