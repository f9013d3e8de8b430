import AlbumKitCatalog
import AlbumKitConformance
import AlbumKitCore
import Foundation
import Testing

/// What an app's own tests meet beyond the conformance kit (which `InMemoryConformanceTests` and
/// `PhotoKitConformanceTests` run on the in-memory library and Photos through the simulator): the
/// in-memory library's access prompts and policy, progress, capture dates.
@Suite struct AppLibraryTests {
    static let jpeg = Fixture.jpeg
    static let heic = Fixture.heic
    static let video = Fixture.video

    @Test func theInMemoryLibraryAsksLikePhotosAndAppliesThePolicy() async throws {
        let never = PhotoLibrary.inMemory(access: .notDetermined, answer: .denied)
        #expect(try await never.access(for: .readWrite) == .notDetermined)
        await #expect(throws: AlbumError.self) { try await never.album(titled: "Trips").save(.file(Self.jpeg)) }
        #expect(try await never.access(for: .readWrite) == .denied)

        let addOnly = PhotoLibrary.inMemory(access: .denied, addOnlyAccess: .authorized)
        do {
            try await addOnly.album(titled: "Trips").save(.file(Self.jpeg))
            Issue.record("an album needs read-write access")
        } catch AlbumError.Code.accessDenied {}
        let skipped = try await addOnly.album(titled: "Trips", accessPolicy: .saveToLibraryWhenAlbumUnavailable)
            .save(.file(Self.jpeg))
        #expect(skipped.albumOutcome == .skipped("the app may only add photos (add-only access), not use albums"))
        await #expect(throws: AlbumError.self) { try await addOnly.albums() }

        let limited = PhotoLibrary.inMemory(access: .limited)
        #expect(try await limited.access(for: .addOnly) == .authorized)
        #expect(try await limited.album(titled: "Trips").save(.file(Self.jpeg)).albumOutcome == .created)
    }

    @Test func theSameBytesAreOneAssetInTheInMemoryLibrary() async throws {
        let library = PhotoLibrary.inMemory()
        let first = try await library.save(.file(Self.jpeg))
        let again = try await library.album(titled: "Trips").save(
            .data(Data(contentsOf: Self.jpeg), filename: "copy.jpg"))
        #expect(again.assetID == first.assetID)
        #expect(again.isExisting)
        #expect(try await library.assets(inAlbumTitled: "Trips").map(\.originalFilename) == ["harbour.jpg"])
    }

    @Test func progressMovesBeforeTheFirstCommit() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try PhotoLibrary.catalog(at: directory.appendingPathComponent("Photos.albumlibrary"))
        let seen = Locked<[SaveProgress]>([])
        let urls = [Self.jpeg, Self.heic, Self.video]
        await library.album(titled: "Trips").save(urls.map { .file($0) }) { progress in
            seen.withLock { $0.append(progress) }
        }
        let reports = seen.withLock { $0 }
        #expect(reports.contains { $0.completed == 0 && $0.fraction > 0 }, "\(reports.map(\.fraction))")
        #expect(reports.last?.fraction == 1)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.fraction <= $1.fraction })
    }

    /// Items are prepared on staging tasks while earlier ones are committed and reported: the
    /// reports still come one at a time, each at least as far along as the one before.
    @Test func progressComesOneReportAtATimeAndNeverMovesBack() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try PhotoLibrary.catalog(at: directory.appendingPathComponent("Photos.albumlibrary"))
        let state = Locked((inside: 0, overlaps: 0, fractions: [Double]()))
        let media = (0..<300).map { Media.data(Fixture.uniqueJPEG("progress \($0)"), filename: "p\($0).jpg") }
        let results = await library.album(titled: "Many").save(media) { progress in
            state.withLock {
                $0.inside += 1
                if $0.inside > 1 { $0.overlaps += 1 }
            }
            usleep(50)  // widens the window in which a second, concurrent report would be seen
            state.withLock {
                $0.fractions.append(progress.fraction)
                $0.inside -= 1
            }
        }
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        let seen = state.withLock { $0 }
        #expect(seen.overlaps == 0)
        #expect(seen.fractions.count == 600)
        let backwards = zip(seen.fractions, seen.fractions.dropFirst()).filter { $0 > $1 }
        #expect(backwards.isEmpty, "\(backwards.prefix(5))")
        #expect(seen.fractions.last == 1)
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

    #if !canImport(ObjectiveC)
        /// Photos compares no contents, and AlbumKit does not pretend it does (Docs/apple.md, "Same
        /// bytes twice"): the second save is a second asset, and says so by not being `isExisting`.
        @Test func theSameBytesAreTwoAssetsInPhotos() async throws {
            let harness = PhotoKitHarness()
            try await harness.run {
                let first = try await harness.library.save(.file(AppLibraryTests.jpeg))
                let again = try await harness.library.album(titled: "Trips").save(
                    .data(Data(contentsOf: AppLibraryTests.jpeg), filename: "copy.jpg"))
                #expect(again.assetID != first.assetID)
                #expect(!first.isExisting && !again.isExisting)
                #expect(harness.simulation.assets.count == 2)
                #expect(
                    try await harness.library.assets(inAlbumTitled: "Trips").map(\.originalFilename) == ["copy.jpg"])
            }
        }
    #endif
}
