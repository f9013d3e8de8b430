import AlbumKitConformance
import AlbumKit
import Foundation
import Testing

/// The DocC catalog's examples, compiled and run against a real catalog (README's own examples are
/// compiled from README.md itself: see `ReadmeTests`).
@Suite struct DocumentationTests {
    @Test func gettingStartedExample() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let photoURL = Fixture.jpeg
            let urls = [Fixture.png, Fixture.heic, dir.appendingPathComponent("missing.jpg")]
            let jpegBytes = Fixture.jpegBytes

            let library = try PhotoLibrary.catalog(at: dir.appendingPathComponent("Photos.albumlibrary"))
            let album = library.album(titled: "Touch Code Magazine")

            let saved = try await album.save(.file(photoURL))
            #expect(saved.albumOutcome == .created)

            let fractions = Locked<[Double]>([])
            let results = await album.save(urls.map { .file($0) }) { progress in
                fractions.withLock { $0.append(progress.fraction) }
            }
            var codes: [AlbumError.Code] = []
            for case .failure(let error) in results { codes.append(error.code) }
            #expect(codes == [.fileNotFound])
            #expect(fractions.withLock { $0.last } == 1)

            let once = await withCheckedContinuation { continuation in
                album.save(.data(jpegBytes, filename: "IMG_0001.JPG"), queue: .global()) { result in
                    continuation.resume(returning: result)
                }
            }
            #expect(once.value?.albumOutcome == .found)
            // The same bytes as the first photo: the library returns that asset, stored once.
            #expect(once.value?.isExisting == true)
            #expect(once.value?.assetID == saved.assetID)

            do {
                try await album.save(.data(Data("text".utf8), filename: "x.jpg"))
                Issue.record("saving text must fail")
            } catch AlbumError.Code.notMedia {
                // matched by code
            }
            #expect(try await library.albums().map(\.count) == [3])
        }
    }

    /// The catalog's overview and "Getting Started"'s album that knows itself, as written there.
    @Test func overviewAndTheAlbumThatKnowsItself() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let photoURL = Fixture.jpeg
            let library = try PhotoLibrary.catalog(at: dir.appendingPathComponent("Photos.albumlibrary"))
            let album = library.album(titled: "Touch Code Magazine")
            let saved = try await album.save(.file(photoURL))
            #expect("\(saved.albumOutcome)" == "created")

            print(album.id ?? "")  // known since the save
            let info = try await album.info()  // title, count, identifier now
            let page = try await album.assets(orderedBy: .dateAdded, limit: 50)
            let more = try await album.assets(orderedBy: .dateAdded, after: page.nextCursor, limit: 50)
            #expect(album.id == saved.albumID && info.id == saved.albumID && info.count == 1)
            #expect(page.assets.map(\.id) == [saved.assetID] && more.assets == page.assets)

            let again = try await library.save(.data(Fixture.uniqueJPEG("again")), toAlbum: "Touch Code Magazine")
            #expect("\(again.albumOutcome)" == "found")
        }
    }
}
