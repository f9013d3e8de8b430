import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKit
@testable import AlbumKitCatalog
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

    /// What a catalog lists for a copy that keeps its ids (into a shared library, in the facade):
    /// every asset with its id, its file below the library's folder, its SHA-256 and date added;
    /// every album with its id; the memberships in order.
    @Test func aCatalogListsItsContentsWithIdsFilesAndMemberships() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("A.albumlibrary")
            let library = try PhotoLibrary.catalog(at: url)
            let one = try await library.album(titled: "Trips").save(
                .data(Fixture.uniqueJPEG("one"), filename: "one.jpg"))
            let two = try await library.album(titled: "Trips").save(
                .data(Fixture.uniqueJPEG("two"), filename: "two.jpg"))
            let contents = try await CatalogBackend.open(at: url, create: false).exportContents()
            #expect(contents.assets.map(\.id) == [one.assetID, two.assetID])
            #expect(contents.assets.map(\.originalName) == ["one.jpg", "two.jpg"])
            for asset in contents.assets {
                #expect(asset.fileURL.path.hasPrefix(contents.root.path + "/"))
                let (file, size) = try FileSystem.openForReading(asset.fileURL.path)
                defer { FileSystem.close(file) }
                #expect(Int64(size) == asset.byteSize)
                #expect(try FileSystem.sha256(of: file) == asset.sha256)
                #expect(asset.addedAt > 0)
            }
            let albums = try await library.albums()
            #expect(contents.albums.map(\.id) == albums.map(\.id))
            #expect(contents.memberships.map(\.assetID) == [one.assetID, two.assetID])
            let positions = contents.memberships.map(\.position)
            #expect(positions.count == 2 && positions[0] < positions[1])
        }
    }

    /// `copy(fromCatalogAt:)` copies into a shared library only; any other is refused, naming why.
    @Test func copyingFromACatalogIntoAnotherKindIsRefused() async throws {
        #if os(Linux)
            try await Fixture.withTemporaryDirectory { directory in
                let source = directory.appendingPathComponent("A.albumlibrary")
                _ = try await PhotoLibrary.catalog(at: source).save(
                    .data(Fixture.uniqueJPEG("one"), filename: "one.jpg"))
                let target = try PhotoLibrary.catalog(at: directory.appendingPathComponent("B.albumlibrary"))
                await #expect {
                    try await target.copy(fromCatalogAt: source)
                } throws: { ($0 as? AlbumError)?.message.contains("shared (postgres://) libraries") == true }
                #expect(try await target.assets(orderedBy: .dateAdded).assets.isEmpty)
            }
        #endif
    }
}
