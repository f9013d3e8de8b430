import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitCatalog

#if canImport(Glibc)
    import Glibc
#endif

/// The catalog library: the classic recipes' scenarios on real SQLite and real files, crash recovery,
/// damaged catalogs and injected system-call failures.
@Suite struct CatalogTests {
    func open(_ dir: URL) throws -> (PhotoLibrary, CatalogBackend) {
        let backend = try CatalogBackend.open(at: dir.appendingPathComponent("Test.albumlibrary"))
        return (PhotoLibrary(backend: backend), backend)
    }

    func sql(_ backend: CatalogBackend, _ query: String) throws -> [Row] {
        try backend.withIndex("test") { try $0.index!.db.rows(query) }
    }

    /// A batch of files is staged into one shard folder (opened once per chunk), not one folder per file.
    /// A shard folder that cannot be listed: verify says that what is in it was not checked,
    /// instead of reporting no stray file or leftover there.
    @Test func verifySaysWhenAFolderCannotBeListed() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, _) = try open(dir)
            try await library.album(titled: "Trips").save(.file(Fixture.jpeg))
            let originals = dir.appendingPathComponent("Test.albumlibrary/originals").path
            let shard = try #require(FileManager.default.contentsOfDirectory(atPath: originals).first)
            FaultInjector.inject(.open, under: originals + "/" + shard, errno: EIO)
            defer { FaultInjector.removeAll(under: originals) }
            let report = try await library.verify()
            #expect(!report.isHealthy)
            #expect(
                report.problems.contains {
                    $0.hasPrefix("a folder of the library cannot be listed") && $0.contains(shard)
                }, "\(report.problems)")
        }
    }

    /// A save whose journal record cannot be flushed nor cut back (the disk failing): the error
    /// says the change may still show, as it does (its file gone), instead of a plain failure.
    @Test func aRecordThatCannotBeCutBackIsSaid() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, _) = try open(dir)
            try await library.album(titled: "Trips").save(.file(Fixture.jpeg))
            let journal = dir.appendingPathComponent("Test.albumlibrary/journal/library.journal").path
            FaultInjector.inject(.fsync, under: journal, errno: EIO)
            FaultInjector.inject(.write, under: journal, errno: EIO, skip: 1)  // the record is written, not cut
            defer { FaultInjector.removeAll(under: journal) }
            let failed = await library.album(titled: "Trips").save([.file(Fixture.png)])[0]
            let message = try #require(failed.error?.message)
            #expect(failed.error?.code == .ioFailure)
            #expect(message.contains("could not be cut back"), "\(message)")
            #expect(message.contains("album verify"))
        }
    }

    /// One journal descriptor per commit: once the library holds the journal open for its lock, a
    /// save opens it no more (it catches up through the descriptor that holds the lock; an open of
    /// the journal fails here, and the save does not meet it).
    @Test func aCommitOpensTheJournalNoMore() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, _) = try open(dir)
            try await library.album(titled: "Trips").save(.file(Fixture.jpeg))
            let journal = dir.appendingPathComponent("Test.albumlibrary/journal/library.journal").path
            let opens = FaultInjector.inject(.open, under: journal, errno: EMFILE)
            defer { FaultInjector.removeAll(under: journal) }
            let saved = try await library.album(titled: "Trips").save(.file(Fixture.png))
            #expect(saved.albumOutcome == .found && !saved.isExisting)
            #expect(FaultInjector.hits(opens) == 0)
        }
    }

    @Test func aBatchLandsInOneShardFolder() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, _) = try open(dir)
            let photos = (0..<40).map { index -> Media in
                var bytes = Fixture.jpegBytes
                let tag = String(index + 1000)  // four digits: a distinct comment segment per photo
                bytes.insert(contentsOf: [0xFF, 0xFE, 0x00, 0x06] + Array(tag.utf8), at: 2)
                return .data(bytes, filename: "p\(index).jpg")
            }
            let results = await library.album(titled: "Batch").save(photos)
            #expect(results.allSatisfy { $0.error == nil })
            let originals = dir.appendingPathComponent("Test.albumlibrary/originals").path
            let shards = try FileManager.default.contentsOfDirectory(atPath: originals).filter { !$0.hasPrefix(".") }
            // One folder, or two when the clock crossed a 16-second boundary during the save.
            #expect((1...2).contains(shards.count), "\(shards)")
            #expect(try await library.verify().isHealthy)
        }
    }

    @Test func saveStoresOriginalBytesAndMembershipInOneStep() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, backend) = try open(dir)
            let saved = try await library.album(titled: "Touch Code Magazine").save(.file(Fixture.heic))
            #expect(saved.albumOutcome == .created)
            let assets = try await library.assets(inAlbumTitled: "Touch Code Magazine")
            let asset = try #require(assets.first)
            #expect(asset.id == saved.assetID)
            #expect(asset.originalFilename == "sky.heic")
            // The stored original is byte-identical and its extension follows the content.
            let stored = try #require(asset.fileURL)
            #expect(try Data(contentsOf: stored) == Data(contentsOf: Fixture.heic))
            #expect(stored.pathExtension == "heic")
            // Shard folders follow the clock (two hex digits), so a batch lands in one folder.
            let shard = stored.deletingLastPathComponent().lastPathComponent
            #expect(shard.count == 2 && shard.allSatisfy(\.isHexDigit) && shard == shard.lowercased())
            #expect(try sql(backend, "SELECT state FROM asset").map { $0.text(0) } == ["ready"])
            #expect(try await library.verify().isHealthy)
        }
    }

    @Test func libraryOnlySaveHasNoAlbum() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, backend) = try open(dir)
            let saved = try await library.save(.file(Fixture.video))
            #expect(saved.albumID == nil && saved.albumOutcome == .notRequested)
            #expect(saved.metadata?.kind == .video)
            #expect(try sql(backend, "SELECT count(*) FROM asset").first?.integer(0) == 1)
            #expect(try await library.albums().isEmpty)
        }
    }

    @Test func wrongExtensionIsNotAnErrorAndTheStoredNameFollowsTheContent() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, _) = try open(dir)
            let misnamed = Fixture.write(try Data(contentsOf: Fixture.png), named: "photo.jpg", in: dir)
            try await library.album(titled: "A").save(.file(misnamed))
            let asset = try #require(try await library.assets(inAlbumTitled: "A").first)
            #expect(asset.fileURL?.pathExtension == "png")
            #expect(asset.originalFilename == "photo.jpg")
        }
    }

    @Test func deletedAlbumIsRecreatedAndAssetsStayInTheLibrary() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, backend) = try open(dir)
            let album = library.album(titled: "Trips")
            let first = try await album.save(.file(Fixture.jpeg))
            try await library.deleteAlbum(titled: "Trips")
            #expect(try sql(backend, "SELECT count(*) FROM asset").first?.integer(0) == 1)
            let second = try await album.save(.file(Fixture.jpeg))
            #expect(second.albumOutcome == .recreated)
            #expect(second.albumID != first.albumID)
        }
    }

    @Test func albumRenamedByAnotherAppIsStillTheAlbum() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, backend) = try open(dir)
            let first = try await library.album(titled: "Trips").save(.file(Fixture.jpeg))
            // Another process creates a newer album with the same title (without remembering it).
            try backend.record("test") { try $0.record(.createAlbum(id: "later", title: "Trips", createdAt: 9e9)) }
            let second = try await library.album(titled: "Trips").save(.file(Fixture.jpeg))
            #expect(second.albumID == first.albumID)
            #expect(second.albumOutcome == .found)
        }
    }

    @Test func duplicateTitlesResolveToTheOldestEveryTime() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, backend) = try open(dir)
            try backend.record("test") { recorder in
                try recorder.record(.createAlbum(id: "newer", title: "Dup", createdAt: 200))
                try recorder.record(.createAlbum(id: "older", title: "Dup", createdAt: 100))
            }
            for _ in 0..<3 {
                #expect(try await library.album(titled: "Dup").save(.file(Fixture.jpeg)).albumID == "older")
            }
        }
    }

    @Test func hundredConcurrentSavesCreateOneAlbum() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, backend) = try open(dir)
            let album = library.album(titled: "Race")
            let results = await withTaskGroup(of: Result<SavedAsset, AlbumError>.self) { group in
                for i in 0..<100 {
                    let bytes = Fixture.uniqueJPEG("\(i)")
                    group.addTask { await album.save([.data(bytes, filename: "IMG_\(i).jpg")])[0] }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0.value != nil })
            #expect(try await library.albums().map(\.count) == [100])
            #expect(try sql(backend, "SELECT count(*) FROM asset WHERE state = 'ready'").first?.integer(0) == 100)
            #expect(try await library.verify().isHealthy)
        }
    }

    /// Saves into many albums of several libraries at once, more than there are cores: all finish,
    /// and each album gets its photo.
    @Test func concurrentSavesIntoManyAlbumsAndLibrariesAllFinish() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let libraries = try (0..<3).map { index in
                let folder = dir.appendingPathComponent("l\(index)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                return try open(folder)
            }
            let results = await withTaskGroup(of: Result<SavedAsset, AlbumError>.self) { group in
                for i in 0..<48 {
                    let library = libraries[i % 3].0
                    let bytes = Fixture.uniqueJPEG("many-\(i)")
                    group.addTask {
                        await library.album(titled: "Album \(i % 16)").save([.data(bytes, filename: "IMG_\(i).jpg")])[0]
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0.value != nil })
            for (library, backend) in libraries {
                #expect(try await library.albums().map(\.count).reduce(0, +) == 16)
                #expect(try sql(backend, "SELECT count(*) FROM asset WHERE state = 'ready'").first?.integer(0) == 16)
                #expect(try await library.verify().isHealthy)
            }
        }
    }

    @Test func twoLibraryHandlesOnOneCatalogCreateOneAlbum() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (first, _) = try open(dir)
            let (second, _) = try open(dir)
            async let a = first.album(titled: "Shared").save(.file(Fixture.jpeg))
            async let b = second.album(titled: "Shared").save(.file(Fixture.png))
            let (x, y) = try await (a, b)
            #expect(x.albumID == y.albumID)
            #expect(try await first.albums().count == 1)
        }
    }

    @Test func failureAtPublishLeavesNeitherRowNorFile() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, backend) = try open(dir)
            FaultInjector.inject(.publish, under: dir.path, errno: ENOSPC, times: 1)
            let results = await library.album(titled: "Trips").save([.file(Fixture.jpeg), .file(Fixture.png)])
            #expect(results.allSatisfy { $0.error?.code == .notEnoughSpace })
            #expect(try sql(backend, "SELECT count(*) FROM asset").first?.integer(0) == 0)
            #expect(try await library.albums().isEmpty)
            #expect(Fixture.files(under: dir.appendingPathComponent("Test.albumlibrary/originals")).isEmpty)
            // The library still works afterwards.
            #expect(try await library.album(titled: "Trips").save(.file(Fixture.jpeg)).albumOutcome == .created)
        }
    }

    @Test(arguments: [
        (FaultInjector.Operation.write, ENOSPC, AlbumError.Code.notEnoughSpace),
        (.write, EDQUOT, .notEnoughSpace),
        (.fsync, EIO, .ioFailure),
        (.open, EROFS, .libraryUnwritable),
        (.mkdir, EACCES, .accessDenied),
    ])
    func systemCallFailuresMapToCodesAndKeepEarlierAssets(
        operation: FaultInjector.Operation, errno code: Int32, expected: AlbumError.Code
    ) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, _) = try open(dir)
            let earlier = try await library.album(titled: "Trips").save(.file(Fixture.jpeg))
            let originals = dir.appendingPathComponent("Test.albumlibrary/originals").path
            // Shard folders follow the clock, so the next save would reuse the earlier one's folder:
            // move it aside for the mkdir case, so the save has to make a folder.
            let shard = try #require(FileManager.default.contentsOfDirectory(atPath: originals).first)
            if operation == .mkdir {
                try FileManager.default.moveItem(atPath: originals + "/" + shard, toPath: originals + "/aside")
            }
            FaultInjector.inject(operation, under: originals, errno: code)
            let failed = await library.album(titled: "Trips").save([.data(Fixture.jpegBytes, filename: "n.jpg")])[0]
            #expect(failed.error?.code == expected)
            // Each error of a batch names its file (a full disk named only the library's staging file).
            #expect(failed.error?.message.contains("n.jpg") == true, "\(String(describing: failed.error?.message))")
            FaultInjector.removeAll(under: originals)
            if operation == .mkdir {
                try FileManager.default.moveItem(atPath: originals + "/aside", toPath: originals + "/" + shard)
            }
            #expect(try await library.assets(inAlbumTitled: "Trips").first?.id == earlier.assetID)
            #expect(try await library.verify().isHealthy)
        }
    }

    /// The flush that makes the new names durable fails (a lone save's shard folder flush, after its
    /// file's; a batch's one `syncfs` after its names on Linux): transaction B never runs, and the
    /// save fails whole — a lone save, and a batch that also holds a copy of bytes already saved —
    /// leaving no row, no pending row and no file, and nothing reported as left behind.
    @Test(arguments: [false, true])
    func aFailedFolderFlushSavesNothing(batchWithACopy: Bool) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, backend) = try open(dir)
            let earlier = try await library.album(titled: "Trips").save(.file(Fixture.jpeg))
            let originals = dir.appendingPathComponent("Test.albumlibrary/originals").path
            // A lone save: its file's flush, then its shard folder's: that one fails. A batch: the
            // one `syncfs` that follows its names (data and names at once) fails.
            let skip = batchWithACopy && FlushStep.Platform.current == .linux ? 0 : 1
            let rule = FaultInjector.inject(.fsync, under: originals, errno: EIO, skip: skip, times: 1)
            let media: [Media] = batchWithACopy ? [.file(Fixture.jpeg), .file(Fixture.png)] : [.file(Fixture.png)]
            let results = await library.album(titled: "Trips").save(media)
            #expect(FaultInjector.hits(rule) == 1)
            FaultInjector.remove(rule)
            for result in results {
                #expect(result.error?.code == .ioFailure)
                #expect(result.error?.message.contains("left") == false, "\(result.error?.message ?? "")")
            }
            #expect(try sql(backend, "SELECT count(*) FROM asset").first?.integer(0) == 1)
            #expect(try await library.assets(inAlbumTitled: "Trips").map(\.id) == [earlier.assetID])
            #expect(Fixture.files(under: dir.appendingPathComponent("Test.albumlibrary/originals")).count == 1)
            #expect(try await library.verify().isHealthy)
            // The next save of the same bytes works.
            #expect(try await library.album(titled: "Trips").save(.file(Fixture.png)).isExisting == false)
        }
    }

    /// A catalog replaced (by a copy) while a save commits: the save reopens the file now there,
    /// brings it up to date from the journal and records into it; each staged descriptor is closed
    /// once (debug builds stop on a second close, which could close another thread's file).
    @Test func aCatalogReplacedDuringACommitIsReopenedAndTheSaveStands() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, backend) = try open(dir)
            _ = try await library.album(titled: "Trips").save(.file(Fixture.jpeg))
            let catalog = dir.appendingPathComponent("Test.albumlibrary/catalog.sqlite").path
            backend.beforeRecording.withLock { hook in
                hook = {
                    try? FileManager.default.copyItem(atPath: catalog, toPath: catalog + ".copy")
                    _ = rename(catalog + ".copy", catalog)
                }
            }
            let results = await library.album(titled: "Trips").save([.file(Fixture.png), .file(Fixture.heic)])
            backend.beforeRecording.withLock { $0 = nil }
            #expect(results.allSatisfy { $0.value != nil }, "\(results)")
            #expect(try await library.assets(inAlbumTitled: "Trips").count == 3)
            #expect(try await library.verify().isHealthy)
        }
    }

    @Test func unreadableInputIsReportedAndOthersAreSaved() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, _) = try open(dir)
            let locked = Fixture.write(Fixture.jpegBytes, named: "locked.jpg", in: dir)
            FaultInjector.inject(.open, under: locked.path, errno: EACCES)
            let results = await library.album(titled: "A").save([.file(locked), .file(Fixture.png)])
            #expect(results[0].error?.code == .fileUnreadable)
            #expect(results[0].error?.file == locked.path)
            #expect(results[1].value != nil)
        }
    }

    /// Saving bytes the library holds reused the asset even when its file was gone or cut short:
    /// "already there", exit 0, nothing stored, and `repair` could not help. The new copy becomes
    /// the asset's file; the damaged one is kept under `damaged/originals/`.
    @Test func resavingAPhotoWhoseFileIsGoneOrDamagedRestoresIt() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, _) = try open(dir)
            let bytes = Fixture.uniqueJPEG("precious")
            let first = try await library.album(titled: "A").save(.data(bytes, filename: "p.jpg"))
            let stored = try #require(try await library.assets(inAlbumTitled: "A").first?.fileURL)
            let shelf = dir.appendingPathComponent("Test.albumlibrary/damaged/originals")

            // Cut short: the same bytes saved again, twice in one batch, restore the asset
            try FileHandle(forWritingTo: stored).truncate(atOffset: 1000)
            #expect(try await !library.verify().isHealthy)
            let again = await library.album(titled: "B").save([
                .data(bytes, filename: "p.jpg"), .data(bytes, filename: "p2.jpg"),
            ])
            #expect(
                again.map { $0.value?.assetID } == [first.assetID, first.assetID], "\(again.map { $0.error?.message })")
            #expect(again.allSatisfy { $0.value?.isExisting == true })
            // The first copy restored the file, and says so; the second found it intact
            #expect(again.map { $0.value?.isRestored } == [true, false])
            #expect(!first.isRestored)
            let restored = try #require(try await library.assets(inAlbumTitled: "B").first?.fileURL)
            #expect(restored == stored)  // the asset's own file, restored in place
            #expect(try Data(contentsOf: restored) == bytes)
            #expect(try await library.assets(inAlbumTitled: "A").map(\.id) == [first.assetID])
            #expect(try FileManager.default.contentsOfDirectory(atPath: shelf.path).count == 1)
            #expect(try await library.verify().isHealthy)

            // Gone: saved again, it is restored again
            try FileManager.default.removeItem(at: restored)
            let third = try await library.album(titled: "C").save(.data(bytes, filename: "p.jpg"))
            #expect(third.assetID == first.assetID && third.isRestored)
            let back = try #require(try await library.assets(inAlbumTitled: "C").first?.fileURL)
            #expect(try Data(contentsOf: back) == bytes)
            #expect(try await library.verify().isHealthy)
            #expect(Fixture.files(under: dir.appendingPathComponent("Test.albumlibrary/originals")).count == 1)

            // Damaged without a change of size (one byte flipped): saving again restores it too
            var flipped = bytes
            flipped[flipped.count / 2] ^= 0xFF
            try flipped.write(to: back)
            #expect(try await !library.verify().isHealthy)
            let fourth = try await library.album(titled: "D").save(.data(bytes, filename: "p.jpg"))
            #expect(fourth.isRestored)
            #expect(try Data(contentsOf: back) == bytes)
            // An intact file is only "already there"
            let fifth = try await library.album(titled: "D").save(.data(bytes, filename: "p.jpg"))
            #expect(fifth.isExisting && !fifth.isRestored)
            #expect(try await library.verify().isHealthy)

            // And a catalog rebuilt from the journal afterwards finds it, in every album, by its name
            let url = dir.appendingPathComponent("Test.albumlibrary")
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path)
            where name.hasPrefix("catalog.sqlite") {
                try FileManager.default.removeItem(at: url.appendingPathComponent(name))
            }
            let report = try await PhotoLibrary.repair(catalogAt: url)
            #expect(report.notRestored.isEmpty, "\(report.notRestored)")
            let rebuilt = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            for title in ["A", "B", "C", "D"] {
                let assets = try await rebuilt.assets(inAlbumTitled: title)
                #expect(assets.map(\.id) == [first.assetID], "\(title)")
                #expect(assets.first?.originalFilename == "p.jpg")
            }
            #expect(try await rebuilt.verify().isHealthy)
        }
    }

    /// `verify` read the catalog, then the journal: a save committing in between looked like a save
    /// the catalog had lost ("the catalog lacks N saved photo(s) … run `album repair`").
    @Test func verifyDuringASaveFindsNothingWrong() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Test.albumlibrary")
            let saver = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            _ = try await saver.save(.data(Fixture.uniqueJPEG("first"), filename: "first.jpg"))
            let checker = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            let done = Locked(false)
            let saving = Task {
                for round in 0..<40 {
                    let batch = (0..<10).map { Media.data(Fixture.uniqueJPEG("r\(round)-\($0)"), filename: "x.jpg") }
                    _ = await saver.album(titled: "Busy").save(batch)
                }
                done.withLock { $0 = true }
            }
            var verifies = 0
            var problems: [String] = []
            while !done.withLock({ $0 }) {
                problems += try await checker.verify().problems
                verifies += 1
            }
            await saving.value
            #expect(verifies > 1)
            #expect(problems.isEmpty, "\(problems.prefix(3))")
            #expect(try await checker.verify().isHealthy)
        }
    }

    /// A full disk (or an I/O error) at the journal's append or flush fails the save before it is
    /// acknowledged: nothing of it is in the library, the journal is cut back to its last record,
    /// the files it published are removed, and the next save works.
    @Test(arguments: [(FaultInjector.Operation.write, ENOSPC), (.fsync, EIO)])
    func aJournalThatCannotBeWrittenFailsTheSaveAndLeavesNothing(
        _ operation: FaultInjector.Operation, _ code: Int32
    ) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, _) = try open(dir)
            _ = try await library.album(titled: "A").save(.data(Fixture.uniqueJPEG("before"), filename: "b.jpg"))
            let journal = dir.appendingPathComponent("Test.albumlibrary/journal").path
            let before = try Data(contentsOf: URL(fileURLWithPath: journal + "/library.journal"))
            let rule = FaultInjector.inject(operation, under: journal + "/library.journal", errno: code)
            defer { FaultInjector.remove(rule) }
            let results = await library.album(titled: "A").save([
                .data(Fixture.uniqueJPEG("x"), filename: "x.jpg"), .data(Fixture.uniqueJPEG("y"), filename: "y.jpg"),
            ])
            #expect(FaultInjector.hits(rule) >= 1)
            let expected: AlbumError.Code = code == ENOSPC ? .notEnoughSpace : .ioFailure
            #expect(results.map { $0.error?.code } == [expected, expected], "\(results)")
            FaultInjector.remove(rule)
            #expect(try await library.assets(inAlbumTitled: "A").count == 1)
            #expect(try Data(contentsOf: URL(fileURLWithPath: journal + "/library.journal")) == before)
            #expect(Fixture.files(under: dir.appendingPathComponent("Test.albumlibrary/originals")).count == 1)
            #expect(try await library.verify().isHealthy)
            _ = try await library.album(titled: "A").save(.data(Fixture.uniqueJPEG("x"), filename: "x.jpg"))
            #expect(try await library.assets(inAlbumTitled: "A").count == 2)
        }
    }

    /// A WebM whose Duration element (1e308 ticks of 1 ms) is infinite in seconds.
    static func webmWithInfiniteDuration() -> Data {
        func element(_ id: [UInt8], _ payload: [UInt8]) -> [UInt8] {
            id + withUnsafeBytes(of: (UInt64(payload.count) | 1 << 56).bigEndian) { Array($0) } + payload
        }
        func uint(_ id: [UInt8], _ value: UInt64) -> [UInt8] {
            element(id, withUnsafeBytes(of: value.bigEndian) { Array($0) })
        }
        let duration = withUnsafeBytes(of: (1e308).bitPattern.bigEndian) { Array($0) }
        let info = element(
            [0x15, 0x49, 0xA9, 0x66], uint([0x2A, 0xD7, 0xB1], 1_000_000) + element([0x44, 0x89], duration))
        let video = element([0xE0], uint([0xB0], 64) + uint([0xBA], 48))
        let tracks = element([0x16, 0x54, 0xAE, 0x6B], element([0xAE], uint([0x83], 1) + video))
        let header = element([0x1A, 0x45, 0xDF, 0xA3], element([0x42, 0x82], Array("webm".utf8)))
        return Data(header + element([0x18, 0x53, 0x80, 0x67], info + tracks))
    }

    /// One file whose metadata held an infinite number failed every save of its batch ("Unexpected
    /// failure: EncodingError") when the pending rows were written; it is saved with the others.
    @Test func aNumberNoFileCanMeanFailsNoBatch() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, _) = try open(dir)
            let video = Fixture.write(Self.webmWithInfiniteDuration(), named: "long.webm", in: dir)
            let results = await library.album(titled: "A").save([
                .data(Fixture.uniqueJPEG("a"), filename: "a.jpg"), .file(video),
                .data(Fixture.uniqueJPEG("b"), filename: "b.jpg"),
            ])
            #expect(results.map { $0.error?.message } == [nil, nil, nil])
            #expect(results[1].value?.metadata?.duration == nil)
            #expect(try await library.assets(inAlbumTitled: "A").count == 3)
            #expect(try await library.verify().isHealthy)
        }
    }

    @Test func foreignOrDamagedCatalogIsRefusedAndLeftUntouched() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let cases: [(String, Data)] = [
                ("garbage", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })),
                ("text", Data("this is not a database\n".utf8)),
            ]
            for (name, contents) in cases {
                let lib = dir.appendingPathComponent("\(name).albumlibrary")
                try FileManager.default.createDirectory(at: lib, withIntermediateDirectories: true)
                let catalog = Fixture.write(contents, named: "catalog.sqlite", in: lib)
                #expect(throws: AlbumError.self) {
                    do { _ = try CatalogBackend.open(at: lib) } catch {
                        #expect((error as? AlbumError)?.code == .libraryCorrupt, "\(name)")
                        throw error
                    }
                }
                #expect(try Data(contentsOf: catalog) == contents)
            }
            // Another application's SQLite database.
            let foreign = dir.appendingPathComponent("foreign.albumlibrary")
            try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
            let db = try Database(path: foreign.appendingPathComponent("catalog.sqlite").path, create: true)
            try db.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me');")
            let before = try Data(contentsOf: foreign.appendingPathComponent("catalog.sqlite"))
            #expect(throws: AlbumError.self) { _ = try CatalogBackend.open(at: foreign) }
            #expect(try Data(contentsOf: foreign.appendingPathComponent("catalog.sqlite")) == before)
        }
    }

    @Test func aTruncatedCatalogIsRebuilt() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, backend) = try open(dir)
            for name in ["a", "b", "c", "d", "e"] {
                try await library.album(titled: "A").save(.data(Fixture.uniqueJPEG(name), filename: "\(name).jpg"))
            }
            let path = backend.catalogPath
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            try data.prefix(data.count / 2 + 100).write(to: URL(fileURLWithPath: path))
            let reopened = PhotoLibrary(backend: try CatalogBackend.open(at: backend.root))
            #expect(try await reopened.assets(inAlbumTitled: "A").count == 5)
            #expect(try await reopened.verify().isHealthy)
        }
    }

    @Test func nonEmptyFolderWithoutCatalogIsNotTakenOver() async throws {
        await Fixture.withTemporaryDirectory { dir in
            Fixture.write(Data("mine".utf8), named: "notes.txt", in: dir)
            #expect(throws: AlbumError.self) { _ = try CatalogBackend.open(at: dir) }
            #expect(Fixture.files(under: dir) == ["notes.txt"])
        }
    }

    @Test func missingLibraryIsNotCreatedForReading() async throws {
        await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Nope.albumlibrary")
            #expect(throws: AlbumError.self) { _ = try PhotoLibrary.catalog(at: url, createIfMissing: false) }
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
    }

    @Test func aFileNoRecordNamesIsNeverDeletedByOpening() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, backend) = try open(dir)
            _ = try await library.album(titled: "A").save(.file(Fixture.jpeg))
            let root = backend.root
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("originals/zz"), withIntermediateDirectories: true)
            Fixture.write(
                Fixture.jpegBytes, named: "zz111111-stray.jpg", in: root.appendingPathComponent("originals/zz"))
            let reopened = try CatalogBackend.open(at: root)
            #expect(Fixture.files(under: root.appendingPathComponent("originals/zz")) == ["zz111111-stray.jpg"])
            #expect(try await reopened.verify().problems.count == 1)
        }
    }

    @Test func verifyFindsMissingAndAlteredFiles() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, _) = try open(dir)
            try await library.album(titled: "A").save(.file(Fixture.jpeg))
            try await library.album(titled: "A").save(.file(Fixture.png))
            let assets = try await library.assets(inAlbumTitled: "A")
            try FileManager.default.removeItem(at: assets[0].fileURL!)
            var altered = try Data(contentsOf: assets[1].fileURL!)
            altered[altered.count - 20] ^= 0xFF
            try altered.write(to: assets[1].fileURL!)
            let report = try await library.verify()
            #expect(report.checkedAssets == 2)
            #expect(report.problems.count == 2)
            #expect(report.problems.contains { $0.contains("missing") })
            #expect(report.problems.contains { $0.contains("SHA-256") })
            // Each problem names the photo as its user knows it: its file name and its albums
            for asset in assets {
                let line = report.problems.first { $0.contains(asset.id) }
                #expect(line?.contains("(\(asset.originalFilename ?? "?") in \"A\")") == true, "\(report.problems)")
            }
        }
    }

    @Test func renameCreateAndDeleteAlbums() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, _) = try open(dir)
            let created = try await library.createAlbum(titled: "Empty")
            #expect(try await library.createAlbum(titled: "Empty").id == created.id)
            try await library.renameAlbum(titled: "Empty", to: "Renamed")
            #expect(try await library.albums().map(\.title) == ["Renamed"])
            // Our own rename frees the old title.
            await #expect(throws: AlbumError.self) { try await library.assets(inAlbumTitled: "Empty") }
            try await library.deleteAlbum(titled: "Renamed")
            #expect(try await library.albums().isEmpty)
            await #expect(throws: AlbumError.self) { try await library.deleteAlbum(titled: "Renamed") }
        }
    }
}

