#if !canImport(ObjectiveC)
    import AlbumKitCore
    import Foundation
    import PhotoKitSimulator
    import Testing

    @testable import AlbumKitPhotoKit

    /// An album on Photos (the simulator) describing and listing itself, and its change stream:
    /// what the user does in Photos arrives as indexes against the listing before.
    @Suite(.timeLimit(.minutes(5))) struct PhotoKitAlbumChangesTests {
        @Test func theAlbumKnowsItsIdentifierAndListsItself() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            try await h.run {
                let album = h.library.album(titled: "Trips")
                #expect(album.id == nil)
                let saved = try await album.save(.file(PhotoKitHarness.jpeg))
                #expect(saved.albumOutcome == .created && album.id == saved.albumID)
                let info = try await album.info()
                #expect(info.count == 1 && info.title == "Trips")
                #expect(try await album.assets(limit: 1).assets.map(\.id) == [saved.assetID])
                let alone = try await h.library.save(.file(PhotoKitHarness.jpeg))
                #expect(alone.albumOutcome == .notRequested)
            }
        }

        @Test func whatTheUserDoesInPhotosArrivesAsIndexes() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            try await h.run {
                let album = h.library.album(titled: "Trips")
                let first = try await album.save(.file(PhotoKitHarness.jpeg))
                let albumID = try #require(first.albumID)
                var changes = album.changes(interval: .milliseconds(50)).makeAsyncIterator()
                let initial = try #require(try await changes.next())
                #expect(initial.assets.map(\.id) == [first.assetID] && initial.insertedIndexes == [0])
                try await PhotoKitDeveloperAPITests.waitForObservation(h)

                let added = h.simulation.userAddsAsset(creationDate: Date())
                #expect(h.simulation.userAddsAsset(withLocalIdentifier: added, toAlbumWithLocalIdentifier: albumID))
                let inserted = try #require(try await changes.next())
                #expect(inserted.insertedAssets.map(\.id) == [added])
                #expect(inserted.assets.count == 2 && inserted.removedIndexes.isEmpty)

                #expect(h.simulation.userMarksAsset(withLocalIdentifier: first.assetID, favorite: true))
                let changed = try #require(try await changes.next())
                #expect(changed.changedAssets.map(\.id) == [first.assetID])
                #expect(changed.changedAssets.first?.isFavorite == true)
                #expect(changed.insertedIndexes.isEmpty && changed.removedIndexes.isEmpty)

                let position = try #require(changed.assets.firstIndex { $0.id == added })
                #expect(h.simulation.userDeletesAsset(withLocalIdentifier: added))
                let removed = try #require(try await changes.next())
                #expect(removed.removedIndexes == [position] && removed.removedAssetIDs == [added])

                #expect(h.simulation.userDeletesAlbum(withLocalIdentifier: albumID))
                let deleted = try #require(try await changes.next())
                #expect(deleted.isAlbumDeleted && deleted.albumID == nil && deleted.assets.isEmpty)

                let again = try await album.save(.file(PhotoKitHarness.jpeg))
                #expect(again.albumOutcome == .recreated)
                let recreated = try #require(try await changes.next())
                #expect(recreated.albumID == again.albumID && recreated.insertedAssets.map(\.id) == [again.assetID])
            }
        }

        @Test func anAppStartedAgainCatchesUpWithItsToken() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            try await h.run {
                let saved = try await h.library.album(titled: "Trips").save(.file(PhotoKitHarness.jpeg))
                var changes = h.library.album(titled: "Trips").changes().makeAsyncIterator()
                let token = try AlbumChangeToken(data: try #require(try await changes.next()).token.data)

                // While the app is not running, the user deletes the album in Photos.
                #expect(h.simulation.userDeletesAlbum(withLocalIdentifier: try #require(saved.albumID)))

                let album = h.library.album(titled: "Trips")
                var resumed = album.changes(since: token).makeAsyncIterator()
                let catchUp = try #require(try await resumed.next())
                #expect(catchUp.isAlbumDeleted && catchUp.removedAssetIDs == [saved.assetID])
                let again = try await album.save(.file(PhotoKitHarness.jpeg))
                #expect(again.albumOutcome == .recreated)
            }
        }
    }
#endif
