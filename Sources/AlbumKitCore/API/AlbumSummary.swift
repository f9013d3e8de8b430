import Foundation

/// An album in brief: how many photos and videos, their size, and when the first and the last were
/// taken; what ``PhotoLibrary/albumSummaries()`` gives for each album.
///
/// ```swift
/// for summary in try await library.albumSummaries() {
///     print(summary.albumID, summary.count, summary.byteSize, summary.firstTaken ?? "-", summary.lastTaken ?? "-")
/// }
/// ```
public struct AlbumSummary: Sendable, Hashable {
    /// The album's ``AlbumInfo/id``.
    public let albumID: String
    /// How many photos and videos it holds.
    public let count: Int
    /// Their bytes, originals only (sidecars and raws kept with a photo aside).
    public let byteSize: Int64
    /// When its first photo or video was taken, as the camera's clock showed it
    /// (`2024-05-01T10:20:30`; one without a capture date by its date added, in UTC); `nil` when empty.
    public let firstTaken: String?
    /// When its last one was taken, as ``firstTaken``.
    public let lastTaken: String?

    /// A summary.
    public init(albumID: String, count: Int, byteSize: Int64, firstTaken: String?, lastTaken: String?) {
        self.albumID = albumID
        self.count = count
        self.byteSize = byteSize
        self.firstTaken = firstTaken
        self.lastTaken = lastTaken
    }

    /// The summary of `assets`, the album `albumID`'s.
    package init(albumID: String, assets: [AssetInfo]) {
        let keys = assets.map { AssetOrder.captureDate.sortKey(of: $0) }
        self.init(
            albumID: albumID, count: assets.count, byteSize: assets.reduce(0) { $0 + ($1.byteSize ?? 0) },
            firstTaken: keys.min(), lastTaken: keys.max())
    }
}
