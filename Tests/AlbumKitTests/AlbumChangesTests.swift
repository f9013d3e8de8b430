import AlbumKitConformance
import AlbumKit
import Foundation
import Testing

/// An album's change stream: indexes against the listing before, the assets themselves, the album
/// deleted and recreated, and catching up after a restart with a kept token — on the in-memory
/// library and a catalog (Photos: `PhotoKitAlbumChangesTests`).
// Ten minutes: a change stream waits on the concurrency pool, which a loaded machine running the
// whole suite and other builds kept busy for over five (a limit for hangs, not for speed).
@Suite(.timeLimit(.minutes(10))) struct AlbumChangesTests {
    @Test func insertionsRemovalsAndADeletedAlbumAreReportedWithIndexes() async throws {
        try await AlbumAsOneObjectTests.onEveryKind { library in
            let album = library.album(titled: "Trips")
            let a = try await album.save(.data(Fixture.uniqueJPEG("a"), filename: "a.jpg"))
            var changes = album.changes(interval: .milliseconds(50)).makeAsyncIterator()

            let first = try #require(try await changes.next())
            #expect(first.albumID == a.albumID && first.assets.map(\.id) == [a.assetID])
            #expect(first.insertedIndexes == [0] && first.removedIndexes.isEmpty && !first.isAlbumDeleted)

            let b = try await album.save(.data(Fixture.uniqueJPEG("b"), filename: "b.jpg"))
            let second = try await Self.next(&changes)
            #expect(second.assets.map(\.id) == [a.assetID, b.assetID])
            #expect(second.insertedIndexes == [1] && second.insertedAssets.map(\.id) == [b.assetID])
            #expect(second.removedIndexes.isEmpty && second.changedIndexes.isEmpty && second.moves.isEmpty)

            try await library.removeAssets(withIDs: [a.assetID], fromAlbumWithID: try #require(a.albumID))
            let third = try await Self.next(&changes)
            #expect(third.removedIndexes == [0] && third.removedAssetIDs == [a.assetID])
            #expect(third.assets.map(\.id) == [b.assetID] && third.insertedIndexes.isEmpty)

            try await library.deleteAlbum(withID: try #require(a.albumID), force: true)
            // A library may show the album emptied before it is gone: read until it is gone.
            var fourth = try await Self.next(&changes)
            var removedIDs = fourth.removedAssetIDs
            for _ in 0..<3 where !fourth.isAlbumDeleted {
                fourth = try await Self.next(&changes)
                removedIDs += fourth.removedAssetIDs
            }
            #expect(fourth.isAlbumDeleted && !fourth.hasIncrementalChanges)
            #expect(fourth.albumID == nil && fourth.assets.isEmpty && removedIDs == [b.assetID])

            // The next save recreates it and says so; the stream lists the new album.
            let c = try await album.save(.data(Fixture.uniqueJPEG("c"), filename: "c.jpg"))
            #expect(c.albumOutcome == .recreated || c.albumOutcome == .created)
            let fifth = try await Self.next(&changes)
            #expect(fifth.albumID == c.albumID && fifth.assets.map(\.id) == [c.assetID])
            #expect(fifth.insertedIndexes == [0] && !fifth.isAlbumDeleted)
        }
    }

    @Test func aRestartedAppCatchesUpWithItsToken() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Photos.albumlibrary")
            let tokenData: Data
            let kept: String
            let dropped: String
            do {
                let library = try PhotoLibrary.catalog(at: url)
                let album = library.album(titled: "Trips")
                kept = try await album.save(.data(Fixture.uniqueJPEG("kept"), filename: "kept.jpg")).assetID
                dropped = try await album.save(.data(Fixture.uniqueJPEG("dropped"), filename: "x.jpg")).assetID
                var changes = album.changes().makeAsyncIterator()
                tokenData = try #require(try await changes.next()).token.data
            }
            // While the app is not running, another process changes the album.
            let other = try PhotoLibrary.catalog(at: url)
            let added = try await other.save(.data(Fixture.uniqueJPEG("new"), filename: "new.jpg"), toAlbum: "Trips")
            try await other.removeAssets(withIDs: [dropped], fromAlbumTitled: "Trips")

            let token = try AlbumChangeToken(data: tokenData)
            #expect(token.count == 2)
            let library = try PhotoLibrary.catalog(at: url)
            var changes = library.album(titled: "Trips").changes(since: token).makeAsyncIterator()
            let catchUp = try #require(try await changes.next())
            #expect(catchUp.removedAssetIDs == [dropped] && catchUp.removedIndexes == [1])
            #expect(catchUp.insertedAssets.map(\.id) == [added.assetID])
            #expect(Set(catchUp.assets.map(\.id)) == [kept, added.assetID])
            #expect(!catchUp.isAlbumDeleted)
        }
    }

    @Test func anAlbumDeletedWhileTheAppWasNotRunningIsReportedAndRecreatedByTheNextSave() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Photos.albumlibrary")
            let library = try PhotoLibrary.catalog(at: url)
            let first = try await library.save(.data(Fixture.uniqueJPEG("a"), filename: "a.jpg"), toAlbum: "Trips")
            var changes = library.album(titled: "Trips").changes().makeAsyncIterator()
            let token = try #require(try await changes.next()).token
            try await PhotoLibrary.catalog(at: url).deleteAlbum(titled: "Trips", force: true)

            let album = try PhotoLibrary.catalog(at: url).album(titled: "Trips")
            var resumed = album.changes(since: token).makeAsyncIterator()
            let catchUp = try #require(try await resumed.next())
            #expect(catchUp.isAlbumDeleted && catchUp.albumID == nil)
            #expect(catchUp.removedAssetIDs == [first.assetID] && catchUp.assets.isEmpty)
            let again = try await album.save(.data(Fixture.uniqueJPEG("b"), filename: "b.jpg"))
            #expect(again.albumOutcome == .recreated || again.albumOutcome == .created)
            let recreated = try await Self.next(&resumed)
            #expect(recreated.albumID == again.albumID && recreated.insertedAssets.map(\.id) == [again.assetID])
        }
    }

    /// A library that starts following its changes seconds after the album's first listing (a
    /// catalog under load): a save in between is still reported, by the listing made once the
    /// library follows.
    @Test func aSaveBeforeTheLibraryFollowsIsReported() async throws {
        let backend = InMemoryBackend(readWrite: .authorized, addOnly: nil, answer: .authorized)
        backend.followingDelay.withLock { $0 = .seconds(3) }
        let library = PhotoLibrary(backend: backend)
        let album = library.album(titled: "Trips")
        try await album.save(.data(Fixture.uniqueJPEG("a"), filename: "a.jpg"))
        var changes = album.changes(interval: .seconds(1)).makeAsyncIterator()
        let first = try #require(try await changes.next())
        #expect(first.assets.count == 1)
        try await Task.sleep(for: .milliseconds(1_500))
        let saved = try await album.save(.data(Fixture.uniqueJPEG("b"), filename: "b.jpg"))
        let next = try await Self.next(&changes)
        #expect(next.insertedAssets.map(\.id) == [saved.assetID])
    }

    @Test func aTokenIsCheckedWhenReadBack() throws {
        #expect(throws: AlbumError.self) { try AlbumChangeToken(data: Data("not a token".utf8)) }
        let forged = Data(
            #"{"albumID":"1","order":"dateAdded","entries":[{"id":"x","fingerprint":"0"},{"id":"x","fingerprint":"1"}]}"#
                .utf8)
        #expect(throws: AlbumError.self) { try AlbumChangeToken(data: forged) }
    }

    @Test func aTokenOfAnotherOrderIsRefused() async throws {
        let library = PhotoLibrary.inMemory()
        let album = library.album(titled: "Trips")
        try await album.save(.file(Fixture.jpeg))
        var changes = album.changes(orderedBy: .dateAdded).makeAsyncIterator()
        let token = try #require(try await changes.next()).token
        var other = album.changes(orderedBy: .captureDate, since: token).makeAsyncIterator()
        await #expect(throws: AlbumError.self) { _ = try await other.next() }
    }

    @Test func movesAndChangesAreComputedFromTwoListings() {
        func asset(_ id: String, added: Double, favourite: Bool = false) -> AssetInfo {
            AssetInfo(
                id: id, originalFilename: "\(id).jpg", kind: .photo, byteSize: 1,
                addedAt: Date(timeIntervalSince1970: added), isFavorite: favourite)
        }
        let before = [asset("a", added: 1), asset("b", added: 2), asset("c", added: 3), asset("d", added: 4)]
        let token = AlbumListingDiff.change(
            from: AlbumChangeToken(albumID: nil, order: .dateAdded, assets: []), to: before, albumID: "album",
            order: .dateAdded
        ).token
        // "a" moves to the end, "c" leaves, "e" comes, "b" becomes a favourite.
        let after = [
            asset("b", added: 2, favourite: true), asset("d", added: 4), asset("e", added: 5), asset("a", added: 9),
        ]
        let change = AlbumListingDiff.change(from: token, to: after, albumID: "album", order: .dateAdded)
        #expect(change.removedIndexes == [2] && change.removedAssetIDs == ["c"])
        #expect(change.insertedIndexes == [2] && change.insertedAssets.map(\.id) == ["e"])
        #expect(change.changedIndexes == [0, 3] && change.changedAssets.map(\.id) == ["b", "a"])
        #expect(change.moves == [AlbumChange.Move(from: 0, to: 3)])
        #expect(!change.isAlbumDeleted && !change.isEmpty)
        #expect(Self.applying(change, to: before.map(\.id)) == after.map(\.id))
        let same = AlbumListingDiff.change(from: change.token, to: after, albumID: "album", order: .dateAdded)
        #expect(same.isEmpty)
    }

    @Test func randomEditsAreDescribedByIndexesThatRebuildTheListing() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let before = (0..<Int.random(in: 0...12, using: &generator)).map { index in
                AssetInfo(
                    id: "a\(index)", originalFilename: nil, kind: .photo, byteSize: 1,
                    addedAt: Date(timeIntervalSince1970: Double.random(in: 0...20, using: &generator)))
            }
            var after = before.filter { _ in Bool.random(using: &generator) || Bool.random(using: &generator) }
            after = after.map { asset in
                guard Int.random(in: 0..<4, using: &generator) == 0 else { return asset }
                return AssetInfo(
                    id: asset.id, originalFilename: nil, kind: .photo, byteSize: 1,
                    addedAt: Date(timeIntervalSince1970: Double.random(in: 0...20, using: &generator)))
            }
            for index in 0..<Int.random(in: 0...3, using: &generator) {
                after.append(
                    AssetInfo(
                        id: "n\(index)", originalFilename: nil, kind: .photo, byteSize: 1,
                        addedAt: Date(timeIntervalSince1970: Double.random(in: 0...20, using: &generator))))
            }
            let old = AssetCursor.sorted(before, in: .dateAdded)
            let new = AssetCursor.sorted(after, in: .dateAdded)
            let token = AlbumChangeToken(albumID: "album", order: .dateAdded, assets: old)
            let change = AlbumListingDiff.change(from: token, to: new, albumID: "album", order: .dateAdded)
            #expect(Self.applying(change, to: old.map(\.id)) == new.map(\.id))
        }
    }

    /// `old` with `change` applied as a collection view applies a batch update: removals and moves'
    /// origins at positions before, insertions and moves' destinations at positions after.
    static func applying(_ change: AlbumChange, to old: [String]) -> [String] {
        var result = [String?](repeating: nil, count: change.assets.count)
        for index in change.insertedIndexes { result[index] = change.assets[index].id }
        for move in change.moves { result[move.to] = old[move.from] }
        let gone = Set(change.removedIndexes).union(change.moves.map(\.from))
        var stayed = old.indices.filter { !gone.contains($0) }.map { old[$0] }.makeIterator()
        for index in result.indices where result[index] == nil { result[index] = stayed.next() }
        return result.compactMap { $0 }
    }

    /// The next element (the suite's time limit fails a stream that never delivers it).
    static func next(
        _ iterator: inout AsyncThrowingStream<AlbumChange, any Error>.AsyncIterator
    ) async throws -> AlbumChange {
        try #require(try await iterator.next())
    }
}
