import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKit
@testable import AlbumKitCore

/// `PhotoLibrary.copy(into:)` between two catalogs (the shared library's directions are tested
/// against real servers in AlbumKitSharedTests): what is kept, a second run, and a library whose
/// checksums are unknown.
@Suite struct LibraryCopyTests {
    @Test func aCatalogCopiesIntoAnotherWithNamesDatesFavouritesAndAlbumsAndThenCopiesNothing() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            let source = try PhotoLibrary.catalog(at: directory.appendingPathComponent("A.albumlibrary"))
            let taken = Date(timeIntervalSince1970: 1_500_000_000)
            let first = try await source.album(titled: "Trips").save(
                .data(Fixture.uniqueJPEG("one"), filename: "one.jpg").with(creationDate: taken, isFavorite: true))
            _ = try await source.album(titled: "Trips").save(.data(Fixture.uniqueJPEG("two"), filename: "two.jpg"))
            // The same bytes into a second album: one asset in both.
            let again = try await source.album(titled: "Later").save(
                .data(Fixture.uniqueJPEG("one"), filename: "one.jpg"))
            #expect(again.assetID == first.assetID)
            _ = try await source.save(.data(Fixture.uniqueJPEG("loose"), filename: "loose.jpg"))

            let target = try PhotoLibrary.catalog(at: directory.appendingPathComponent("B.albumlibrary"))
            let report = try await source.copy(into: target)
            #expect(report == CopyReport(copiedAssets: 3, albums: 2, memberships: 3))
            for title in ["Trips", "Later"] {
                let before = try await source.assets(inAlbumTitled: title)
                let after = try await target.assets(inAlbumTitled: title)
                #expect(before.map(\.originalFilename) == after.map(\.originalFilename))
                #expect(before.map(\.sha256) == after.map(\.sha256))
                #expect(before.map(\.capturedAt) == after.map(\.capturedAt))
                #expect(before.map(\.isFavorite) == after.map(\.isFavorite))
            }
            #expect(try await target.assets(inAlbumTitled: "Trips").first?.capturedAt == taken)
            #expect(try await target.assets(orderedBy: .dateAdded).assets.count == 3)
            #expect(try await target.verify().isHealthy)
            let second = try await source.copy(into: target)
            #expect(second.copiedNothing && second.existingAssets == 3)
        }
    }

    @Test func aFolderLibraryThatHoldsPhotosIsRefusedBeforeAnythingIsCopied() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            let source = try PhotoLibrary.catalog(at: directory.appendingPathComponent("A.albumlibrary"))
            _ = try await source.album(titled: "Trips").save(.data(Fixture.uniqueJPEG("one"), filename: "one.jpg"))
            let root = directory.appendingPathComponent("Pictures")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let folders = try PhotoLibrary.folders(at: root)
            _ = try await folders.save(.data(Fixture.uniqueJPEG("mine"), filename: "mine.jpg"))
            await #expect {
                try await source.copy(into: folders)
            } throws: { ($0 as? AlbumError)?.code == .notSupported }
            #expect(try await folders.albums().isEmpty)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: root.path).filter { !$0.hasPrefix(".") } == [
                    "mine.jpg"
                ])
        }
    }
}
