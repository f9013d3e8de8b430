import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

/// The catalog's journal records as changes a listing would see, net over each batch.
@Suite struct JournalChangeTrackerTests {
    static func saved(_ id: String) -> CatalogChange {
        .save(
            CatalogChange.SavedAsset(
                id: id, path: "originals/\(id.prefix(2))/\(id).jpg", originalName: "\(id).jpg", byteSize: 1,
                sha256: String(repeating: "0", count: 64), kind: "photo", format: "jpeg", addedAt: 0, metadata: nil))
    }

    @Test func aBatchIsReportedNet() {
        var tracker = JournalChangeTracker(listed: ["a1"], deleted: [], albums: ["A"], albumsOfAsset: ["a1": ["A"]])
        // Created and filled in one batch: inserted, not changed; saved and deleted: not reported.
        let first = tracker.change(for: [
            .createAlbum(id: "B", title: "Trips", createdAt: 0), Self.saved("a2"),
            .addToAlbum(album: "B", assets: ["a2"], at: 0), Self.saved("a3"), .deleteAssets(["a3"], at: 0),
            .rememberAlbum(id: "B", title: "Trips"),
        ])
        #expect(first == LibraryChange(insertedAssetIDs: ["a2"], insertedAlbumIDs: ["B"]))
        // Deleting an asset removes it and changes the albums that held it.
        let second = tracker.change(for: [.deleteAssets(["a1"], at: 1)])
        #expect(second == LibraryChange(removedAssetIDs: ["a1"], changedAlbumIDs: ["A"]))
        // Purging what is in recently deleted changes no listing; restoring brings it back.
        #expect(tracker.change(for: [.purgeAssets(["a3"])]).isEmpty)
        let third = tracker.change(for: [.restoreAssets(["a1"]), .renameAlbum(id: "B", title: "Holidays")])
        #expect(third == LibraryChange(insertedAssetIDs: ["a1"], changedAlbumIDs: ["A", "B"]))
        // A permanent deletion (deleted, then purged) removes a listed asset; a purge alone of a
        // listed asset is refused and changes nothing; deleting an album removes it.
        #expect(tracker.change(for: [.purgeAssets(["a2"])]).isEmpty)
        let fourth = tracker.change(for: [.deleteAssets(["a2"], at: 2), .purgeAssets(["a2"]), .deleteAlbum(id: "B")])
        #expect(fourth == LibraryChange(removedAssetIDs: ["a2"], removedAlbumIDs: ["B"]))
        #expect(tracker.listed == ["a1"] && tracker.albums == ["A"] && tracker.deleted == [])
    }
}
