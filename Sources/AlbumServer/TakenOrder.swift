import AlbumKit
import AlbumKitMedia

/// An album's assets in the order they were taken, read once through the library's public listing
/// (``Album/assets(orderedBy:matching:after:limit:)`` in ``AssetOrder/captureDate``) and kept while
/// the album's count stays the same and for at most 30 s, so the grid's pages of one album cost one
/// listing, not one each. A change of the count (a photo saved or removed) reads it again.
///
/// ```swift
/// let page = try await takenOrder.assets(of: library, album: info.id, count: info.count, from: 700, limit: 100)
/// ```
final class TakenOrder: Sendable {
    private struct Entry {
        var count: Int
        var assets: [AssetInfo]
        var read: ContinuousClock.Instant
    }
    private let entries = Locked<[String: Entry]>([:])

    func assets(of library: PhotoLibrary, album id: String, count: Int, from offset: Int, limit: Int) async throws
        -> [AssetInfo]
    {
        let now = ContinuousClock.now
        let kept = entries.withLock { entries -> [AssetInfo]? in
            guard let entry = entries[id], entry.count == count, now - entry.read < .seconds(30) else { return nil }
            return entry.assets
        }
        let assets: [AssetInfo]
        if let kept {
            assets = kept
        } else {
            let album = try await library.album(withID: id, accessPolicy: .requireAlbum)
            assets = try await album.assets(orderedBy: .captureDate, after: nil, limit: max(1, count)).assets
            entries.withLock { entries in
                if entries.count > 16 { entries.removeAll() }
                entries[id] = Entry(count: count, assets: assets, read: now)
            }
        }
        guard offset < assets.count else { return [] }
        return Array(assets[offset..<min(assets.count, offset + limit)])
    }
}
