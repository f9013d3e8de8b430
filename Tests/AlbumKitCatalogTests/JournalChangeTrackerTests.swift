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
        var tracker = JournalChangeTracker(listed: ["a1"], albums: ["A"], members: ["A": ["a1"]])
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

    /// Ids the catalog makes are kept as their bytes; any other text stays text, and no two forms
    /// of an id are taken for each other.
    @Test func idsAreKeptAsBytesOnlyInTheCatalogsOwnForm() {
        let id = "0f1e2d3c-4b5a-4697-8887-a6b5c4d3e2f1"
        guard case .bytes = TrackedID(id) else {
            Issue.record("the catalog's own form is kept as bytes")
            return
        }
        #expect(TrackedID(id) == TrackedID(String(id)))
        for other in [
            id.uppercased(), "{\(id)}", id.replacingOccurrences(of: "-", with: ""), id + "0", String(id.dropLast()),
            "0f1e2d3c-4b5a-4697-8887-a6b5c4d3e2fg", "0f1e2d3c4b5a-4697-8887-a6b5-c4d3e2f1", "a1", "",
        ] {
            #expect(TrackedID(other) == .text(other), "\(other)")
            #expect(TrackedID(other) != TrackedID(id), "\(other)")
        }
    }

    /// Deleting, restoring and purging change the albums that hold the assets, and only those,
    /// with the catalog's ids and others side by side.
    @Test func membershipsFollowTheRecords() {
        let ids = (0..<4).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
        var tracker = JournalChangeTracker(
            listed: Set(ids.map { TrackedID($0) } + ["odd id"]), albums: ["A", "B", "C"],
            members: ["A": [TrackedID(ids[0]), "odd id"], "B": [TrackedID(ids[1])], "C": []])
        let deletion = tracker.change(for: [.deleteAssets([ids[0], ids[1], "odd id", "never saved"], at: 1)])
        #expect(deletion.removedAssetIDs == [ids[0], ids[1], "odd id"])
        #expect(deletion.changedAlbumIDs == ["A", "B"])
        #expect(tracker.change(for: [.removeFromAlbum(album: "A", assets: ["odd id"])]).changedAlbumIDs == ["A"])
        let restore = tracker.change(for: [.restoreAssets(["odd id", ids[0]])])
        #expect(restore.insertedAssetIDs == ["odd id", ids[0]] && restore.changedAlbumIDs == ["A"])
        // Purged from recently deleted: B no longer holds it, so deleting B's assets later
        // changes nothing of B's.
        #expect(tracker.change(for: [.purgeAssets([ids[1]])]).isEmpty)
        #expect(tracker.members["B"] == [])
        let album = tracker.change(for: [.deleteAlbum(id: "A"), .deleteAssets([ids[0]], at: 2)])
        #expect(album == LibraryChange(removedAssetIDs: [ids[0]], removedAlbumIDs: ["A"]))
        #expect(tracker.members["A"] == nil)
    }
}
