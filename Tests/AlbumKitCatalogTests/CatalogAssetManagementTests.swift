import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitCatalog

/// Asset management in a catalog: the whole library page by page, albums by identifier, adding,
/// removing and deleting assets, and deletions that survive a crash at any step.
@Suite struct CatalogAssetManagementTests {
    static let corpus = Fixture.packageRoot.appendingPathComponent("Tests/AlbumKitMediaTests/Fixtures/corpus")

    /// A catalog in a fresh directory, with `count` distinct photos: the first `inAlbum` in "Trips".
    static func withCatalog(
        photos count: Int, inAlbum: Int = 0, _ body: (PhotoLibrary, URL, [String]) async throws -> Void
    ) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Test.albumlibrary")
            let library = try PhotoLibrary.catalog(at: url)
            var ids: [String] = []
            for index in 0..<count {
                let media = Media.data(Fixture.tinyJPEG("photo \(index)"), filename: "IMG_\(index).jpg")
                let saved =
                    index < inAlbum
                    ? try await library.album(titled: "Trips").save(media) : try await library.save(media)
                ids.append(saved.assetID)
            }
            try await body(library, url, ids)
        }
    }

    // MARK: Listing

    @Test func everyAssetPageByPageByDateAdded() async throws {
        try await Self.withCatalog(photos: 7, inAlbum: 3) { library, _, ids in
            // When the library is listed three at a time
            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let page = try await library.assets(orderedBy: .dateAdded, after: cursor, limit: 3)
                seen += page.assets.map(\.id)
                cursor = page.nextCursor
                pages += 1
            } while cursor != nil
            // Then every asset, in an album or not, comes once, in the order it was added
            #expect(pages == 3)
            #expect(seen == ids)
            var streamed: [String] = []
            for try await asset in library.allAssets(orderedBy: .dateAdded, pageSize: 2) { streamed.append(asset.id) }
            #expect(streamed == ids)
        }
    }

    @Test func captureDateOrderUsesTheDateTakenThenTheDateAdded() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let library = try PhotoLibrary.catalog(at: dir.appendingPathComponent("Test.albumlibrary"))
            // Saved newest first: taken 2024-05-08 … 2024-05-05, then a PNG with no date
            var saved: [String: String] = [:]
            for name in ["jpeg-orientation-8.jpg", "jpeg-orientation-5.jpg", "png-plain.png", "jpeg-orientation-6.jpg"]
            {
                saved[name] = try await library.save(.file(Self.corpus.appendingPathComponent(name))).assetID
            }
            let page = try await library.assets(orderedBy: .captureDate, limit: 10)
            #expect(
                page.assets.map(\.id)
                    == ["jpeg-orientation-5.jpg", "jpeg-orientation-6.jpg", "jpeg-orientation-8.jpg", "png-plain.png"]
                    .map { saved[$0]! })
            #expect(page.nextCursor == nil)
        }
    }

    @Test func badCursorAndLimitAreRefused() async throws {
        try await Self.withCatalog(photos: 1) { library, _, _ in
            await expectCode(.invalidArgument) { try await library.assets(after: "nonsense") }
            await expectCode(.invalidArgument) { try await library.assets(limit: 0) }
        }
    }

    @Test func cursorSurvivesAssetsAddedMeanwhile() async throws {
        try await Self.withCatalog(photos: 4) { library, _, ids in
            let first = try await library.assets(orderedBy: .dateAdded, limit: 2)
            let added = try await library.save(.data(Fixture.tinyJPEG("late"), filename: "late.jpg")).assetID
            let rest = try await library.assets(orderedBy: .dateAdded, after: first.nextCursor, limit: 10)
            #expect(first.assets.map(\.id) + rest.assets.map(\.id) == ids + [added])
        }
    }

    // MARK: Albums by identifier

    @Test func albumsByIdentifier() async throws {
        try await Self.withCatalog(photos: 2, inAlbum: 2) { library, _, ids in
            let trips = try #require(try await library.albums().first)
            #expect(try await library.albumInfo(withID: trips.id).title == "Trips")
            #expect(try await library.assets(inAlbumWithID: trips.id).map(\.id) == ids)
            try await library.renameAlbum(withID: trips.id, to: "Trips 2026")
            #expect(try await library.albumInfo(withID: trips.id).title == "Trips 2026")
            await expectCode(.albumNotFound) { try await library.assets(inAlbumWithID: "nope") }
            try await library.deleteAlbum(withID: trips.id)
            #expect(try await library.albums().isEmpty)
            #expect(try await library.assets().assets.count == 2)  // the assets stay in the library
        }
    }

    @Test func savingByIdGoesIntoExactlyThatAlbum() async throws {
        try await Self.withCatalog(photos: 0) { library, _, _ in
            // Given two albums titled "Trips" (the older one is where saves by title go)
            let older = try await library.createAlbum(titled: "Trips")
            try await library.renameAlbum(withID: older.id, to: "Old")
            let newer = try await library.createAlbum(titled: "Trips")
            try await library.renameAlbum(withID: older.id, to: "Trips")
            #expect(try await library.albumInfo(titled: "Trips").id == older.id)
            // When a photo is saved into the newer one by its id
            let album = try await library.album(withID: newer.id, accessPolicy: .requireAlbum)
            let saved = try await album.save(.data(Fixture.tinyJPEG("by id"), filename: "x.jpg"))
            // Then it is in that album, not in the older one with the same title
            #expect(saved.albumID == newer.id && saved.albumOutcome == .found)
            #expect(try await library.assets(inAlbumWithID: newer.id).map(\.id) == [saved.assetID])
            #expect(try await library.assets(inAlbumWithID: older.id).isEmpty)
            // And once the album is deleted, saving by its id fails and creates nothing
            try await library.deleteAlbum(withID: newer.id)
            let result = await album.save([.data(Fixture.tinyJPEG("late"), filename: "y.jpg")])[0]
            #expect(result.error?.code == .albumNotFound)
            #expect(try await library.albums().map(\.id) == [older.id])
            #expect(try await library.assets().assets.map(\.id) == [saved.assetID])
        }
    }

    // MARK: Adding and removing

    @Test func addToAnotherAlbumKeepsTheFirst() async throws {
        try await Self.withCatalog(photos: 3, inAlbum: 2) { library, url, ids in
            let favourites = try await library.createAlbum(titled: "Favourites")
            // When an asset of Trips and one outside any album are added, twice
            try await library.addAssets(withIDs: [ids[1], ids[2]], toAlbumWithID: favourites.id)
            try await library.addAssets(withIDs: [ids[2], ids[1]], toAlbumTitled: "Favourites")
            // Then Favourites holds each once, in the order first added; Trips is unchanged
            #expect(try await library.assets(inAlbumTitled: "Favourites").map(\.id) == [ids[1], ids[2]])
            #expect(try await library.assets(inAlbumTitled: "Trips").map(\.id) == [ids[0], ids[1]])
            #expect(try await library.verify().problems.isEmpty)
            // And an unknown asset adds nothing
            await expectCode(.assetNotFound) {
                try await library.addAssets(withIDs: [ids[0], "nope"], toAlbumWithID: favourites.id)
            }
            #expect(try await library.assets(inAlbumWithID: favourites.id).count == 2)
            await expectCode(.albumNotFound) {
                try await library.addAssets(withIDs: [ids[0]], toAlbumWithID: "nope")
            }
            _ = url
        }
    }

    @Test func removeFromAnAlbumKeepsTheAsset() async throws {
        try await Self.withCatalog(photos: 3, inAlbum: 3) { library, _, ids in
            try await library.removeAssets(withIDs: [ids[1]], fromAlbumTitled: "Trips")
            #expect(try await library.assets(inAlbumTitled: "Trips").map(\.id) == [ids[0], ids[2]])
            #expect(try await library.assets().assets.map(\.id) == ids)
            #expect(try await library.albums().first?.count == 2)
            // Not in the album: refused, and nothing removed
            await expectCode(.assetNotFound) {
                try await library.removeAssets(withIDs: [ids[0], ids[1]], fromAlbumTitled: "Trips")
            }
            #expect(try await library.assets(inAlbumTitled: "Trips").map(\.id) == [ids[0], ids[2]])
        }
    }

    // MARK: Deleting

    @Test func deleteMovesToRecentlyDeletedThenForGood() async throws {
        try await Self.withCatalog(photos: 3, inAlbum: 2) { library, url, ids in
            let before = try await library.assets().assets
            let file = try #require(before.first { $0.id == ids[0] }?.fileURL)
            let deleted = try await library.deleteAssets(withIDs: [ids[0], ids[2]])
            #expect(deleted.map(\.id) == [ids[0], ids[2]])
            #expect(FileManager.default.fileExists(atPath: file.path), "kept while recently deleted")
            #expect(try await library.assets().assets.map(\.id) == [ids[1]])
            #expect(try await library.assets(inAlbumTitled: "Trips").map(\.id) == [ids[1]])
            #expect(Set(try await library.recentlyDeletedAssets().map(\.asset.id)) == [ids[0], ids[2]])
            #expect(try await library.verify().problems.isEmpty)
            // Unknown or already deleted: nothing is deleted
            await expectCode(.assetNotFound) {
                try await library.deleteAssets(withIDs: [ids[1], ids[0]])
            }
            #expect(try await library.assets().assets.map(\.id) == [ids[1]])
            // For good: the file goes; rebuilt from the journal, the library is the same.
            try await library.deleteAssets(withIDs: [ids[0]], permanently: true)
            #expect(!FileManager.default.fileExists(atPath: file.path))
            #expect(try await library.recentlyDeletedAssets().map(\.asset.id) == [ids[2]])
            for name in ["catalog.sqlite", "catalog.sqlite-journal"] {
                try? FileManager.default.removeItem(at: url.appendingPathComponent(name))
            }
            let reopened = try PhotoLibrary.catalog(at: url)
            #expect(try await reopened.assets().assets.map(\.id) == [ids[1]])
            #expect(try await reopened.recentlyDeletedAssets().map(\.asset.id) == [ids[2]])
            _ = try await PhotoLibrary.repair(catalogAt: url)
            #expect(try await PhotoLibrary.catalog(at: url).assets().assets.map(\.id) == [ids[1]])
            #expect(Fixture.files(under: url.appendingPathComponent("originals")).count == 2)
            // Emptying recently deleted removes what was deleted before the date given.
            #expect(try await reopened.emptyRecentlyDeleted(deletedBefore: Date()) == 1)
            #expect(Fixture.files(under: url.appendingPathComponent("originals")).count == 1)
        }
    }

    @Test func removalsAndAdditionsSurviveARepair() async throws {
        try await Self.withCatalog(photos: 2, inAlbum: 2) { library, url, ids in
            let other = try await library.createAlbum(titled: "Other")
            try await library.addAssets(withIDs: [ids[0]], toAlbumWithID: other.id)
            try await library.removeAssets(withIDs: [ids[1]], fromAlbumTitled: "Trips")
            // When the catalog is lost and rebuilt from the journal and the files
            for name in ["catalog.sqlite", "catalog.sqlite-wal", "catalog.sqlite-shm"] {
                try? FileManager.default.removeItem(at: url.appendingPathComponent(name))
            }
            _ = try await PhotoLibrary.repair(catalogAt: url)
            let repaired = try PhotoLibrary.catalog(at: url)
            #expect(try await repaired.assets(inAlbumTitled: "Trips").map(\.id) == [ids[0]])
            #expect(try await repaired.assets(inAlbumTitled: "Other").map(\.id) == [ids[0]])
        }
    }

    /// A permanent deletion whose files cannot be removed (a disk refusing it, or a process killed
    /// before it removed them) stands: the photo is gone, its file is not a stray one, and the next
    /// opening removes it.
    @Test func aPermanentDeletionWhoseFilesStayIsFinishedAtTheNextOpening() async throws {
        try await Self.withCatalog(photos: 2, inAlbum: 2) { library, url, ids async throws in
            let file = try #require(try await library.assets().assets.first { $0.id == ids[0] }?.fileURL)
            let originals = url.appendingPathComponent("originals").path
            FaultInjector.inject(.unlink, under: originals, errno: EACCES)
            try await library.deleteAssets(withIDs: [ids[0]], permanently: true)
            FaultInjector.removeAll(under: originals)
            #expect(try await library.assets(inAlbumTitled: "Trips").map(\.id) == [ids[1]])
            #expect(FileManager.default.fileExists(atPath: file.path))
            #expect(try await library.verify().problems.isEmpty)
            _ = try PhotoLibrary.catalog(at: url)
            _ = try await PhotoLibrary.catalog(at: url).albums()
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
    }

    @Test func readOnlyCatalogRefusesChanges() async throws {
        try await Self.withCatalog(photos: 1, inAlbum: 1) { _, url, ids in
            // Root writes anywhere: the read-only folder is a fault the platform layer injects.
            FaultInjector.inject(.access, under: url.path, errno: EROFS)
            defer { FaultInjector.removeAll(under: url.path) }
            let library = try PhotoLibrary.catalog(at: url, createIfMissing: false)
            #expect(try await library.assets().assets.map(\.id) == ids, "a read-only library still lists")
            await expectCode(.libraryUnwritable) { try await library.deleteAssets(withIDs: ids) }
        }
    }
}
