import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

/// `PhotoLibrary.catalog(at:)` returns at once even when opening has to wait for another
/// connection's lock; the first use waits instead, and fails with what opening failed with.
@Suite(.onThreadsOfTheirOwn) struct CatalogOpeningTests {
    @Test func openingWaitsForALockInTheBackgroundNotInTheCaller() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Busy.albumlibrary")
            try await PhotoLibrary.catalog(at: url).save(.file(Fixture.jpeg))
            // Another process (the sqlite3 shell) holds the catalog's exclusive lock until its input
            // ends: opening waits for it to read the catalog.
            let holder = Process()
            holder.executableURL = URL(fileURLWithPath: try ExternalTool.require("sqlite3"))
            holder.arguments = [url.appendingPathComponent("catalog.sqlite").path]
            let input = Pipe()
            let output = Pipe()
            holder.standardInput = input
            holder.standardOutput = output
            try holder.run()
            input.fileHandleForWriting.write(
                Data(
                    """
                    .timeout 10000
                    .output /dev/null
                    .output stdout
                    BEGIN EXCLUSIVE;
                    DELETE FROM album_asset WHERE 0;
                    .print locked

                    """.utf8))
            #expect(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self).contains("locked"))
            let writer = input.fileHandleForWriting
            DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { try? writer.close() }

            // catalog(at:) returns at once…
            let start = Date()
            let library = try PhotoLibrary.catalog(at: url)
            #expect(Date().timeIntervalSince(start) < 0.3)
            // …and the first use waits for the lock, then works.
            let saved = try await library.album(titled: "Later").save(.file(Fixture.png))
            #expect(Date().timeIntervalSince(start) >= 1.0, "nothing waited for the lock")
            #expect(saved.albumOutcome == .created)
            #expect(try await library.albums().map(\.count) == [1])
            holder.waitUntilExit()
            #expect(holder.terminationStatus == 0, "the sqlite3 shell could not take the lock")
        }
    }

    @Test func errorsOfOpeningComeFromTheFirstUse() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("NotOurs.albumlibrary")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try Data("mine".utf8).write(to: url.appendingPathComponent("notes.txt"))
            let library = try PhotoLibrary.catalog(at: url)
            do {
                _ = try await library.albums()
                Issue.record("a folder that is not a catalog must not open")
            } catch AlbumError.Code.libraryCorrupt {}
            let results = await library.album(titled: "A").save([.file(Fixture.jpeg)])
            #expect(results.first?.error?.code == .libraryCorrupt)
            // Missing and not to be created: at once.
            do {
                _ = try PhotoLibrary.catalog(
                    at: dir.appendingPathComponent("none.albumlibrary"), createIfMissing: false)
                Issue.record("a missing library must fail at once")
            } catch AlbumError.Code.libraryNotFound {}
        }
    }

    @Test func aLibraryIsNeverCreatedWithTheFoldersAboveIt() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            // Given a path on a disk that is not mounted (its parent folder is missing)
            let url = dir.appendingPathComponent("media/disk/Photos.albumlibrary")
            let library = try PhotoLibrary.catalog(at: url)
            // Then the save fails as libraryNotFound and no folder is made
            let results = await library.album(titled: "A").save([.file(Fixture.jpeg)])
            #expect(results.first?.error?.code == .libraryNotFound)
            #expect(results.first?.error?.message.contains(dir.appendingPathComponent("media/disk").path) == true)
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("media").path))
        }
    }
}
