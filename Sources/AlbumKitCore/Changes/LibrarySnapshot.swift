/// What a library held at one moment, as far as changes are concerned: each asset's description
/// and each album's title and members. Two snapshots' difference is a ``LibraryChange``.
package struct LibrarySnapshot: Sendable, Equatable {
    /// Asset id → its description.
    package var assets: [String: AssetInfo] = [:]
    /// Album id → title and member ids in order.
    package var albums: [String: Album] = [:]
    /// The order assets and albums were first seen in, so reported ids keep the library's order.
    package var assetOrder: [String] = []
    package var albumOrder: [String] = []

    package struct Album: Sendable, Equatable {
        package var title: String
        package var members: [String]
    }

    package init() {}

    /// Reads `backend` whole: its albums and their members, and every asset (from the library's
    /// listing, or — where the library cannot list every asset — from the albums).
    package static func read(_ backend: some AlbumBrowsing) async throws -> LibrarySnapshot {
        var snapshot = LibrarySnapshot()
        for album in try await backend.albums() {
            let members = try await backend.assets(inAlbumWithID: album.id)
            snapshot.albums[album.id] = Album(title: album.title, members: members.map(\.id))
            snapshot.albumOrder.append(album.id)
            for asset in members where snapshot.assets[asset.id] == nil {
                snapshot.assets[asset.id] = asset
                snapshot.assetOrder.append(asset.id)
            }
        }
        do {
            var listed: [String: AssetInfo] = [:]
            var order: [String] = []
            var cursor: AssetCursor?
            repeat {
                let page = try await backend.assets(in: .dateAdded, after: cursor, limit: 1000)
                for asset in page.assets where listed[asset.id] == nil {
                    listed[asset.id] = asset
                    order.append(asset.id)
                }
                // The backend made this cursor: it always parses; `nil` would only end the listing.
                cursor = page.nextCursor.flatMap { try? AssetCursor(token: $0, order: .dateAdded) }
            } while cursor != nil
            // The library's own listing describes each asset (an album listing's date is when it
            // joined that album).
            snapshot.assets = listed
            snapshot.assetOrder = order
        } catch let error as AlbumError where error.code == .notSupported {
            // Only the albums' assets can be seen.
        }
        return snapshot
    }

    /// What changed from `self` to `after`.
    package func changes(to after: LibrarySnapshot) -> LibraryChange {
        var change = LibraryChange()
        change.insertedAssetIDs = after.assetOrder.filter { assets[$0] == nil }
        change.removedAssetIDs = assetOrder.filter { after.assets[$0] == nil }
        change.changedAssetIDs = after.assetOrder.filter { id in
            guard let before = assets[id], let now = after.assets[id] else { return false }
            return before != now
        }
        change.insertedAlbumIDs = after.albumOrder.filter { albums[$0] == nil }
        change.removedAlbumIDs = albumOrder.filter { after.albums[$0] == nil }
        change.changedAlbumIDs = after.albumOrder.filter { id in
            guard let before = albums[id], let now = after.albums[id] else { return false }
            return before != now
        }
        return change
    }
}
