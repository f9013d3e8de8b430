import AlbumKitCatalog
import AlbumKitCore
import Foundation
import Testing

#if !canImport(ObjectiveC)
    import PhotoKitSimulator
    @testable import AlbumKitPhotoKit
#endif

/// The library kinds an app's own tests meet: the in-memory library (the test double), Photos
/// through the PhotoKit simulator, and a catalog — each answering the same public API the same way.
enum AppLibraryKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory, photoKit, catalog
    var testDescription: String { rawValue }

    /// The kinds available on this platform (the simulator exists only where Photos does not).
    static var available: [AppLibraryKind] {
        #if canImport(ObjectiveC)
            [.inMemory, .catalog]
        #else
            allCases
        #endif
    }
}

/// A fresh library of one kind, and a way to run code against it (the PhotoKit simulator binds
/// its library to the task).
struct AppLibrary {
    let kind: AppLibraryKind
    let library: PhotoLibrary
    let directory: URL
    #if !canImport(ObjectiveC)
        let harness: PhotoKitHarness?
    #endif

    init(_ kind: AppLibraryKind) throws {
        self.kind = kind
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("applib-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #if !canImport(ObjectiveC)
            harness = kind == .photoKit ? PhotoKitHarness() : nil
        #endif
        switch kind {
        case .inMemory: library = .inMemory()
        case .catalog: library = try .catalog(at: directory.appendingPathComponent("Photos.albumlibrary"))
        case .photoKit:
            #if !canImport(ObjectiveC)
                library = harness!.library
            #else
                library = .inMemory()
            #endif
        }
    }

    func run<T>(_ body: () async throws -> T) async rethrows -> T {
        #if !canImport(ObjectiveC)
            if let harness { return try await harness.run(body) }
        #endif
        return try await body()
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    static let jpeg = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/harbour.jpg")
    static let heic = jpeg.deletingLastPathComponent().appendingPathComponent("sky.heic")
    static let video = jpeg.deletingLastPathComponent().appendingPathComponent("clip.mp4")
}

@Suite struct AppLibraryConformanceTests {
    func with(_ kind: AppLibraryKind, _ body: (AppLibrary) async throws -> Void) async throws {
        let library = try AppLibrary(kind)
        defer { library.remove() }
        try await library.run { try await body(library) }
    }

    @Test(arguments: AppLibraryKind.available)
    func theFirstSaveCreatesTheAlbumAndLaterSavesFindIt(kind: AppLibraryKind) async throws {
        try await with(kind) { (app: AppLibrary) async throws in
            let album = app.library.album(titled: "Trips")
            let first = try await album.save(.file(AppLibrary.jpeg))
            let second = try await album.save(.file(AppLibrary.heic))
            #expect(first.albumOutcome == .created)
            #expect(second.albumOutcome == .found)
            #expect(second.albumID == first.albumID)
            let albums = try await app.library.albums()
            #expect(albums.map(\.title) == ["Trips"])
            #expect(albums.map(\.count) == [2])
            let listed = try await app.library.assets(inAlbumTitled: "Trips")
            #expect(listed.map(\.id) == [first.assetID, second.assetID])
            #expect(listed.map(\.originalFilename) == ["harbour.jpg", "sky.heic"])
            #expect(try await app.library.albumInfo(withID: first.albumID!).title == "Trips")
        }
    }

    @Test(arguments: AppLibraryKind.available)
    func aRenamedAlbumKeepsItsIDAndADeletedOneIsRecreated(kind: AppLibraryKind) async throws {
        try await with(kind) { (app: AppLibrary) async throws in
            let album = app.library.album(titled: "Trips")
            let first = try await album.save(.file(AppLibrary.jpeg))
            try await app.library.renameAlbum(withID: first.albumID!, to: "Holidays")
            let renamed = try await app.library.album(titled: "Holidays").save(.file(AppLibrary.heic))
            #expect(renamed.albumID == first.albumID)
            try await app.library.deleteAlbum(withID: first.albumID!)
            let again = try await app.library.album(titled: "Holidays").save(.file(AppLibrary.video))
            #expect(again.albumOutcome == .recreated)
            #expect(again.albumID != first.albumID)
        }
    }

    @Test(arguments: AppLibraryKind.available)
    func aBadFileFailsAloneByItsContent(kind: AppLibraryKind) async throws {
        try await with(kind) { (app: AppLibrary) async throws in
            let results = await app.library.album(titled: "Trips").save([
                .file(AppLibrary.jpeg), .data(Data("not a photo".utf8), filename: "fake.jpg"),
                .file(app.directory.appendingPathComponent("missing.jpg")),
            ])
            #expect((try? results[0].get()) != nil)
            #expect(results[1].failureCode == .notMedia)
            #expect(results[2].failureCode == .fileNotFound)
            #expect(try await app.library.assets(inAlbumTitled: "Trips").count == 1)
        }
    }

    @Test(arguments: AppLibraryKind.available)
    func everyLibraryAnswersAccessAndPagesWithFilters(kind: AppLibraryKind) async throws {
        try await with(kind) { (app: AppLibrary) async throws in
            #expect(try await app.library.requestAccess(for: .readWrite).isGranted)
            #expect(try await app.library.access(for: .addOnly) == .authorized)
            try await app.library.save(.file(AppLibrary.jpeg))
            try await app.library.save(.file(AppLibrary.video))
            try await app.library.save(.file(AppLibrary.heic))
            let videos = try await app.library.assets(orderedBy: .dateAdded, matching: .videos, limit: 10)
            #expect(videos.assets.map(\.kind) == [.video])
            if kind != .photoKit {
                // Photos reads the duration from the video; the simulator does not (it reports 0: unknown).
                #expect(videos.assets.first?.duration.map { $0 > 0 } == true)
            }
            var photos: [String?] = []
            var cursor: String?
            repeat {
                let page = try await app.library.assets(matching: .photos, after: cursor, limit: 1)
                photos += page.assets.map(\.originalFilename)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(Set(photos) == ["harbour.jpg", "sky.heic"])
            let none = try await app.library.assets(
                matching: AssetFilter(dates: Date.distantPast..<Date(timeIntervalSince1970: 0)), limit: 10)
            #expect(none.assets.isEmpty && none.nextCursor == nil)
        }
    }

    @Test(arguments: AppLibraryKind.available)
    func changesReportWhatTheAppAndOthersDo(kind: AppLibraryKind) async throws {
        try await with(kind) { (app: AppLibrary) async throws in
            try await app.library.requestAccess(for: .readWrite)
            var changes = app.library.changes(interval: .milliseconds(50)).makeAsyncIterator()
            // The first reading (or the observer's registration) happens in the background.
            try await Task.sleep(for: .milliseconds(300))
            let saved = try await app.library.album(titled: "Trips").save(.file(AppLibrary.jpeg))
            var seen = LibraryChange()
            while seen.insertedAssetIDs.isEmpty || seen.insertedAlbumIDs.isEmpty {
                let change = try #require(try await changes.next())
                seen.insertedAssetIDs += change.insertedAssetIDs
                seen.insertedAlbumIDs += change.insertedAlbumIDs
            }
            #expect(seen.insertedAssetIDs == [saved.assetID])
            #expect(seen.insertedAlbumIDs == [saved.albumID!])
            try await app.library.renameAlbum(withID: saved.albumID!, to: "Holidays")
            var renamed = try #require(try await changes.next())
            while renamed.changedAlbumIDs.isEmpty { renamed = try #require(try await changes.next()) }
            #expect(renamed.changedAlbumIDs == [saved.albumID!])
        }
    }

    @Test func aSaveThroughAnotherHandleOfTheCatalogIsReported() async throws {
        let app = try AppLibrary(.catalog)
        defer { app.remove() }
        try await app.library.save(.file(AppLibrary.jpeg))  // the library exists before the other handle opens it
        let other = try PhotoLibrary.catalog(
            at: app.directory.appendingPathComponent("Photos.albumlibrary"), createIfMissing: false)
        var changes = app.library.changes(interval: .milliseconds(200)).makeAsyncIterator()
        try await Task.sleep(for: .milliseconds(300))
        let saved = try await other.album(titled: "Elsewhere").save(.file(AppLibrary.heic))
        let change = try #require(try await changes.next())
        #expect(change.insertedAssetIDs == [saved.assetID])
        #expect(change.insertedAlbumIDs == [saved.albumID!])
    }

    @Test func theInMemoryLibraryKeepsDescriptionsAndMovesOwnedFiles() async throws {
        let app = try AppLibrary(.inMemory)
        defer { app.remove() }
        let owned = app.directory.appendingPathComponent("clip.mp4")
        try FileManager.default.copyItem(at: AppLibrary.video, to: owned)
        let when = Date(timeIntervalSince1970: 1_500_000_000)
        let saved = try await app.library.save(
            .file(owned).with(
                creationDate: when, location: GeoLocation(latitude: -33.86, longitude: 151.21), isFavorite: true,
                movesFile: true))
        #expect(!FileManager.default.fileExists(atPath: owned.path))
        let asset = try #require(try await app.library.assets(limit: 1).assets.first)
        #expect(asset.id == saved.assetID)
        #expect(asset.capturedAt == when)
        #expect(asset.location == GeoLocation(latitude: -33.86, longitude: 151.21))
        #expect(asset.isFavorite)
        #expect(asset.dateAdded != nil)
        #expect(asset.kind == .video)
    }

    @Test func theInMemoryLibraryAsksLikePhotosAndAppliesThePolicy() async throws {
        let never = PhotoLibrary.inMemory(access: .notDetermined, answer: .denied)
        #expect(try await never.access(for: .readWrite) == .notDetermined)
        await #expect(throws: AlbumError.self) { try await never.album(titled: "Trips").save(.file(AppLibrary.jpeg)) }
        #expect(try await never.access(for: .readWrite) == .denied)

        let addOnly = PhotoLibrary.inMemory(access: .denied, addOnlyAccess: .authorized)
        do {
            try await addOnly.album(titled: "Trips").save(.file(AppLibrary.jpeg))
            Issue.record("an album needs read-write access")
        } catch AlbumError.Code.accessDenied {}
        let skipped = try await addOnly.album(titled: "Trips", accessPolicy: .saveToLibraryWhenAlbumUnavailable)
            .save(.file(AppLibrary.jpeg))
        #expect(skipped.albumOutcome == .skipped("the app may only add photos (add-only access), not use albums"))
        await #expect(throws: AlbumError.self) { try await addOnly.albums() }

        let limited = PhotoLibrary.inMemory(access: .limited)
        #expect(try await limited.access(for: .addOnly) == .authorized)
        #expect(try await limited.album(titled: "Trips").save(.file(AppLibrary.jpeg)).albumOutcome == .created)
    }

    @Test func theSameBytesAreOneAssetInTheInMemoryLibrary() async throws {
        let library = PhotoLibrary.inMemory()
        let first = try await library.save(.file(AppLibrary.jpeg))
        let again = try await library.album(titled: "Trips").save(
            .data(Data(contentsOf: AppLibrary.jpeg), filename: "copy.jpg"))
        #expect(again.assetID == first.assetID)
        #expect(again.isExisting)
        #expect(try await library.assets(inAlbumTitled: "Trips").map(\.originalFilename) == ["harbour.jpg"])
    }

    #if !canImport(ObjectiveC)
        /// Photos compares no contents, and AlbumKit does not pretend it does (Docs/apple.md, "Same
        /// bytes twice"): the second save is a second asset, and says so by not being `isExisting`.
        @Test func theSameBytesAreTwoAssetsInPhotos() async throws {
            let harness = PhotoKitHarness()
            try await harness.run {
                let first = try await harness.library.save(.file(AppLibrary.jpeg))
                let again = try await harness.library.album(titled: "Trips").save(
                    .data(Data(contentsOf: AppLibrary.jpeg), filename: "copy.jpg"))
                #expect(again.assetID != first.assetID)
                #expect(!first.isExisting && !again.isExisting)
                #expect(harness.simulation.assets.count == 2)
                #expect(
                    try await harness.library.assets(inAlbumTitled: "Trips").map(\.originalFilename) == ["copy.jpg"])
            }
        }
    #endif

    @Test func progressMovesBeforeTheFirstCommit() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try PhotoLibrary.catalog(at: directory.appendingPathComponent("Photos.albumlibrary"))
        let seen = Locked<[SaveProgress]>([])
        let urls = [AppLibrary.jpeg, AppLibrary.heic, AppLibrary.video]
        await library.album(titled: "Trips").save(urls.map { .file($0) }) { progress in
            seen.withLock { $0.append(progress) }
        }
        let reports = seen.withLock { $0 }
        #expect(reports.contains { $0.completed == 0 && $0.fraction > 0 }, "\(reports.map(\.fraction))")
        #expect(reports.last?.fraction == 1)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.fraction <= $1.fraction })
    }

    @Test func captureDatesAreReadWithAndWithoutTheirZone() {
        #expect(AssetInfo.date(fromCaptureDate: "1970-01-02T00:00:00") == Date(timeIntervalSince1970: 86_400))
        #expect(
            AssetInfo.date(fromCaptureDate: "2024-05-01T10:20:30+02:00") == Date(timeIntervalSince1970: 1_714_551_630))
        #expect(AssetInfo.date(fromCaptureDate: "2024-05-01T08:20:30Z") == Date(timeIntervalSince1970: 1_714_551_630))
        #expect(
            AssetInfo.date(fromCaptureDate: "2024-05-01T08:20:30.5") == Date(timeIntervalSince1970: 1_714_551_630.5))
        #expect(AssetInfo.date(fromCaptureDate: "2024-13-01T08:20:30") == nil)
        #expect(AssetInfo.date(fromCaptureDate: "2024-05-01") == nil)
    }
}

extension Result where Failure == AlbumError {
    fileprivate var failureCode: AlbumError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