@Suite struct ProcessOwnerTests {
    @Test func anOwnerIsAliveExactlyWhileAProcessHoldsItsLock() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let owners = dir.appendingPathComponent("owners").path
            try ProcessOwner.register(in: owners)
            #expect(ProcessOwner.isAlive(ProcessOwner.token, in: owners))
            // A token without an owner file was never registered or was reaped: dead.
            #expect(!ProcessOwner.isAlive("p999999-00000000000000ff", in: owners))
            // Unknown formats are treated as alive (never delete what we cannot judge).
            #expect(ProcessOwner.isAlive("999999999.1", in: owners))

            // Another real process holds an owner file's lock (what a saver does, whatever its
            // PID namespace): alive until it exits, then dead, then forgotten.
            let token = "p424242-0123456789abcdef"
            let path = owners + "/" + token
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            // One process holds it: the shell opens the file, flock(1) locks that open file (the
            // lock belongs to it, not to flock), and the shell becomes `sleep`, keeping it open. So
            // terminate() ends the holder itself (a `flock FILE sleep` would leave its `sleep` child
            // holding the lock for a minute). It says when it holds the lock: no polling, however long
            // a loaded machine takes.
            let holder = Process()
            holder.executableURL = URL(fileURLWithPath: "/bin/sh")
            holder.arguments = ["-c", "exec 9<>\"$1\" && flock -x 9 && echo locked && exec sleep 60", "sh", path]
            holder.environment = ["PATH": "/usr/bin:/bin"]
            let said = Pipe()
            holder.standardOutput = said
            try holder.run()
            let line = String(decoding: said.fileHandleForReading.availableData, as: UTF8.self)
            try #require(line.hasPrefix("locked"), "flock(1) did not take the lock: \(line)")
            #expect(ProcessOwner.isAlive(token, in: owners))
            ProcessOwner.forget(token, in: owners)  // alive: the file stays
            #expect(FileManager.default.fileExists(atPath: path))
            holder.terminate()
            holder.waitUntilExit()
            #expect(!ProcessOwner.isAlive(token, in: owners))
            ProcessOwner.forget(token, in: owners)
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func stagingNamesCarryTheirOwner() {
        let name = StagingName(kind: "partial")
        let parsed = StagingName(parsing: name.fileName)
        #expect(parsed == name)
        #expect(parsed?.owner == ProcessOwner.token)
        #expect(StagingName(parsing: ".b.jpg.partial") == nil)
        #expect(StagingName(parsing: "\(name.fileName.dropFirst())") == nil)
    }
}
