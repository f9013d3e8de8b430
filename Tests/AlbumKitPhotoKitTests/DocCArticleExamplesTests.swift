import AlbumKitConformance
import AlbumTestSupport
import AlbumKitCore
import Foundation
import Testing

/// The DocC articles' examples that run on every platform ("Testing your app", "Listing, paging and
/// changes" with its thumbnails, "Photos access"), as written there, against the in-memory library. (The iOS-only
/// examples — Photos itself, the limited-library picker — are type-checked with the sources by
/// `Scripts/apple-check.sh`, not run.)
@Suite struct DocCArticleExamplesTests {
    static let drawingURL = AppLibraryTests.jpeg

    struct SketchSaver {
        var library: PhotoLibrary
        func save(_ drawing: URL) async throws -> String {
            try await library.album(titled: "Sketchbook").save(.file(drawing).with(isFavorite: true)).assetID
        }
    }

    @Test func savesIntoTheSketchbook() async throws {
        let library = PhotoLibrary.inMemory()
        let id = try await SketchSaver(library: library).save(Self.drawingURL)
        let saved = try await library.assets(inAlbumTitled: "Sketchbook")
        #expect(saved.map(\.id) == [id])
        #expect(saved.first?.isFavorite == true)
    }

    @Test func aRefusalIsReportedAsAccessDenied() async throws {
        let library = PhotoLibrary.inMemory(access: .notDetermined, answer: .denied)
        await #expect(throws: AlbumError.self) { try await SketchSaver(library: library).save(Self.drawingURL) }
    }

    @Test func addOnlyAccessSavesOutsideTheAlbum() async throws {
        let library = PhotoLibrary.inMemory(access: .denied, addOnlyAccess: .authorized)
        let saved = try await library.album(titled: "Sketchbook", accessPolicy: .saveToLibraryWhenAlbumUnavailable)
            .save(.file(Self.drawingURL))
        #expect(saved.albumOutcome.isSkipped)
    }

    @Test func pagingWithAFilter() async throws {
        let library = PhotoLibrary.inMemory()
        try await library.save(.file(AppLibraryTests.video))
        try await library.save(.file(AppLibraryTests.jpeg))
        var shown: [AssetInfo] = []
        func show(_ assets: [AssetInfo]) { shown += assets }

        // The article's range is the last 30 days; clip.mp4 records when it was filmed, so the range
        // here reaches back to that day.
        let filmed = try #require(try await library.assets(matching: .videos, limit: 1).assets.first?.capturedAt)
        let lastMonth = AssetFilter(
            kinds: [.video], dates: min(filmed, Date().addingTimeInterval(-30 * 86_400))..<Date())
        var page = try await library.assets(orderedBy: .captureDate, matching: lastMonth, limit: 50)
        while true {
            show(page.assets)
            guard let next = page.nextCursor else { break }
            page = try await library.assets(orderedBy: .captureDate, matching: lastMonth, after: next, limit: 50)
        }
        #expect(shown.map(\.kind) == [.video])
    }

