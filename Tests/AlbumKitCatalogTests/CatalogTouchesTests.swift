import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

/// What a catalog's changes touch, told from its journal's records alone (the album page's live
/// feed): each change names the albums whose listing it changed — a deletion or a restoration the
/// albums holding its assets, read from the index — and nothing else.
@Suite struct CatalogTouchesTests {
    /// The touches of `stream` as they come.
    final class Collector: Sendable {
        private let touches = Locked<[LibraryTouch]>([])
        private let task: Task<Void, Never>

        init(_ stream: AsyncThrowingStream<LibraryTouch, any Error>) {
            let touches = self.touches
            task = Task {
                do {
                    for try await touch in stream { touches.withLock { $0.append(touch) } }
                } catch {
                    Issue.record("the touch stream failed: \(error)")
                }
            }
        }

        /// The touches that came until one `matches` (it included), waiting at most `limit`; `nil` when none did.
        func until(limit: Duration = .seconds(20), _ matches: (LibraryTouch) -> Bool) async -> [LibraryTouch]? {
            let started = ContinuousClock.now
            while ContinuousClock.now - started < limit {
                let found = touches.withLock { touches -> [LibraryTouch]? in
                    guard let index = touches.firstIndex(where: matches) else { return nil }
                    defer { touches.removeFirst(index + 1) }
                    return Array(touches[...index])
                }
                if let found { return found }
                try? await Task.sleep(for: .milliseconds(20))  // not an error: a pause between looks
            }
            return nil
        }

        func stop() { task.cancel() }
    }

    @Test func eachChangeNamesTheAlbumsWhoseListingItChanged() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("Photos.albumlibrary")
            let library = try PhotoLibrary.catalog(at: url)
            let kept = try await library.album(titled: "Kept").save(
                .data(Fixture.uniqueJPEG("kept"), filename: "kept.jpg"))
            let keptAlbum = try #require(kept.albumID)
            let collector = Collector(library.touches(interval: .seconds(60)))
            defer { collector.stop() }
            // Following has started once a change made now arrives.
            var following = false
            for attempt in 1...40 where !following {
                let probe = try await library.createAlbum(titled: "Probe \(attempt)").id
                following = await collector.until(limit: .seconds(1)) { $0.albumIDs == [probe] } != nil
            }
            #expect(following)

            // Another process's save into another album: that album, one asset; not "Kept".
            let other = try PhotoLibrary.catalog(at: url, createIfMissing: false)
            let elsewhere = try await other.album(titled: "Elsewhere").save(
                .data(Fixture.uniqueJPEG("elsewhere"), filename: "elsewhere.jpg"))
            let elsewhereAlbum = try #require(elsewhere.albumID)
            let saved = try #require(await collector.until { $0.albumIDs.contains(elsewhereAlbum) })
            #expect(saved.allSatisfy { !$0.albumIDs.contains(keptAlbum) })
            #expect(saved.last!.assets >= 1)

            // A deletion names the albums that held the asset (read from the index), a restoration too.
            _ = try await other.deleteAssets(withIDs: [kept.assetID])
            let deleted = try #require(await collector.until { $0.albumIDs.contains(keptAlbum) })
            #expect(deleted.last!.albumIDs == [keptAlbum] && deleted.last!.assets == 1)
            try await other.restoreAssets(withIDs: [kept.assetID])
            let restored = try #require(await collector.until { $0.albumIDs.contains(keptAlbum) })
            #expect(restored.last!.albumIDs == [keptAlbum])

            // An asset added to "Kept", then removed: "Kept" each time; a rename names the album.
            _ = try await other.addAssets(withIDs: [elsewhere.assetID], toAlbumWithID: keptAlbum)
            #expect(await collector.until { $0.albumIDs == [keptAlbum] } != nil)
            try await other.removeAssets(withIDs: [elsewhere.assetID], fromAlbumWithID: keptAlbum)
            #expect(await collector.until { $0.albumIDs == [keptAlbum] } != nil)
            try await other.renameAlbum(withID: elsewhereAlbum, to: "Far away")
            #expect(await collector.until { $0.albumIDs == [elsewhereAlbum] } != nil)

            // Deleted for good in one commit (a deletion and a purge): the index no longer holds
            // the asset, so no album is named — the asset is still counted.
            _ = try await other.deleteAssets(withIDs: [elsewhere.assetID], permanently: true)
            let purged = try #require(await collector.until { $0.assets > 0 })
            #expect(purged.last!.albumIDs.isEmpty)
        }
    }

    /// The records' touches, one kind at a time, without following (the index read for deletions).
    @Test func aBatchOfRecordsTouchesEachAlbumOnce() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("Photos.albumlibrary")
            let library = try PhotoLibrary.catalog(at: url)
            let a = try await library.album(titled: "A").save(.data(Fixture.uniqueJPEG("a"), filename: "a.jpg"))
            let albumA = try #require(a.albumID)
            _ = try await library.addAssets(
                withIDs: [a.assetID], toAlbumWithID: try await library.createAlbum(titled: "B").id)
            let albumB = try await library.albumInfo(titled: "B").id
            let backend = try CatalogBackend.open(at: url)
            let touch = try backend.touch(of: [
                .addToAlbum(album: albumA, assets: ["x"], at: 0), .renameAlbum(id: albumA, title: "A2"),
                .deleteAssets([a.assetID], at: 0), .purgeAssets(["y"]), .rememberAlbum(id: "z", title: "Z"),
            ])
            #expect(touch.albumIDs == [albumA, albumB])
            #expect(touch.assets == 1)
            #expect(try backend.touch(of: [.purgeAssets(["y"]), .acknowledgeDamage(offset: 0)]).isEmpty)
        }
    }
}
