import AlbumKit

/// The assets at a position of an album, for the album grid: "assets 700 000 to 700 100" is one
/// read of the library at that position (``PhotoLibrary/assets(inAlbumWithID:orderedBy:at:limit:)``),
/// whatever the album's size and wherever the grid jumps; nothing is remembered between requests,
/// so every server over one library answers alike.
///
/// ```swift
/// let slice = try await AlbumPositions.assets(of: library, album: albumID, from: 700_000, limit: 100)
/// ```
package enum AlbumPositions {
    /// At most `limit` assets of album `id` from `offset` (clamped to 0 and 1, the album's count
    /// read with them).
    package static func assets(
        of library: PhotoLibrary, album id: String, order: AssetOrder = .dateAdded, from offset: Int, limit: Int
    ) async throws -> AlbumSlice {
        try await library.assets(inAlbumWithID: id, orderedBy: order, at: max(0, offset), limit: max(1, limit))
    }
}
