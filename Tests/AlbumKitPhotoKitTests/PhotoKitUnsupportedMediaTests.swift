import AlbumKitCore
import Foundation
import PhotoKitSimulator
import Testing

@testable import AlbumKitPhotoKit

/// Photos does not import WebM, Matroska, AVI or MPEG-TS: AlbumKit refuses them with
/// `.unsupportedMedia` before any permission prompt or change block.
@Suite struct PhotoKitUnsupportedMediaTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("AlbumKitMediaTests/Fixtures/corpus")
    static let names = ["webm-vp9.webm", "mkv-h264-audio.mkv", "avi-mpeg4.avi", "ts-h264-audio.ts", "m2ts-h264.m2ts"]

    @Test(arguments: names)
    func refusedBeforeAnyPromptOrChangeBlock(_ name: String) async throws {
        // Given a user who has never been asked for access
        let h = PhotoKitHarness()
        let url = Self.corpus.appendingPathComponent(name)
        // When the video is saved into an album, and to the library only
        let intoAlbum = await h.run { await h.library.album(titled: "Clips").save([.file(url)])[0] }
        let libraryOnly = await h.run { await h.library.save([.file(url)])[0] }
        // Then both are refused as unsupported, naming the file, and Photos was never touched
        for result in [intoAlbum, libraryOnly] {
            #expect(result.error?.code == .unsupportedMedia)
            #expect(result.error?.file == url.path)
            #expect(result.error?.message.contains(name) == true)
        }
        #expect(h.simulation.authorizationPromptCount == 0)
        #expect(h.simulation.changeBlockCount == 0)
        #expect(h.simulation.assets.isEmpty && h.simulation.albums.isEmpty)
    }

    @Test func bytesInMemoryAreRefusedToo() async throws {
        let h = PhotoKitHarness()
        let data = try Data(contentsOf: Self.corpus.appendingPathComponent("webm-vp9.webm"))
        let result = await h.run { await h.library.save([.data(data, filename: "screencast.webm")])[0] }
        #expect(result.error?.code == .unsupportedMedia)
        #expect(h.simulation.authorizationPromptCount == 0)
    }

    @Test func mixedBatchSavesTheRestInOrder() async throws {
        // Given a JPEG, a WebM and an MP4
        let h = PhotoKitHarness()
        let media: [Media] = [
            .file(PhotoKitHarness.jpeg), .file(Self.corpus.appendingPathComponent("webm-vp9.webm")),
            .file(PhotoKitHarness.video),
        ]
        // When they are saved together
        let results = await h.run { await h.library.album(titled: "Mixed").save(media) }
        // Then the WebM alone is refused, the others are saved in one change block after one prompt
        #expect(results.map { $0.error?.code } == [nil, .unsupportedMedia, nil])
        #expect(h.simulation.authorizationPrompts == [.readWrite])
        #expect(h.simulation.changeBlockCount == 1)
        #expect(h.simulation.albums.first?.assetLocalIdentifiers.count == 2)
    }

    @Test func mp4IsStillAccepted() async throws {
        let h = PhotoKitHarness()
        let saved = try await h.run { try await h.library.album(titled: "Clips").save(.file(PhotoKitHarness.video)) }
        #expect(saved.metadata?.format == .mp4)
    }
}
