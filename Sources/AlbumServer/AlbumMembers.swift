import AlbumKit
import AlbumKitMedia

/// Which assets an album holds, for answering a guest (who may reach only the assets of their
/// link's album): read from the library, and kept at most 2 s, so an asset just added is found at
/// once (a miss reads again, at most twice a second per album) and one removed from the album is
/// out of a guest's reach within 2 s.
///
/// ```swift
/// guard try members.contains(assetID, album: link.albumID, library: library) else { return notFound }
/// ```
final class AlbumMembers: Sendable {
    private struct Entry {
        var ids: Set<String>
        var read: ContinuousClock.Instant
    }
    private let entries = Locked<[String: Entry]>([:])

    func contains(_ asset: String, album: String, library: PhotoLibrary) throws -> Bool {
        let now = ContinuousClock.now
        if let entry = entries.withLock({ $0[album] }) {
            if now - entry.read < .seconds(2), entry.ids.contains(asset) { return true }
            if now - entry.read < .milliseconds(500) { return false }
        }
        let ids = Set(try Waiting.result { try await library.assets(inAlbumWithID: album) }.map(\.id))
        entries.withLock { entries in
            if entries.count > 64 { entries.removeAll() }
            entries[album] = Entry(ids: ids, read: now)
        }
        return ids.contains(asset)
    }
}
