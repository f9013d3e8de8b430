import AlbumKitCore
import Foundation
import PhotoKitSimulator
import Testing

@testable import AlbumKitPhotoKit

/// Listing, adding, removing and deleting assets through Photos (the simulator on Linux).
@Suite struct PhotoKitAssetManagementTests {
    @Test func listAddRemoveDelete() async throws {
        let h = PhotoKitHarness()
        h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
        try await h.run {
            let trips = h.library.album(titled: "Trips")
            let first = try await trips.save(.file(PhotoKitHarness.jpeg))
            let second = try await h.library.save(.file(PhotoKitHarness.video))
            // The whole library, paged
            let page = try await h.library.assets(limit: 1)
            let rest = try await h.library.assets(after: page.nextCursor, limit: 5)
            #expect(Set(page.assets.map(\.id) + rest.assets.map(\.id)) == [first.assetID, second.assetID])
            #expect(rest.nextCursor == nil)
            // Add the video to Trips by id, then remove the photo
            let album = try await h.library.albumInfo(titled: "Trips")
            try await h.library.addAssets(withIDs: [second.assetID], toAlbumWithID: album.id)
            #expect(
                h.simulation.album(withLocalIdentifier: album.id)?.assetLocalIdentifiers == [
                    first.assetID, second.assetID,
                ])
            try await h.library.removeAssets(withIDs: [first.assetID], fromAlbumWithID: album.id)
            #expect(h.simulation.album(withLocalIdentifier: album.id)?.assetLocalIdentifiers == [second.assetID])
            #expect(h.simulation.assets.count == 2)  // removed from the album, not from Photos
            // Delete the video: gone from Photos and the album
            let deleted = try await h.library.deleteAssets(withIDs: [second.assetID])
            #expect(deleted.map(\.id) == [second.assetID])
            #expect(h.simulation.assets.map(\.localIdentifier) == [first.assetID])
            #expect(h.simulation.album(withLocalIdentifier: album.id)?.assetLocalIdentifiers == [])
        }
    }

    @Test func unknownIdsChangeNothing() async throws {
        let h = PhotoKitHarness()
        h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
        try await h.run {
            let saved = try await h.library.album(titled: "Trips").save(.file(PhotoKitHarness.jpeg))
            let album = try await h.library.albumInfo(titled: "Trips")
            let blocks = h.simulation.changeBlockCount
            for body in [
                { try await h.library.deleteAssets(withIDs: [saved.assetID, "nope"]) },
                { try await h.library.addAssets(withIDs: ["nope"], toAlbumWithID: album.id) },
                {
                    try await h.library.removeAssets(withIDs: ["nope"], fromAlbumWithID: album.id)
                    return []
                },
            ] as [() async throws -> Any] {
                do {
                    _ = try await body()
                    Issue.record("accepted")
                } catch {
                    #expect((error as? AlbumError)?.code == .assetNotFound)
                }
            }
            #expect(h.simulation.changeBlockCount == blocks)
            #expect(h.simulation.assets.count == 1)
        }
    }

    @Test func exportingFromPhotosIsNotSupported() async throws {
        let h = PhotoKitHarness()
        h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
        try await h.run {
            _ = try await h.library.album(titled: "Trips").save(.file(PhotoKitHarness.jpeg))
            let report = try await h.library.exportAlbum(
                titled: "Trips", to: FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString))
            #expect(report.exported.isEmpty)
            #expect(report.failures.map(\.code) == [.notSupported])
        }
    }
}
