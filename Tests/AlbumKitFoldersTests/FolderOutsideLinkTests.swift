import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

@testable import AlbumKitCore

#if canImport(Glibc)
    import Glibc
#endif

/// `remove` unlinks a name only when another album folder of this library holds the same file;
/// a second name in the Trash, in a backup or in a hidden folder does not count.
@Suite("Folder library: removing a file whose other name is outside the library")
struct FolderOutsideLinkTests {
    @Test func removingAFileWhoseOtherNameIsInTheTrashKeepsItInTheLibrary() async throws {
        try await FolderFixture.withRoot { root, parent in
            let library = try FolderFixture.library(root)
            // Given a photo in Trips, added to "Best of" (a second name), and "Best of" deleted to the Trash
            let saved = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("a"), filename: "a.jpg"))
            let best = try await library.createAlbum(titled: "Best of")
            _ = try await library.addAssets(withIDs: [saved.assetID], toAlbumWithID: best.id)
            try await library.deleteAlbum(withID: best.id, force: true)
            let trashed = parent.appendingPathComponent("Trash/files/Best of/a.jpg")
            #expect(FileManager.default.fileExists(atPath: trashed.path))
            // When the photo is removed from Trips
            let trips = try await library.albumInfo(titled: "Trips")
            try await library.removeAssets(withIDs: [saved.assetID], fromAlbumWithID: trips.id)
            // Then it moved to the library's top folder, still listed, not only in the Trash
            #expect(try Data(contentsOf: root.appendingPathComponent("a.jpg")) == Fixture.tinyJPEG("a"))
            #expect(try await library.assets(limit: 10).assets.map(\.id) == ["a.jpg"])
        }
    }

    @Test func removingAFileWithABackupLinkOrAHiddenLinkKeepsItInTheLibrary() async throws {
        try await FolderFixture.withRoot { root, parent in
            let library = try FolderFixture.library(root)
            // Given two photos in Trips: one with a `cp -al` backup name outside the library,
            // one with a second name in a hidden folder inside it
            let a = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("a"), filename: "a.jpg"))
            let b = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("b"), filename: "b.jpg"))
            let backup = parent.appendingPathComponent("backup")
            let hidden = root.appendingPathComponent(".snapshots")
            for folder in [backup, hidden] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            #expect(
                link(root.appendingPathComponent("Trips/a.jpg").path, backup.appendingPathComponent("a.jpg").path) == 0)
            #expect(
                link(root.appendingPathComponent("Trips/b.jpg").path, hidden.appendingPathComponent("b.jpg").path) == 0)
            // When both are removed from Trips
            let trips = try await library.albumInfo(titled: "Trips")
            try await library.removeAssets(withIDs: [a.assetID, b.assetID], fromAlbumWithID: trips.id)
            // Then both moved to the top folder: the library still has them
            #expect(FolderFixture.visible(in: root) == ["Trips", "a.jpg", "b.jpg"])
            #expect(Set(try await library.assets(limit: 10).assets.map(\.id)) == ["a.jpg", "b.jpg"])
        }
    }

    @Test func removingAFileAnotherAlbumHoldsRemovesOnlyThisName() async throws {
        try await FolderFixture.withRoot { root, parent in
            let library = try FolderFixture.library(root)
            // Given a photo in Trips, added to Favourites, and also backed up outside the library
            let saved = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("a"), filename: "a.jpg"))
            let favourites = try await library.createAlbum(titled: "Favourites")
            _ = try await library.addAssets(withIDs: [saved.assetID], toAlbumWithID: favourites.id)
            #expect(
                link(root.appendingPathComponent("Trips/a.jpg").path, parent.appendingPathComponent("a.jpg").path) == 0)
            // When it is removed from Trips
            let trips = try await library.albumInfo(titled: "Trips")
            try await library.removeAssets(withIDs: [saved.assetID], fromAlbumWithID: trips.id)
            // Then only Trips' name went: Favourites still holds it, nothing moved to the top
            #expect(FolderFixture.visible(in: root) == ["Favourites", "Trips"])
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Trips")).isEmpty)
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Favourites")) == ["a.jpg"])
        }
    }
}
