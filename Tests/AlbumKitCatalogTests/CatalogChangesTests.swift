import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

/// A catalog's changes come from its journal's tail: an append cut short (a saver killed mid-write)
/// is waited out, not reported and not fatal, and the next save — which cuts the torn bytes off —
/// arrives.
@Suite struct CatalogChangesTests {
    @Test func aTornAppendIsWaitedOutAndTheNextSaveArrives() async throws {
        try await Fixture.withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("Photos.albumlibrary")
            let library = try PhotoLibrary.catalog(at: url)
            try await library.save(.data(Fixture.uniqueJPEG("first"), filename: "first.jpg"))
            let collector = ChangeCollector(library.changes(interval: .seconds(60)))
            defer { collector.stop() }
            // Watching has started once a change made now arrives (an album made before it started
            // is not one).
            var watching = false
            for attempt in 1...40 where !watching {
                let probe = try await library.createAlbum(titled: "Probe \(attempt)").id
                watching = await collector.wait(limit: .seconds(1)) { $0.insertedAlbumIDs == [probe] } != nil
            }
            #expect(watching)

            // Half a record, as a process killed in the middle of its append leaves it.
            let journal = try FileHandle(forWritingTo: url.appendingPathComponent("journal/library.journal"))
            try journal.seekToEnd()
            try journal.write(contentsOf: Data("0badc0de {\"op\":\"save\",\"id\":\"x".utf8))
            try journal.close()
            try await Task.sleep(for: .milliseconds(300))  // the watcher has looked at it

            let other = try PhotoLibrary.catalog(at: url, createIfMissing: false)
            let started = ContinuousClock.now
            let saved = try await other.album(titled: "Later").save(
                .data(Fixture.uniqueJPEG("second"), filename: "second.jpg"))
            let change = try #require(await collector.wait(limit: .seconds(10)) { !$0.isEmpty })
            #expect(change.insertedAssetIDs == [saved.assetID])
            #expect(change.insertedAlbumIDs == [saved.albumID!])
            // Well before the 60 s interval: it came through the watch, not the next periodic look
            // (5 s failed once on a machine running two test suites and the harness at once).
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }
}
