import AlbumKitCore

/// Turns the catalog journal's records into ``LibraryChange`` values, keeping just enough of the
/// library in memory to say what they change as a listing would see it: which assets are listed
/// (saved and not deleted), which are in recently deleted, which albums exist and which assets each
/// album holds. Taken from the index once, at the journal position it was read at; every record
/// after that keeps it current. Assets are kept as ``TrackedID``s and memberships by album (a
/// set per album, not one per asset): at a million assets in two albums each, tens of megabytes.
///
/// One batch of records is one change, net: an asset saved and deleted in the same batch is not
/// reported; an album created and filled in one batch is inserted, not changed.
struct JournalChangeTracker: Sendable {
    /// Assets listed now.
    var listed: Set<TrackedID>
    /// Assets in recently deleted.
    var deleted: Set<TrackedID>
    /// Albums that exist.
    var albums: Set<String>
    /// Album → the assets it holds.
    var members: [String: Set<TrackedID>]

    init(
        listed: Set<TrackedID> = [], deleted: Set<TrackedID> = [], albums: Set<String> = [],
        members: [String: Set<TrackedID>] = [:]
    ) {
        self.listed = listed
        self.deleted = deleted
        self.albums = albums
        self.members = members
    }

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
                assetsBefore[id] = listed.contains(TrackedID(id))
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
        /// The albums holding `ids` changed (their listed members did). Each album's set is
        /// compared with the smaller of the two, so a batch costs at most the memberships held.
        func membersChanged(_ ids: Set<TrackedID>) {
            guard !ids.isEmpty else { return }
            let holding = members.filter { album, held in
                ids.count <= held.count ? ids.contains { held.contains($0) } : held.contains { ids.contains($0) }
            }
            for album in holding.keys.sorted() { touchAlbum(album, changed: true) }
        }
        for record in records {
            switch record {
            case .save(let asset):
                let key = TrackedID(asset.id)
                touchAsset(asset.id, changed: listed.contains(key))
                if deleted.remove(key) != nil { membersChanged([key]) }
                listed.insert(key)
            case .createAlbum(let id, _, _):
                touchAlbum(id)
                albums.insert(id)
            case .renameAlbum(let id, _):
                touchAlbum(id, changed: true)
            case .deleteAlbum(let id):
                touchAlbum(id)
                albums.remove(id)
                members.removeValue(forKey: id)
            case .addToAlbum(let album, let ids, _), .removeFromAlbum(let album, let ids):
                touchAlbum(album, changed: true)
                if case .addToAlbum = record {
                    members[album, default: []].formUnion(ids.lazy.map { TrackedID($0) })
                } else if members[album] != nil {
                    members[album]!.subtract(ids.lazy.map { TrackedID($0) })
                }
            case .deleteAssets(let ids, _):
                let gone = ids.filter { listed.contains(TrackedID($0)) }
                let keys = Set(gone.map { TrackedID($0) })
                gone.forEach { touchAsset($0) }
                membersChanged(keys)
                listed.subtract(keys)
                deleted.formUnion(keys)
            case .restoreAssets(let ids):
                let back = ids.filter { deleted.contains(TrackedID($0)) }
                let keys = Set(back.map { TrackedID($0) })
                back.forEach { touchAsset($0) }
                membersChanged(keys)
                deleted.subtract(keys)
                listed.formUnion(keys)
            case .purgeAssets(let ids):
                // A purge of recently deleted assets changes no listing; one of a listed asset is
                // refused (``CatalogIndex/apply(_:at:)``) and changes nothing.
                let gone = Set(ids.lazy.map { TrackedID($0) }).intersection(deleted)
                guard !gone.isEmpty else { break }
                deleted.subtract(gone)
                // Each album's set loses the purged assets by walking the smaller of the two, so
                // a purge costs at most the memberships held. The keys are copied first: a view of
                // them alive while a set is changed would make every set be copied.
                for album in Array(members.keys) {
                    if members[album]!.count < gone.count {
                        members[album] = members[album]!.filter { !gone.contains($0) }
                    } else {
                        members[album]!.subtract(gone)
                    }
                }
            case .setCompanions(let asset, _):
                // Its sidecars changed: a listed asset changed.
                if listed.contains(TrackedID(asset)) { touchAsset(asset, changed: true) }
            case .rememberAlbum, .acknowledgeDamage:
                break  // nothing a listing shows
            }
        }
        var change = LibraryChange()
        for id in touchedAssets {
            switch (assetsBefore[id] ?? false, listed.contains(TrackedID(id))) {
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
