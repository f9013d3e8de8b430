import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

@testable import AlbumKitCore

/// Asset management in a folder library: the whole library, adding (a link, same name), removing
/// (to the top folder), deleting (to the Trash) — all visible to file managers as plain files.
@Suite struct FolderAssetManagementTests {
    static func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }
            .sorted()
    }

    @Test func listAddRemoveDelete() async throws {
        try await FolderFixture.withRoot { root, parent in
            let library = try FolderFixture.library(root)
            // Given two photos in Trips and one saved without an album
            let a = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("a"), filename: "a.jpg"))
            let b = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("b"), filename: "b.jpg"))
            let c = try await library.save(.data(Fixture.tinyJPEG("c"), filename: "c.jpg"))
            // The whole library, two at a time
            let first = try await library.assets(limit: 2)
            let rest = try await library.assets(after: first.nextCursor, limit: 2)
            #expect(Set(first.assets.map(\.id) + rest.assets.map(\.id)) == [a.assetID, b.assetID, c.assetID])
            #expect(rest.nextCursor == nil)

            // Add a (from Trips) and c (from the top) to Favourites: same names, linked, own ids
            let favourites = try await library.createAlbum(titled: "Favourites")
            let added = try await library.addAssets(withIDs: [a.assetID, c.assetID], toAlbumWithID: favourites.id)
            #expect(added == [favourites.id + "/a.jpg", favourites.id + "/c.jpg"])
            #expect(Self.names(in: root.appendingPathComponent("Favourites")) == ["a.jpg", "c.jpg"])
            #expect(Self.names(in: root.appendingPathComponent("Trips")) == ["a.jpg", "b.jpg"])
            let trips = try await library.albumInfo(titled: "Trips")
            // Adding an asset already there keeps it; a taken name is numbered
            #expect(try await library.addAssets(withIDs: [added[0]], toAlbumWithID: favourites.id) == [added[0]])
            try Data("mine".utf8).write(to: root.appendingPathComponent("Favourites/b.jpg"))
            let numbered = try await library.addAssets(withIDs: [b.assetID], toAlbumWithID: favourites.id)
            #expect(numbered == [favourites.id + "/b 2.jpg"])

            // Remove a from Trips: Favourites still has it (a link), so only Trips' name goes
            try await library.removeAssets(withIDs: [a.assetID], fromAlbumWithID: trips.id)
            #expect(Self.names(in: root.appendingPathComponent("Trips")) == ["b.jpg"])
            #expect(Self.names(in: root).contains("a.jpg") == false)
            // Remove d from Trips: no other album has it, so it moves to the top folder
            let d = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("d"), filename: "d.jpg"))
            try await library.removeAssets(withIDs: [d.assetID], fromAlbumWithID: trips.id)
            #expect(Self.names(in: root.appendingPathComponent("Trips")) == ["b.jpg"])
            #expect(try Data(contentsOf: root.appendingPathComponent("d.jpg")) == Fixture.tinyJPEG("d"))
            #expect(try await library.assets(limit: 10).assets.map(\.id).contains("d.jpg"))

            // Delete c at the top: it goes to the Trash, with a .trashinfo a file manager restores from
            let deleted = try await library.deleteAssets(withIDs: [c.assetID])
            let trashed = try #require(deleted.first?.trashURL)
            #expect(try Data(contentsOf: trashed) == Fixture.tinyJPEG("c"))
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("c.jpg").path))
            let info = parent.appendingPathComponent("Trash/info/\(trashed.lastPathComponent).trashinfo")
            #expect(try String(contentsOf: info, encoding: .utf8).contains("Path=\(root.path)/c.jpg"))
        }
    }

    @Test func unknownOrForeignIdsChangeNothing() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            let a = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("a"), filename: "a.jpg"))
            let other = try await library.createAlbum(titled: "Other")
            let trips = try await library.albumInfo(titled: "Trips")
            await expectCode(.assetNotFound) { try await library.deleteAssets(withIDs: [a.assetID, "nope.jpg"]) }
            await expectCode(.assetNotFound) {
                try await library.addAssets(withIDs: [trips.id + "/missing.jpg"], toAlbumWithID: other.id)
            }
            await expectCode(.assetNotFound) {
                try await library.removeAssets(withIDs: [a.assetID], fromAlbumWithID: other.id)
            }
            await expectCode(.albumNotFound) {
                try await library.addAssets(withIDs: [a.assetID], toAlbumWithID: "nope")
            }
            #expect(Self.names(in: root.appendingPathComponent("Trips")) == ["a.jpg"])
            #expect(Self.names(in: root.appendingPathComponent("Other")).isEmpty)
        }
    }
}
