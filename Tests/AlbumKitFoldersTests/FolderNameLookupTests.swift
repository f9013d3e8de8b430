import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

@testable import AlbumKitCore

/// A save into an album looks for the album's photos of its files' names only: in a folder album
/// the folder's names are read, and only the files of those names are opened.
@Suite struct FolderNameLookupTests {
    @Test func onlyTheFilesOfTheNamesAskedForAreOpened() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            let saved = try await library.album(titled: "Everything").save(
                .data(Fixture.uniqueJPEG("first"), filename: "first.jpg"))
            let folder = root.appendingPathComponent("Everything")
            // An album of 1 000 more photos, put there as a user would (copied into its folder).
            for n in 0..<1_000 {
                try Fixture.tinyJPEG("\(n)").write(
                    to: folder.appendingPathComponent(String(format: "IMG_%04d.JPG", n)))
            }
            let id = try #require(saved.albumID)
            let opens = FaultInjector.count(.open, under: folder.path)
            defer { FaultInjector.remove(opens) }
            let found = try await library.assets(inAlbumWithID: id, originallyNamed: ["img_0500.jpg", "none.jpg"])
            #expect(found.map(\.originalFilename) == ["IMG_0500.JPG"])
            // The album's folder and marker, the photo found: a handful, not one per photo.
            #expect(FaultInjector.calls(opens) < 20, "opened \(FaultInjector.calls(opens)) files")
            // The whole listing reads every photo (what a save read before): the count sees it.
            #expect(try await library.assets(inAlbumWithID: id).count == 1_001)
            #expect(FaultInjector.calls(opens) > 1_000)
        }
    }
}
