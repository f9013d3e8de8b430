#if !canImport(ObjectiveC)
    import AlbumKitCore
    import Foundation
    import PhotoKitSimulator
    import Testing

    @testable import AlbumKitPhotoKit

    /// `AssetFilter.livePhotos` (`--kind live`): Photos' Live Photos, a photo with its paired video,
    /// and nothing else; the assets tell which they are.
    @Suite struct PhotoKitLivePhotoFilterTests {
        @Test func livePhotosAreListedAloneAndSaySo() async throws {
            let h = PhotoKitHarness()
            let (live, still, listed, all) = try await h.run {
                let album = h.library.album(titled: "Live")
                let live = try await album.save(
                    .livePhoto(photo: PhotoKitHarness.heic, pairedVideo: PhotoKitHarness.video))
                let still = try await album.save(.file(PhotoKitHarness.jpeg))
                _ = try await album.save(.file(PhotoKitHarness.video))
                let listed = try await h.library.assets(orderedBy: .dateAdded, matching: .livePhotos, limit: 10)
                let all = try await h.library.assets(orderedBy: .dateAdded, limit: 10)
                return (live, still, listed, all)
            }
            #expect(listed.assets.map(\.id) == [live.assetID])
            #expect(all.assets.count == 3)
            #expect(all.assets.first { $0.id == live.assetID }?.isLivePhoto == true)
            #expect(all.assets.first { $0.id == still.assetID }?.isLivePhoto == false)
        }
    }
#endif
