import AlbumKitCore
import AlbumTestSupport
import Foundation
import Testing

/// `fullSizeImage(forAssetWithID:)` on every kind here: the original file byte for byte where the
/// library keeps it, Photos' rendering at full size (the simulator renders with ImageMagick, as for
/// its thumbnails), `nil` for a video where nothing is decoded, `assetNotFound` for an unknown id.
@Suite struct FullSizeImageTests {
    @Test(arguments: ThumbnailTests.Kind.available)
    func aFullSizeImageIsTheOriginalOrPhotosRendering(kind: ThumbnailTests.Kind) async throws {
        // The simulator renders through ImageMagick's `convert`, which a fresh machine may lack.
        if kind == .photoKit { _ = try ExternalTool.require("convert") }
        try await ThumbnailTests().with(kind) { library, _ in
            let original = try Data(contentsOf: AppLibraryTests.jpeg)
            let saved = try await library.album(titled: "Trips").save(.file(AppLibraryTests.jpeg))
            let unknown = kind == .folders ? "\(saved.albumID!)/IMG_9999.JPG" : "no-such-asset"
            #expect(await Self.code { try await library.fullSizeImage(forAssetWithID: unknown) } == .assetNotFound)

            let image = try #require(try await library.fullSizeImage(forAssetWithID: saved.assetID))
            #expect(image.format == .jpeg)
            #expect(image.pixelWidth == saved.metadata?.width && image.pixelHeight == saved.metadata?.height)
            if kind == .photoKit {
                #expect(!image.isOriginal, "Photos renders it")
            } else {
                #expect(image.isOriginal && image.data == original, "the original, byte for byte")
                let video = try await library.album(titled: "Trips").save(.file(AppLibraryTests.video))
                #expect(try await library.fullSizeImage(forAssetWithID: video.assetID) == nil)
            }
        }
    }

    /// The code of the `AlbumError` that `body` threw; `nil` when it threw none.
    static func code(_ body: () async throws -> AssetImage?) async -> AlbumError.Code? {
        do {
            _ = try await body()
            return nil
        } catch {
            return (error as? AlbumError)?.code
        }
    }
}
