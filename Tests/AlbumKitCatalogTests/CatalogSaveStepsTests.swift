import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

#if canImport(Glibc)
    import Glibc
#endif

/// The catalog save's steps keep their order (``CatalogSave``): nothing is journaled before the
/// files it names are durable, and a change recorded through a ``CatalogTransaction`` is in the
/// journal and the index together, or in neither.
@Suite struct CatalogSaveStepsTests {
    func library(_ dir: URL) -> URL { dir.appendingPathComponent("Steps.albumlibrary") }

    func journalSize(_ backend: CatalogBackend) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: backend.journal.path)[.size] as? Int)
    }

    func originals(_ url: URL) -> [String] {
        Fixture.files(under: url.appendingPathComponent("originals")).filter { !$0.contains("/.") }
    }

    /// A flush of the photos' data or names that fails (the disk failing under `originals/`) fails
    /// the save before its record is appended, for a lone save (flushed while it is staged) and a
    /// batch (flushed while it is decided): the journal is not one byte longer, the names given are
    /// gone, and the next save works.
    @Test(arguments: [1, 3])
    func aFailedFlushOfThePhotosFailsTheSaveBeforeItsRecord(photos: Int) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let backend = try CatalogBackend.open(at: url)
            let library = PhotoLibrary(backend: backend)
            _ = try await library.album(titled: "A").save(.data(Fixture.uniqueJPEG("first"), filename: "IMG_1.JPG"))
            await Blocking.acknowledgedWorkFinished()
            let before = try journalSize(backend)
            let rule = FaultInjector.inject(.fsync, under: backend.originalsPath, errno: EIO)
            let media = (0..<photos).map { Media.data(Fixture.uniqueJPEG("flush\($0)"), filename: "IMG_F\($0).JPG") }
            let results = await library.album(titled: "A").save(media)
            #expect(FaultInjector.hits(rule) >= 1)
            FaultInjector.remove(rule)
            #expect(results.allSatisfy { (try? $0.get()) == nil })
            #expect(try journalSize(backend) == before)
            #expect(originals(url).count == 1)
            #expect(try await library.assets(inAlbumTitled: "A").count == 1)
            _ = try await library.album(titled: "A").save(.data(Fixture.uniqueJPEG("after"), filename: "IMG_2.JPG"))
            #expect(try await library.assets(inAlbumTitled: "A").count == 2)
            #expect(try await library.verify().isHealthy)
        }
    }

    /// A batch's flushes do not grow with its size: into a library whose list of names being
    /// published exists, a batch of 2, 150 or 1 000 photos (more than the 499 a commit once held)
    /// makes three — the list of its names, one `syncfs` for the photos' data and names, the
    /// journal's record — counted through the platform layer (every flush of the library's files
    /// passes there). One more would be a flush a later one already covers.
    @Test(
        .enabled(if: FlushStep.Platform.current == .linux, "one syncfs covers a chunk on Linux only"),
        arguments: [2, 150, 1_000])
    func aBatchFlushesThreeTimesWhateverItsSize(photos: Int) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let backend = try CatalogBackend.open(at: url)
            let library = PhotoLibrary(backend: backend)
            _ = try await library.album(titled: "A").save(.data(Fixture.uniqueJPEG("first"), filename: "IMG_1.JPG"))
            await Blocking.acknowledgedWorkFinished()
            let flushes = FaultInjector.count(.fsync, under: url.path)
            defer { FaultInjector.remove(flushes) }
            let media = (0..<photos).map { Media.data(Fixture.tinyJPEG("batch\($0)"), filename: "IMG_B\($0).JPG") }
            let results = await library.album(titled: "A").save(media)
            await Blocking.acknowledgedWorkFinished()
            #expect(results.allSatisfy { (try? $0.get()) != nil })
            #expect(FaultInjector.calls(flushes) == 3)
            #expect(try await library.assets(inAlbumTitled: "A").count == photos + 1)
            #expect(try await library.verify().isHealthy)
        }
    }

    /// A file named with the status its program already read (`album save` asks of each name
    /// whether it is a folder) is not asked for it again by the quick recognition's probe: three
    /// files so named make no `stat` of their paths, three without it one each (counted through
    /// the platform layer).
    @Test func aFileNamedWithItsStatusIsNotAskedForItAgain() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let photos = dir.appendingPathComponent("photos")
            try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
            let files = try (0..<6).map { index in
                let file = photos.appendingPathComponent("IMG_\(index).JPG")
                try Fixture.uniqueJPEG("named \(index)").write(to: file)
                return file
            }
            let named = files[3..<6].map { file -> Media in
                var media = Media.file(file)
                media.namedStatus = FileSystem.fileStatus(atPath: file.path)
                return media
            }
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: library(dir)))
            // A library holding a photo: a save into an empty one has nothing to recognise.
            _ = try await library.album(titled: "A").save(.data(Fixture.uniqueJPEG("first"), filename: "IMG_F.JPG"))
            let stats = FaultInjector.count(.stat, under: photos.path)
            defer { FaultInjector.remove(stats) }
            let album = library.album(titled: "A")
            // Recognised by name, size and time, as `album save` does (the check that probes).
            let plain = await album.save(files[0..<3].map { Media.file($0) }, recognising: .quick)
            let withoutStatus = FaultInjector.calls(stats)
            let saved = await album.save(named, recognising: .quick)
            #expect((plain + saved).allSatisfy { (try? $0.get()) != nil })
            #expect(withoutStatus == 3)
            #expect(FaultInjector.calls(stats) == withoutStatus)
            #expect(try await library.assets(inAlbumTitled: "A").count == 7)
        }
    }

    /// A small file named with its status (or found with it by a walk) is opened and read without
    /// its status being asked first: the status it was named with is the version it had before it
    /// was opened, and one `fstat` after the read proves nothing changed it since. Counted through
    /// the platform layer: two looks at each such file (its read, its status after), three at each
    /// file named without one (its status when opened, its read, its status after the copy).
    @Test func aFileNamedWithItsStatusIsReadWithOneLookAtItsStatus() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let photos = dir.appendingPathComponent("photos")
            try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
            let files = try (0..<6).map { index in
                let file = photos.appendingPathComponent("IMG_\(index).JPG")
                try Fixture.uniqueJPEG("looked at \(index)").write(to: file)
                return file
            }
            let named = files[3..<6].map { file -> Media in
                var media = Media.file(file)
                media.namedStatus = FileSystem.fileStatus(atPath: file.path)
                return media
            }
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: library(dir)))
            let looks = FaultInjector.count(.read, under: photos.path)
            defer { FaultInjector.remove(looks) }
            let album = library.album(titled: "A")
            let plain = await album.save(files[0..<3].map { Media.file($0) })
            let withoutStatus = FaultInjector.calls(looks)
            let saved = await album.save(named)
            #expect((plain + saved).allSatisfy { (try? $0.get()) != nil })
            #expect(withoutStatus == 9)
            #expect(FaultInjector.calls(looks) - withoutStatus == 6)
            for (file, result) in zip(files[3..<6], saved) {
                let id = try result.get().assetID
                #expect(try await library.storedSHA256(ofAssetWithID: id) == (try Fixture.sha256(ofFileAt: file)))
            }
            #expect(try await library.verify().isHealthy)
        }
    }

    /// A file changed after its status was read, before it was opened (rewritten longer, or in place
    /// with the same size and a later time), is saved as it is when read, not as the status says
    /// and not refused: its status after the read is not the one it was named with, so it is read
    /// again as a file named without one.
    @Test func aFileChangedAfterItWasNamedIsSavedAsItIsNow() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let longer = dir.appendingPathComponent("IMG_L.JPG")
            let inPlace = dir.appendingPathComponent("IMG_P.JPG")
            try Fixture.uniqueJPEG("before").write(to: longer)
            try Fixture.uniqueJPEG("before in place").write(to: inPlace)
            let media = [longer, inPlace].map { file -> Media in
                var media = Media.file(file)
                media.namedStatus = FileSystem.fileStatus(atPath: file.path)
                return media
            }
            try Fixture.uniqueJPEG("after, and longer than before").write(to: longer)
            var bytes = Array(try Data(contentsOf: inPlace))
            bytes[bytes.count - 3] ^= 0xFF
            let handle = try FileHandle(forWritingTo: inPlace)
            try handle.write(contentsOf: bytes)
            try handle.close()
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(10)], ofItemAtPath: inPlace.path)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: library(dir)))
            let saved = await library.album(titled: "A").save(media)
            for (file, result) in zip([longer, inPlace], saved) {
                let id = try result.get().assetID
                #expect(try await library.storedSHA256(ofAssetWithID: id) == (try Fixture.sha256(ofFileAt: file)))
            }
        }
    }

    /// A FIFO put where a file named with its status was is refused as not a regular file, without
    /// blocking on it (opened without its status asked first, it is never read as the photo).
    @Test func aFIFOInPlaceOfANamedFileIsRefused() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent("IMG_1.JPG")
            try Fixture.uniqueJPEG("replaced").write(to: file)
            var media = Media.file(file)
            media.namedStatus = FileSystem.fileStatus(atPath: file.path)
            try FileManager.default.removeItem(at: file)
            #expect(mkfifo(file.path, 0o600) == 0)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: library(dir)))
            let saved = await library.album(titled: "A").save([media])
            #expect(throws: AlbumError.self) { try saved[0].get() }
            #expect(originals(self.library(dir)).isEmpty)
        }
    }

    /// Each photo of a batch is added at a time of its own, one microsecond after the one before
    /// in the order of their names, whatever order they were given in (a listing by date added
    /// shows photos of one time by name): pages of that listing are in name order, and an index
    /// rebuilt from the journal lists the same photos at the same times.
    @Test func aBatchsPhotosAreAddedOneMicrosecondApartInNameOrder() async throws {
        struct Listed: Equatable {
            let id: String
            let name: String?
            let added: Double
        }
        func listed(_ library: PhotoLibrary) async throws -> [Listed] {
            var all: [Listed] = []
            var cursor: String?
            repeat {
                let page = try await library.assets(orderedBy: .dateAdded, matching: .all, after: cursor, limit: 7)
                all += page.assets.map {
                    Listed(id: $0.id, name: $0.originalFilename, added: $0.addedAt.timeIntervalSince1970)
                }
                cursor = page.nextCursor
            } while cursor != nil
            return all
        }
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            let names = (0..<40).map { String(format: "IMG_%02d.JPG", ($0 * 17) % 40) }
            let media = names.map { Media.data(Fixture.tinyJPEG("added \($0)"), filename: $0) }
            let results = await library.album(titled: "A").save(media)
            await Blocking.acknowledgedWorkFinished()
            #expect(results.allSatisfy { (try? $0.get()) != nil })
            let saved = try await listed(library)
            #expect(saved.map(\.name) == names.sorted())
            let microseconds = saved.map { Int64(($0.added * 1_000_000).rounded()) }
            #expect(zip(microseconds, microseconds.dropFirst()).allSatisfy { $1 - $0 == 1 }, "\(microseconds)")
            for suffix in ["", "-journal", "-wal", "-shm"] {
                // Some of them are never made: nothing to remove.
                try? FileManager.default.removeItem(atPath: url.appendingPathComponent("catalog.sqlite" + suffix).path)
            }
            // None taken yet: nothing to remove.
            try? FileManager.default.removeItem(at: url.appendingPathComponent("snapshots"))
            #expect(try await listed(PhotoLibrary(backend: try CatalogBackend.open(at: url))) == saved)
        }
    }

    /// A transaction whose body fails after deciding, before its append, leaves the journal and the
    /// index as they were (the index's transaction rolled back), and the next change goes on.
    @Test func aTransactionThatFailsBeforeItsAppendLeavesNothing() async throws {
        struct Refused: Error {}
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let backend = try CatalogBackend.open(at: url)
            let library = PhotoLibrary(backend: backend)
            _ = try await library.createAlbum(titled: "Kept")
            let before = try journalSize(backend)
            #expect(throws: (any Error).self) {
                try backend.withTransaction("test a refusal") { transaction in
                    try transaction.recorder.record(.createAlbum(id: RandomID.make(), title: "Never", createdAt: 0))
                    transaction.encodeRecords()
                    throw Refused()
                }
            }
            #expect(try journalSize(backend) == before)
            #expect(try await library.albums().map(\.title) == ["Kept"])
            _ = try await library.createAlbum(titled: "Next")
            #expect(try await library.albums().map(\.title).sorted() == ["Kept", "Next"])
            let reopened = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(try await reopened.albums().map(\.title).sorted() == ["Kept", "Next"])
        }
    }

    /// A transaction whose records were appended and flushed but whose body did not commit the
    /// index (it returned, or failed, after the commit point) is committed on its way out: the
    /// change shows at once in this process, and in the journal for the next one.
    @Test(arguments: [false, true])
    func aDurableTransactionIsCommittedEvenWhenItsBodyDidNot(bodyFails: Bool) async throws {
        struct AfterwardsFailure: Error {}
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let backend = try CatalogBackend.open(at: url)
            let library = PhotoLibrary(backend: backend)
            let before = try journalSize(backend)
            _ = try? backend.withTransaction("test a commit") { transaction in
                try transaction.recorder.record(.createAlbum(id: RandomID.make(), title: "Durable", createdAt: 0))
                try transaction.appendAndFlush()
                if bodyFails { throw AfterwardsFailure() }
            }
            #expect(try journalSize(backend) > before)
            #expect(try await library.albums().map(\.title) == ["Durable"])
            let reopened = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(try await reopened.albums().map(\.title) == ["Durable"])
        }
    }
}
