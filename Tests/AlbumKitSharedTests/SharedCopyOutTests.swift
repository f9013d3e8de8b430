#if os(Linux)
    import Foundation
    import Testing

    @testable import AlbumKitCatalog
    @testable import AlbumKitCore
    @testable import AlbumKitShared

    extension SharedServerTests {
        /// A shared library copied out into a catalog (the backup and the exit) and into another
        /// shared library: names, capture dates, albums and favourites kept, re-runnable, and a copy
        /// killed between batches finished by the next run without duplicates.
        @Suite struct SharedCopyOutTests {
            @Test func aSharedLibraryCopiesIntoACatalogWithItsAlbumsDatesNamesAndFavourites() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let examples = SharedServers.examples
                    let harbour = examples.appendingPathComponent("harbour.jpg")
                    let taken = Date(timeIntervalSince1970: 1_600_000_000)
                    _ = try await shared.library.album(titled: "Trips").save(.file(harbour).with(isFavorite: true))
                    _ = try await shared.library.album(titled: "Trips").save(
                        .file(examples.appendingPathComponent("clip.mp4")))
                    _ = try await shared.library.album(titled: "Garden").save(
                        .file(examples.appendingPathComponent("garden.png")))
                    _ = try await shared.library.album(titled: "Garden").save(.file(harbour))  // in both
                    _ = try await shared.library.save(
                        .file(examples.appendingPathComponent("sky.heic")).with(creationDate: taken))
                    _ = try await shared.library.createAlbum(titled: "Empty")

                    let backup = try PhotoLibrary.catalog(at: directory.appendingPathComponent("B.albumlibrary"))
                    let first = try await shared.library.copy(into: backup)
                    #expect(first == CopyReport(copiedAssets: 4, albums: 3, memberships: 4))
                    #expect(try await backup.albums().map(\.title) == ["Trips", "Garden", "Empty"])
                    for title in ["Trips", "Garden"] {
                        let before = try await shared.library.assets(inAlbumTitled: title)
                        let after = try await backup.assets(inAlbumTitled: title)
                        #expect(before.map(\.originalFilename) == after.map(\.originalFilename))
                        #expect(before.map(\.sha256) == after.map(\.sha256))
                        #expect(before.map(\.capturedAt) == after.map(\.capturedAt))
                        #expect(before.map(\.isFavorite) == after.map(\.isFavorite))
                        #expect(before.map(\.location) == after.map(\.location))
                    }
                    let all = try await backup.assets(orderedBy: .dateAdded).assets
                    #expect(all.count == 4)
                    #expect(all.first { $0.originalFilename == "harbour.jpg" }?.isFavorite == true)
                    #expect(all.first { $0.originalFilename == "sky.heic" }?.capturedAt == taken)
                    #expect(try await backup.verify().isHealthy)

                    // Again: nothing copied, and it says so.
                    let second = try await shared.library.copy(into: backup)
                    #expect(second == CopyReport(existingAssets: 4) && second.copiedNothing)
                    #expect(try await backup.assets(orderedBy: .dateAdded).assets.count == 4)

                    // Any direction through the same operations: the backup into a new shared library.
                    let other = try SharedTestLibrary()
                    #expect(
                        try await backup.copy(into: other.library)
                            == CopyReport(copiedAssets: 4, albums: 3, memberships: 4))
                    #expect(try await other.library.assets(inAlbumTitled: "Trips").map(\.isFavorite) == [true, false])
                    #expect(try await other.library.verify().isHealthy)
                }
            }

            @Test func aDamagedOriginalFailsAloneAndTheRestIsCopied() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let damaged = try SharedTestLibrary.uniqueJPEG(in: directory, "damaged")
                    let intact = try SharedTestLibrary.uniqueJPEG(in: directory, "intact")
                    let saved = try await shared.library.album(titled: "A").save(.file(damaged))
                    _ = try await shared.library.album(titled: "A").save(.file(intact))
                    let sha = try #require(try await shared.library.assets(inAlbumTitled: "A").first?.sha256)
                    let size = try Data(contentsOf: damaged).count
                    let zeros = directory.appendingPathComponent("zeros")
                    try Data(repeating: 0, count: size).write(to: zeros)
                    let (file, _) = try FileSystem.openForReading(zeros.path)
                    defer { FileSystem.close(file) }
                    try shared.backend.store.put(
                        key: "\(shared.prefix)originals/\(sha.prefix(2))/\(sha)", file: file, length: UInt64(size),
                        sha256: try FileSystem.sha256(of: file), replacing: true)
                    let backup = try PhotoLibrary.catalog(at: directory.appendingPathComponent("B.albumlibrary"))
                    let report = try await shared.library.copy(into: backup)
                    #expect(report.copiedAssets == 1 && report.failures.map(\.assetID) == [saved.assetID])
                    #expect(report.failures.first?.code == .libraryCorrupt)
                    #expect(try await backup.assets(inAlbumTitled: "A").map(\.originalFilename) == ["intact.jpg"])
                }
            }

            @Test func aCopyKilledBetweenBatchesIsFinishedByTheNextRunWithoutDuplicates() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let count = LibraryCopier.batchSize + 8
                    let files = try (0..<count).map { try SharedTestLibrary.uniqueJPEG(in: directory, "p\($0)") }
                    let results = await shared.library.album(titled: "Many").save(files.map { .file($0) })
                    #expect(results.allSatisfy { (try? $0.get()) != nil })
                    let target = directory.appendingPathComponent("Backup.albumlibrary")
                    var environment = shared.environment
                    let marker = directory.appendingPathComponent("paused").path
                    environment["ALBUMKIT_PAUSE"] = "copy-batch"
                    environment["ALBUMKIT_PAUSE_MARKER"] = marker
                    let copier = try Shell.startAlbum(
                        ["copy", "--from", shared.url, "--to", target.path], environment: environment,
                        machine: directory.appendingPathComponent("machine"))
                    #expect(Shell.waitForFile(marker) != nil)
                    kill(copier.processIdentifier, SIGKILL)
                    copier.waitUntilExit()
                    let partial = try PhotoLibrary.catalog(at: target, createIfMissing: false)
                    #expect(try await partial.assets(orderedBy: .dateAdded).assets.count == LibraryCopier.batchSize)

                    let rerun = Shell.run(
                        Shell.album, ["--json", "copy", "--from", shared.url, "--to", target.path],
                        environment: shared.environment)
                    #expect(rerun.status == 0, "\(rerun)")
                    let line = try JSONSerialization.jsonObject(with: Data(rerun.stdout.utf8)) as? [String: Any]
                    #expect(
                        line?["copiedAssets"] as? Int == 8 && line?["existingAssets"] as? Int == LibraryCopier.batchSize
                    )
                    let backup = try PhotoLibrary.catalog(at: target, createIfMissing: false)
                    let copied = try await backup.assets(inAlbumTitled: "Many")
                    #expect(copied.map(\.originalFilename) == files.map(\.lastPathComponent))
                    #expect(Set(copied.compactMap(\.sha256)).count == count)
                    #expect(try await backup.assets(orderedBy: .dateAdded).assets.count == count)
                    #expect(try await backup.verify().isHealthy)
                    let again = Shell.run(
                        Shell.album, ["copy", "--from", shared.url, "--to", target.path],
                        environment: shared.environment)
                    #expect(again.status == 0 && again.stdout.contains("nothing to copy"), "\(again)")
                }
            }
        }
    }
#endif
