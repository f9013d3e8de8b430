import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitFolders

/// WebM, Matroska, AVI and MPEG-TS videos are held by the catalog and folder libraries as videos,
/// with the size and duration their containers declare.
@Suite struct ContainerVideoLibraryTests {
    static let corpus = Fixture.packageRoot.appendingPathComponent("Tests/AlbumKitMediaTests/Fixtures/corpus")

    /// (file, format, width, height) of one corpus video per container.
    static let videos: [(String, MediaFormat, Int, Int)] = [
        ("webm-vp9.webm", .webm, 16, 12), ("mkv-h264-audio.mkv", .mkv, 24, 18), ("avi-mpeg4.avi", .avi, 16, 12),
        ("ts-h264-audio.ts", .mpegTS, 24, 18), ("m2ts-h264.m2ts", .m2ts, 16, 12),
    ]

    @Test(arguments: videos.map(\.0))
    func catalogHoldsTheVideo(_ name: String) async throws {
        let (_, format, width, height) = try #require(Self.videos.first { $0.0 == name })
        try await Fixture.withTemporaryDirectory { dir in
            // Given a catalog
            let library = try PhotoLibrary.catalog(at: dir.appendingPathComponent("Test.albumlibrary"))
            // When the video is saved into an album
            let saved = try await library.album(titled: "Screen recordings").save(
                .file(Self.corpus.appendingPathComponent(name)))
            // Then it is a video with the container's size and duration, and it is listed as one
            #expect(saved.metadata?.format == format && saved.metadata?.kind == .video)
            #expect(saved.metadata?.width == width && saved.metadata?.height == height)
            #expect(saved.metadata?.duration == 1)
            let listed = try await library.assets(inAlbumTitled: "Screen recordings")
            #expect(listed.map(\.kind) == [.video])
            #expect(listed.first?.originalFilename == name)
            #expect(listed.first?.metadata?.duration == 1)
            #expect(try await library.verify().problems.isEmpty)
        }
    }

    @Test(arguments: videos.map(\.0))
    func folderLibraryHoldsTheVideo(_ name: String) async throws {
        let (_, format, width, height) = try #require(Self.videos.first { $0.0 == name })
        try await FolderFixture.withRoot { root, _ in
            let library = try PhotoLibrary.folders(at: root)
            let saved = try await library.album(titled: "Screen recordings").save(
                .file(Self.corpus.appendingPathComponent(name)))
            #expect(saved.metadata?.format == format)
            #expect(saved.metadata?.width == width && saved.metadata?.height == height)
            // The file keeps its name and extension, and the folder lists it as a video.
            let files = try FileManager.default.contentsOfDirectory(
                atPath: root.appendingPathComponent("Screen recordings").path)
            #expect(files.filter { !$0.hasPrefix(".") } == [name])
            let listed = try await library.assets(inAlbumTitled: "Screen recordings")
            #expect(listed.map(\.kind) == [.video])
        }
    }

    @Test func truncatedWebMIsCorruptAndNothingIsSaved() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let library = try PhotoLibrary.catalog(at: dir.appendingPathComponent("Test.albumlibrary"))
            let bytes = try Data(contentsOf: Self.corpus.appendingPathComponent("webm-vp9.webm"))
            let cut = Fixture.write(bytes.prefix(bytes.count / 2), named: "recording.webm", in: dir)
            let result = await library.album(titled: "A").save([.file(cut)])[0]
            #expect(result.error?.code == .corruptMedia)
            #expect(result.error?.message.contains("recording.webm") == true)
            #expect(try await library.albums().allSatisfy { $0.count == 0 })
        }
    }
}