    @Test func thumbnailsOfAnAlbum() async throws {
        try ExternalTool.requireLibvips()
        let library = PhotoLibrary.inMemory()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("docc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            // Scratch space of this test only.
            try? FileManager.default.removeItem(at: folder)
        }
        let (photo, stored) = try ThumbnailMedia.photo("IMG_0001.JPG", in: folder)
        let saved = try await library.album(titled: "Trips").save(.file(photo))
        // Without FFmpeg's libraries a video's thumbnail is an error naming them (ThumbnailCLITests).
        let withPoster = ExternalTool.hasFFmpegLibraries
        let clip = withPoster ? try await library.album(titled: "Trips").save(.file(AppLibraryTests.video)) : nil

        var thumbnails: [String: Data] = [:]
        for asset in try await library.assets(inAlbumTitled: "Trips") {
            if let thumbnail = try await library.thumbnail(forAssetWithID: asset.id, maxPixelSize: 200) {
                thumbnails[asset.id] = thumbnail.data
            }
        }
        // The photo's, made from the photo (its stored 160 × 120 is too small for 200); the video's
        // poster frame.
        #expect(thumbnails.keys.sorted() == ([saved.assetID] + [clip?.assetID].compactMap { $0 }).sorted())
        #expect(thumbnails[saved.assetID] != stored)
        let size = try ThumbnailMedia.size(of: try #require(thumbnails[saved.assetID]))
        #expect(size.width == 200 && size.height == 150)
    }

    @Test func watchingAnAlbum() async throws {
        let library = PhotoLibrary.inMemory()
        let albumID = try await library.createAlbum(titled: "Trips").id
        let reloads = Locked(0)
        func reloadAlbum() async { reloads.withLock { $0 += 1 } }

        let watching = Task {
            for try await change in library.changes() {
                if change.changedAlbumIDs.contains(albumID) || !change.removedAssetIDs.isEmpty {
                    await reloadAlbum()
                }
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        try await library.album(titled: "Trips").save(.file(AppLibraryTests.jpeg))
        for _ in 0..<200 where reloads.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(5)) }
        watching.cancel()
        #expect(reloads.withLock { $0 } == 1)
    }

    @Test func whatToShowForEachAccess() async throws {
        var shown: [String] = []
        for access in PhotoLibraryAccess.allCases {
            let library = PhotoLibrary.inMemory(access: access)
            switch try await library.access(for: .readWrite) {
            case .notDetermined: shown.append("explanation")
            case .authorized, .limited: shown.append("album")
            case .denied: shown.append("settings")
            case .restricted: shown.append("restricted")
            }
        }
        #expect(shown == ["explanation", "restricted", "settings", "album", "album"])
    }

    @Test(.timeLimit(.minutes(5))) func anAlbumsChangesRebuildItsGrid() async throws {
        let library = PhotoLibrary.inMemory()
        let album = library.album(titled: "Trips")
        let first = try await album.save(.data(Fixture.uniqueJPEG("first"), filename: "1.jpg"))
        var items: [AssetInfo] = []
        var changes = album.changes(orderedBy: .dateAdded).makeAsyncIterator()
        // What the article's batch update does to a grid's items.
        func apply(_ change: AlbumChange) {
            guard change.hasIncrementalChanges else {
                items = change.assets
                return
            }
            var rows = [AssetInfo?](repeating: nil, count: change.assets.count)
            for index in change.insertedIndexes { rows[index] = change.assets[index] }
            for move in change.moves { rows[move.to] = items[move.from] }
            let gone = Set(change.removedIndexes).union(change.moves.map(\.from))
            var stayed = items.indices.filter { !gone.contains($0) }.map { items[$0] }.makeIterator()
            for index in rows.indices where rows[index] == nil { rows[index] = stayed.next() }
            items = rows.compactMap { $0 }
            for index in change.changedIndexes { items[index] = change.assets[index] }
        }
        apply(try #require(try await changes.next()))
        #expect(items.map(\.id) == [first.assetID])
        let second = try await album.save(.data(Fixture.uniqueJPEG("second"), filename: "2.jpg"))
        apply(try #require(try await changes.next()))
        #expect(items.map(\.id) == [first.assetID, second.assetID])
        try await library.deleteAssets(withIDs: [first.assetID])
        let removal = try #require(try await changes.next())
        #expect(removal.removedIndexes == [0])
        apply(removal)
        #expect(items.map(\.id) == [second.assetID])

        // Kept, and given back after a restart: the changes made meanwhile come first.
        let token = try AlbumChangeToken(data: removal.token.data)
        try await library.deleteAlbum(titled: "Trips", force: true)
        var resumed = album.changes(since: token).makeAsyncIterator()
        let catchUp = try #require(try await resumed.next())
        #expect(catchUp.isAlbumDeleted && catchUp.removedAssetIDs == [second.assetID])
    }
}
