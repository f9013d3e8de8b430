/// A run of an album's assets from a position, and how many the album held when it was read:
/// what ``PhotoLibrary/assets(inAlbumWithID:orderedBy:at:limit:)`` gives, for a grid that shows
/// any place of an album at once (its scroll height from ``albumCount``, the cells in view from
/// ``assets``).
///
/// ```swift
/// let slice = try await library.assets(inAlbumWithID: info.id, at: 70_000, limit: 100)
/// print("\(slice.position + 1)–\(slice.position + slice.assets.count) of \(slice.albumCount)")
/// ```
public struct AlbumSlice: Sendable, Hashable {
    /// The assets from ``position`` on, in the requested order; empty past the album's end.
    public let assets: [AssetInfo]
    /// The place of the first asset in the album, from 0.
    public let position: Int
    /// How many assets the album held when this slice was read.
    public let albumCount: Int

    /// Creates a slice.
    public init(assets: [AssetInfo], position: Int, albumCount: Int) {
        self.assets = assets
        self.position = position
        self.albumCount = albumCount
    }
}
