import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

/// The name of a process's next lone save, listed after the one before it (``NamesListedAhead``):
/// listed only from the second lone save on, taken by the next lone save into its folder (which
/// then lists no name of its own), and never a file anyone has to clean up.
@Suite struct NamesListedAheadTests {
    func listed(_ backend: CatalogBackend) -> [String] {
        ProcessOwner.publishedPaths(of: ProcessOwner.token, in: backend.ownersPath)
    }

    func originals(_ url: URL) -> [String] {
        Fixture.files(under: url.appendingPathComponent("originals"))
    }

    @Test func theNextLoneSaveTakesTheNameListedAfterTheOneBefore() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Ahead.albumlibrary")
            let backend = try CatalogBackend.open(at: url)
            let library = PhotoLibrary(backend: backend)
            let album = library.album(titled: "A")
            // One lone save (a command saving one photo): nothing is listed ahead of a next one.
            _ = try await album.save(.data(Fixture.uniqueJPEG("first"), filename: "1.jpg"))
            await Blocking.acknowledgedWorkFinished()
            #expect(listed(backend).isEmpty)
            var tookListedName = false
            // The shard folder follows the clock (16 s): tried again should it change between saves.
            for attempt in 0..<10 where !tookListedName {
                _ = try await album.save(.data(Fixture.uniqueJPEG("before \(attempt)"), filename: "b.jpg"))
                await Blocking.acknowledgedWorkFinished()
                // Listed and flushed after the save was acknowledged: the file is not there.
                let ahead = listed(backend)
                try #require(ahead.count == 1)
                #expect(!FileManager.default.fileExists(atPath: url.path + "/" + ahead[0]))
                #expect(LibraryFilePath.isSavedName(ahead[0]))
                let saved = try await album.save(.data(Fixture.uniqueJPEG("next \(attempt)"), filename: "n.jpg"))
                await Blocking.acknowledgedWorkFinished()
                let file = try #require(
                    try await library.assets(inAlbumTitled: "A").first { $0.id == saved.assetID }?.fileURL)
                guard file.path == url.path + "/" + ahead[0] else { continue }
                tookListedName = true
                #expect(ahead[0].contains(saved.assetID))
                // The name it took is off the list; the one listed for the save after it is not its own.
                let after = listed(backend)
                #expect(after.count == 1 && after != ahead)
            }
            #expect(tookListedName)
            #expect(try await library.verify().isHealthy)
            #expect(try await library.assets(inAlbumTitled: "A").count == originals(url).count)
        }
    }

    /// A staged lone save that takes the listed name and is then discarded leaves nothing, and the
    /// name is off the list; dropping the waiting name (a library closed) empties the list.
    @Test func aListedNameDiscardedOrDroppedLeavesNothingListed() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Dropped.albumlibrary")
            let backend = try CatalogBackend.open(at: url)
            let library = PhotoLibrary(backend: backend)
            for index in 0..<2 {
                _ = try await library.album(titled: "A").save(.data(Fixture.uniqueJPEG("\(index)"), filename: "x.jpg"))
            }
            await Blocking.acknowledgedWorkFinished()
            let ahead = try #require(listed(backend).first)
            let lone = try await backend.stage([.data(Fixture.uniqueJPEG("lone"), filename: "lone.jpg")]) {}[0].get()
            if lone.relativePath == ahead {
                // Taken: it waits for no listing, and is named while staged as any lone save.
                try lone.listing?.wait()
                try lone.publishing?.wait()
                #expect(FileManager.default.fileExists(atPath: url.path + "/" + ahead))
            } else {
                // Not taken (the shard's clock moved on between the saves and this one, as it does on a
                // busy machine): its own name is listed as any lone save's is.
                try lone.listing?.wait()
            }
            await backend.discard(lone)
            #expect(!FileManager.default.fileExists(atPath: url.path + "/" + lone.relativePath))
            // The list file is emptied once it names nothing (``ProcessOwner/clearPublishing(_:in:)``):
            // taken, the discarded name was its only line; not taken, the waiting name keeps it (and
            // the discarded line names no file) until it is dropped below.
            if lone.relativePath == ahead { #expect(listed(backend).isEmpty) }
            backend.namesListedAhead.drop(owners: backend.ownersPath)
            #expect(listed(backend).isEmpty)
            #expect(originals(url).count == 2)
            #expect(try await library.verify().isHealthy)
        }
    }

    /// A process that dies with a name listed ahead (never given to a file): the next opening
    /// finds nothing of it to remove, keeps every saved photo, and forgets the dead owner.
    @Test func aNameListedAheadOfADeadProcessNamesNothingToRemove() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Dead.albumlibrary")
            let backend = try CatalogBackend.open(at: url)
            let library = PhotoLibrary(backend: backend)
            for index in 0..<2 {
                _ = try await library.album(titled: "A").save(.data(Fixture.uniqueJPEG("\(index)"), filename: "x.jpg"))
            }
            await Blocking.acknowledgedWorkFinished()
            let ahead = try #require(listed(backend).first)
            // The same list, left by a process that died before its next save.
            let owners = url.appendingPathComponent("owners")
            let dead = "p999996-00000000000000fc"
            Fixture.write(Data(ProcessOwner.formatLine), named: dead, in: owners)
            Fixture.write(Data("\(ahead)\n".utf8), named: dead + ".publishing", in: owners)
            let reopened = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(try await reopened.assets(inAlbumTitled: "A").count == 2)
            #expect(originals(url).count == 2)
            #expect(!FileManager.default.fileExists(atPath: owners.path + "/" + dead + ".publishing"))
            #expect(try await reopened.verify().isHealthy)
        }
    }
}
