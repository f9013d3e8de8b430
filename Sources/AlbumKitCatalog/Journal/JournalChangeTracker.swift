import AlbumKitCore

/// Turns the catalog journal's records into ``LibraryChange`` values, keeping just enough of the
/// library in memory to say what they change as a listing would see it: which assets are listed
/// (saved and not deleted), which are in recently deleted, which albums exist and which albums hold
/// each asset. Taken from the index once, at the journal position it was read at; every record
/// after that keeps it current.
///
/// One batch of records is one change, net: an asset saved and deleted in the same batch is not
/// reported; an album created and filled in one batch is inserted, not changed.
struct JournalChangeTracker: Sendable {
    /// Assets listed now.
    var listed: Set<String>
    /// Assets in recently deleted.
    var deleted: Set<String>
    /// Albums that exist.
    var albums: Set<String>
    /// Asset → the albums that hold it.
    var albumsOfAsset: [String: Set<String>]

    /// What `records` change, in the order they touch assets and albums.
    mutating func change(for records: [CatalogChange]) -> LibraryChange {
        var assetsBefore: [String: Bool] = [:]
        var albumsBefore: [String: Bool] = [:]
        var touchedAssets: [String] = []
        var touchedAlbums: [String] = []
        var changedAssets: Set<String> = []
        var changedAlbums: Set<String> = []
        func touchAsset(_ id: String, changed: Bool = false) {
            if assetsBefore[id] == nil {
                assetsBefore[id] = listed.contains(id)
                touchedAssets.append(id)
            }
            if changed { changedAssets.insert(id) }
        }
        func touchAlbum(_ id: String, changed: Bool = false) {
            if albumsBefore[id] == nil {
                albumsBefore[id] = albums.contains(id)
                touchedAlbums.append(id)
            }
            if changed { changedAlbums.insert(id) }
        }
        /// The albums holding `ids` changed (their listed members did).
        func membersChanged(_ ids: [String]) {
            for id in ids { for album in albumsOfAsset[id] ?? [] { touchAlbum(album, changed: true) } }
        }
        for record in records {
            switch record {
            case .save(let asset):
                touchAsset(asset.id, changed: listed.contains(asset.id))
                if deleted.remove(asset.id) != nil { membersChanged([asset.id]) }
                listed.insert(asset.id)
            case .createAlbum(let id, _, _):
                touchAlbum(id)
                albums.insert(id)
            case .renameAlbum(let id, _):
                touchAlbum(id, changed: true)
            case .deleteAlbum(let id):
                touchAlbum(id)
                albums.remove(id)
                for asset in albumsOfAsset.keys { albumsOfAsset[asset]?.remove(id) }
            case .addToAlbum(let album, let ids, _), .removeFromAlbum(let album, let ids):
                touchAlbum(album, changed: true)
                for id in ids {
                    if case .addToAlbum = record {
                        albumsOfAsset[id, default: []].insert(album)
                    } else {
                        albumsOfAsset[id]?.remove(album)
                    }
                }
            case .deleteAssets(let ids, _):
                let gone = ids.filter { listed.contains($0) }
                gone.forEach { touchAsset($0) }
                membersChanged(gone)
                listed.subtract(gone)
                deleted.formUnion(gone)
            case .restoreAssets(let ids):
                let back = ids.filter { deleted.contains($0) }
                back.forEach { touchAsset($0) }
                membersChanged(back)
                deleted.subtract(back)
                listed.formUnion(back)
            case .purgeAssets(let ids):
                // A purge of recently deleted assets changes no listing; one of a listed asset is
                // refused (``CatalogIndex/apply(_:at:)``) and changes nothing.
                let gone = ids.filter { deleted.contains($0) }
                deleted.subtract(gone)
                for id in gone { albumsOfAsset.removeValue(forKey: id) }
            case .setCompanions(let asset, _):
                // Its sidecars changed: a listed asset changed.
                if listed.contains(asset) { touchAsset(asset, changed: true) }
            case .rememberAlbum, .acknowledgeDamage:
                break  // nothing a listing shows
            }
        }
        var change = LibraryChange()
        for id in touchedAssets {
            switch (assetsBefore[id] ?? false, listed.contains(id)) {
            case (false, true): change.insertedAssetIDs.append(id)
            case (true, false): change.removedAssetIDs.append(id)
            case (true, true) where changedAssets.contains(id): change.changedAssetIDs.append(id)
            default: break
            }
        }
        for id in touchedAlbums {
            switch (albumsBefore[id] ?? false, albums.contains(id)) {
            case (false, true): change.insertedAlbumIDs.append(id)
            case (true, false): change.removedAlbumIDs.append(id)
            case (true, true) where changedAlbums.contains(id): change.changedAlbumIDs.append(id)
            default: break
            }
        }
        return change
    }
}
