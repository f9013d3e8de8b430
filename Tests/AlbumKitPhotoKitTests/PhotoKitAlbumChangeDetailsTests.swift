#if !canImport(ObjectiveC)
    import AlbumKitCore
    import Foundation
    import PhotoKitSimulator
    import Testing

    @testable import AlbumKitPhotoKit

    /// An album's change stream on Photos (the simulator) told by Photos itself: the indexes and
    /// moves of the album fetch's change details, a reload where Photos gives no details, and on a
    /// restart Photos' persistent change history since the token kept.
    @Suite(.timeLimit(.minutes(5))) struct PhotoKitAlbumChangeDetailsTests {
        /// The album's asset `id`, fetched.
        static func asset(_ id: String) throws -> PHAsset {
            try #require(PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil).firstObject)
        }

        /// `items` after the article's batch update ("Listing, paging and changes"): removals, then
        /// insertions and moves, then reloads of the changed.
        static func applying(_ change: AlbumChange, to items: [AssetInfo]) -> [AssetInfo] {
            guard change.hasIncrementalChanges else { return change.assets }
            var rows = [AssetInfo?](repeating: nil, count: change.assets.count)
            for index in change.insertedIndexes { rows[index] = change.assets[index] }
            for move in change.moves { rows[move.to] = items[move.from] }
            let gone = Set(change.removedIndexes).union(change.moves.map(\.from))
            var stayed = items.indices.filter { !gone.contains($0) }.map { items[$0] }.makeIterator()
            for index in rows.indices where rows[index] == nil { rows[index] = stayed.next() }
            var result = rows.compactMap { $0 }
            for index in change.changedIndexes { result[index] = change.assets[index] }
            return result
        }

        @Test func photosChangeDetailsGiveInsertsAndMoves() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            try await h.run {
                let album = h.library.album(titled: "Trips")
                let first = try await album.save(.file(PhotoKitHarness.jpeg))
                var changes = album.changes(interval: .milliseconds(50)).makeAsyncIterator()
                let initial = try #require(try await changes.next())
                #expect(initial.assets.map(\.id) == [first.assetID] && initial.token.libraryPosition != nil)
                try await PhotoKitDeveloperAPITests.waitForObservation(h)

                // Two saved in one change block: one change, both inserted after the first.
                let saved = await album.save([.file(PhotoKitHarness.jpeg), .file(PhotoKitHarness.heic)])
                let ids = try saved.map { try $0.get().assetID }
                let inserted = try #require(try await changes.next())
                #expect(inserted.insertedIndexes == [1, 2] && Set(inserted.insertedAssets.map(\.id)) == Set(ids))
                #expect(inserted.removedIndexes.isEmpty && inserted.moves.isEmpty && inserted.hasIncrementalChanges)

                // The last one dated before the first: it moves to the front, and it changed.
                let last = inserted.assets[2].id
                let moving = try Self.asset(last)
                try await PHPhotoLibrary.shared().performChanges {
                    PHAssetChangeRequest(for: moving).creationDate = Date(timeIntervalSince1970: 0)
                }
                let moved = try #require(try await changes.next())
                #expect(moved.assets.first?.id == last && moved.hasIncrementalChanges)
                #expect(moved.moves.contains(AlbumChange.Move(from: 2, to: 0)))
                #expect(moved.changedAssets.map(\.id) == [last])

                // A grid updated with Photos' indexes, as the article does, shows the album as it is.
                var items = Self.applying(initial, to: [])
                for change in [inserted, moved] { items = Self.applying(change, to: items) }
                #expect(items == moved.assets)
                #expect(h.simulation.userDeletesAsset(withLocalIdentifier: ids[0]))
                let removed = try #require(try await changes.next())
                #expect(removed.removedAssetIDs == [ids[0]] && removed.removedIndexes.count == 1)
                #expect(Self.applying(removed, to: items) == removed.assets)
            }
        }

        @Test func tooManyChangesForPhotosToDescribeAreAReload() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            h.simulation.incrementalChangeLimit = 1
            try await h.run {
                let album = h.library.album(titled: "Trips")
                try await album.save(.file(PhotoKitHarness.jpeg))
                var changes = album.changes(interval: .milliseconds(50)).makeAsyncIterator()
                _ = try #require(try await changes.next())
                try await PhotoKitDeveloperAPITests.waitForObservation(h)
                _ = await album.save([.file(PhotoKitHarness.jpeg), .file(PhotoKitHarness.heic)])
                let reload = try #require(try await changes.next())
                #expect(!reload.hasIncrementalChanges && !reload.isAlbumDeleted && !reload.isEmpty)
                #expect(reload.assets.count == 3 && reload.insertedIndexes.isEmpty && reload.removedIndexes.isEmpty)
            }
        }

        @Test func aRestartHearsFromPhotosHistoryWhatTheListingCannotShow() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            try await h.run {
                let saved = try await h.library.album(titled: "Trips").save(.file(PhotoKitHarness.jpeg))
                var changes = h.library.album(titled: "Trips").changes().makeAsyncIterator()
                let stored = try #require(try await changes.next()).token.data

                // While the app is not running: the user edits the picture in Photos (nothing listed
                // changes) and adds a photo to the album.
                #expect(h.simulation.userEditsAsset(withLocalIdentifier: saved.assetID))
                let added = h.simulation.userAddsAsset(creationDate: Date())
                #expect(
                    h.simulation.userAddsAsset(
                        withLocalIdentifier: added, toAlbumWithLocalIdentifier: try #require(saved.albumID)))

                var resumed = h.library.album(titled: "Trips").changes(since: try AlbumChangeToken(data: stored))
                    .makeAsyncIterator()
                let catchUp = try #require(try await resumed.next())
                #expect(catchUp.hasIncrementalChanges)
                #expect(catchUp.changedAssets.map(\.id) == [saved.assetID])
                #expect(catchUp.insertedAssets.map(\.id) == [added])

                // The same token without Photos' position (a token of an older AlbumKit) sees the
                // new photo but cannot know about the edit.
                var plain = try JSONSerialization.jsonObject(with: stored) as? [String: Any] ?? [:]
                plain["libraryPosition"] = nil
                let old = try AlbumChangeToken(data: try JSONSerialization.data(withJSONObject: plain))
                #expect(old.libraryPosition == nil)
                var listed = h.library.album(titled: "Trips").changes(since: old).makeAsyncIterator()
                let compared = try #require(try await listed.next())
                #expect(compared.changedAssets.isEmpty && compared.insertedAssets.map(\.id) == [added])
            }
        }

        @Test func aTokenOlderThanPhotosHistoryIsAReload() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            try await h.run {
                let saved = try await h.library.album(titled: "Trips").save(.file(PhotoKitHarness.jpeg))
                var changes = h.library.album(titled: "Trips").changes().makeAsyncIterator()
                let token = try #require(try await changes.next()).token
                let added = h.simulation.userAddsAsset(creationDate: Date())
                #expect(
                    h.simulation.userAddsAsset(
                        withLocalIdentifier: added, toAlbumWithLocalIdentifier: try #require(saved.albumID)))
                h.simulation.forgetPersistentChangeHistory()

                var resumed = h.library.album(titled: "Trips").changes(since: token).makeAsyncIterator()
                let reload = try #require(try await resumed.next())
                #expect(!reload.hasIncrementalChanges && !reload.isAlbumDeleted)
                #expect(reload.assets.map(\.id) == [saved.assetID, added] && reload.insertedIndexes.isEmpty)

                // Its token is a position in the history Photos keeps now: the next start is incremental.
                var next = h.library.album(titled: "Trips").changes(since: reload.token).makeAsyncIterator()
                let again = try #require(try await next.next())
                #expect(again.hasIncrementalChanges && again.isEmpty)
            }
        }

        @Test func aForgedPhotosTokenIsAReloadNotACrash() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            try await h.run {
                let saved = try await h.library.album(titled: "Trips").save(.file(PhotoKitHarness.jpeg))
                var changes = h.library.album(titled: "Trips").changes().makeAsyncIterator()
                let stored = try #require(try await changes.next()).token.data
                // Photos' token replaced by bytes that are no archive, then by an archive of a string.
                let archivedString = try NSKeyedArchiver.archivedData(
                    withRootObject: "not a token" as NSString, requiringSecureCoding: true)
                for forged in [Data("garbage".utf8), archivedString] {
                    var fields = try #require(try JSONSerialization.jsonObject(with: stored) as? [String: Any])
                    fields["libraryPosition"] = forged.base64EncodedString()
                    let token = try AlbumChangeToken(data: try JSONSerialization.data(withJSONObject: fields))
                    var resumed = h.library.album(titled: "Trips").changes(since: token).makeAsyncIterator()
                    let first = try #require(try await resumed.next())
                    #expect(!first.hasIncrementalChanges && first.assets.map(\.id) == [saved.assetID])
                    #expect(first.token.libraryPosition != forged)
                }
            }
        }

        @Test func watchingAnAlbumNeedsReadAccess() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.denied, for: .readWrite)
            await h.run {
                let album = h.library.album(titled: "Trips")
                await #expect(throws: AlbumError.self) {
                    for try await _ in album.changes() {}
                }
            }
        }
    }
#endif
