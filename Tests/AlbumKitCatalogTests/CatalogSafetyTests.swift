import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

#if canImport(Glibc)
    import Glibc
#endif

/// The journal is the library: whatever happens to the SQLite catalog (deleted, garbled, an older
/// copy, read or written by the `sqlite3` shell, torn by a restart), opening rebuilds it from the
/// journal and the command goes on; the journal's own damage is found and skipped record by record;
/// recovery removes only what dead savers prove they staged; same bytes are one asset.
@Suite(.onThreadsOfTheirOwn) struct CatalogSafetyTests {
    func library(_ dir: URL) -> URL { dir.appendingPathComponent("Safe.albumlibrary") }

    /// Saves `count` distinct photos into `title`; returns their assets.
    func saveDistinct(_ count: Int, into title: String, at url: URL, tag: String = "") async throws -> [SavedAsset] {
        let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
        let media = (0..<count).map { Media.data(Fixture.uniqueJPEG("\(tag)\($0)"), filename: "IMG_\(tag)\($0).JPG") }
        let saved = try await library.album(titled: title).save(media).map { try $0.get() }
        // As a command does before it exits: the index's commit, which goes on after the save is
        // acknowledged, ends before the test damages the catalog (or the damage could be overwritten).
        await Blocking.acknowledgedWorkFinished()
        return saved
    }

    func originals(_ url: URL) -> [String] {
        Fixture.files(under: url.appendingPathComponent("originals")).filter { !$0.contains("/.") }
    }

    var catalogFiles: [String] { ["", "-journal", "-wal", "-shm"] }

    /// Opens the library, checks that every save in `expected` (album title → assets) is there and
    /// the library verifies; returns the notices opening gave.
    @discardableResult
    func expectIntact(
        _ url: URL, _ expected: [String: [SavedAsset]], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String] {
        let backend = try CatalogBackend.open(at: url)
        let library = PhotoLibrary(backend: backend)
        for (title, saved) in expected {
            let assets = try await library.assets(inAlbumTitled: title)
            #expect(assets.map(\.id) == saved.map(\.assetID), "album \(title)", sourceLocation: sourceLocation)
            #expect(
                assets.allSatisfy { $0.originalFilename?.hasPrefix("IMG_") == true }, sourceLocation: sourceLocation)
        }
        let report = try await library.verify()
        #expect(report.isHealthy, "\(report.problems)", sourceLocation: sourceLocation)
        return backend.takeNotices()
    }

    /// Runs the `sqlite3` shell (Debian's, installed by CI; missing, the test is skipped outside CI)
    /// on the library's catalog.
    func sqlite3(_ url: URL, _ sql: String, readOnly: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try ExternalTool.require("sqlite3"))
        process.arguments = (readOnly ? ["-readonly"] : []) + [url.path + "/catalog.sqlite", sql]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "sqlite3: \(text)")
        return text
    }

    /// The `sqlite3` shell reading the catalog (the first thing a curious user does) changes
    /// nothing: the next saves go on without a rebuild. Writing it is detected (page checksums) and
    /// the catalog rebuilt from the journal, the written copy kept under `damaged/`.
    @Test func theSQLiteShellReadingOrWritingTheCatalogNeverStopsASave() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let first = try await saveDistinct(3, into: "Trip", at: url)
            #expect(try sqlite3(url, "SELECT count(*) FROM asset").contains("3"))
            let second = try await saveDistinct(2, into: "Trip", at: url, tag: "b")
            #expect(try await expectIntact(url, ["Trip": first + second]).isEmpty)
            _ = try sqlite3(
                url,
                "UPDATE album SET title = 'Changed'; INSERT INTO album (id, title, title_key, created_at) VALUES ('x', 'Extra', 'Extra', 1)"
            )
            let third = try await saveDistinct(1, into: "Trip", at: url, tag: "c")
            let albums = try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).albums()
            #expect(albums.map(\.title) == ["Trip"])
            try await expectIntact(url, ["Trip": first + second + third])
            let damaged = try FileManager.default.contentsOfDirectory(atPath: url.path + "/damaged")
            #expect(damaged.count == 1)
        }
    }

    /// A catalog deleted, emptied, garbled or replaced by another program's database is rebuilt
    /// from the journal at the next opening, which says so in one notice; nothing is lost.
    @Test(arguments: ["deleted", "emptied", "garbled", "foreign", "schemaless"])
    func aLostOrDamagedCatalogIsRebuiltAndTheCommandGoesOn(_ damage: String) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let trip = try await saveDistinct(4, into: "Trip", at: url)
            let home = try await saveDistinct(2, into: "Home", at: url, tag: "h")
            let catalog = url.path + "/catalog.sqlite"
            switch damage {
            case "deleted":
                for suffix in catalogFiles { try? FileManager.default.removeItem(atPath: catalog + suffix) }
            case "emptied":
                try Data().write(to: URL(fileURLWithPath: catalog))
            case "garbled":
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: catalog))
                try handle.seek(toOffset: 4096 + 100)
                handle.write(Data(repeating: 0xA5, count: 3000))
                try handle.close()
            case "foreign":
                for suffix in catalogFiles { try? FileManager.default.removeItem(atPath: catalog + suffix) }
                #expect(try sqlite3(url, "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')").isEmpty)
            default:
                for suffix in catalogFiles { try? FileManager.default.removeItem(atPath: catalog + suffix) }
                _ = try sqlite3(url, "PRAGMA user_version = 0")
            }
            let notices = try await expectIntact(url, ["Trip": trip, "Home": home])
            if damage != "schemaless" {
                #expect(notices.count == 1, "\(notices)")
                #expect(notices.first?.contains("rebuilt from its journal") == true)
            }
            if damage == "foreign" {
                let kept = try FileManager.default.contentsOfDirectory(atPath: url.path + "/damaged")
                #expect(kept.count == 1)
                let old = url.path + "/damaged/" + kept[0] + "/catalog.sqlite"
                #expect(FileManager.default.fileExists(atPath: old), "another program's database is kept")
            }
        }
    }

    /// An older copy of the catalog (restored from a backup) catches up with the journal; a catalog
    /// of another library (another journal) is rebuilt.
    @Test func anOlderCatalogCatchesUpAndAnotherLibrarysIsRebuilt() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let early = try await saveDistinct(2, into: "Trip", at: url)
            let copy = dir.appendingPathComponent("old.sqlite")
            try FileManager.default.copyItem(atPath: url.path + "/catalog.sqlite", toPath: copy.path)
            let late = try await saveDistinct(3, into: "Trip", at: url, tag: "l")
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            try await library.renameAlbum(titled: "Trip", to: "Trips")
            try FileManager.default.removeItem(atPath: url.path + "/catalog.sqlite")
            try FileManager.default.copyItem(atPath: copy.path, toPath: url.path + "/catalog.sqlite")
            #expect(try await expectIntact(url, ["Trips": early + late]).isEmpty, "a catch-up is no rebuild")

            let other = dir.appendingPathComponent("Other.albumlibrary")
            _ = try await saveDistinct(1, into: "Elsewhere", at: other, tag: "o")
            try FileManager.default.removeItem(atPath: url.path + "/catalog.sqlite")
            try FileManager.default.copyItem(
                atPath: other.path + "/catalog.sqlite", toPath: url.path + "/catalog.sqlite")
            let notices = try await expectIntact(url, ["Trips": early + late])
            #expect(notices.first?.contains("another journal") == true, "\(notices)")
            #expect(
                try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).albums().map(\.title) == ["Trips"])
        }
    }

    /// An index last written in another boot (the machine stopped: it was written without flushes
    /// and may be torn) is rebuilt, from the snapshot and the journal's tail; it is not kept.
    @Test func anIndexFromBeforeARestartIsRebuiltFromTheSnapshot() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let backend = try CatalogBackend.open(at: url)
            backend.snapshotInterval.withLock { $0 = 3 }
            let library = PhotoLibrary(backend: backend)
            var saved: [SavedAsset] = []
            for n in 0..<4 {
                saved.append(
                    try await library.album(titled: "Trip").save(
                        .data(Fixture.uniqueJPEG("r\(n)"), filename: "IMG_\(n).JPG")))
            }
            await Blocking.acknowledgedWorkFinished()
            #expect(FileManager.default.fileExists(atPath: url.path + "/snapshots/index.sqlite"))
            do {
                let db = try Database(path: url.path + "/catalog.sqlite", create: false)
                try db.run("UPDATE index_state SET value = 'an-earlier-boot' WHERE key = 'boot'")
            }
            let before = FileSystem.fileID(atPath: url.path + "/catalog.sqlite")
            let notices = try await expectIntact(url, ["Trip": saved])
            #expect(notices.isEmpty, "a routine rebuild after a restart is not announced: \(notices)")
            #expect(FileSystem.fileID(atPath: url.path + "/catalog.sqlite") != before, "rebuilt")
            #expect(!FileManager.default.fileExists(atPath: url.path + "/damaged"), "an untrusted index is not kept")
        }
    }

    /// A snapshot that fails (it cannot be put in place) is an error `verify` reports, not
    /// swallowed; once it can be written again, the next due snapshot clears it.
    @Test func aFailedSnapshotIsReportedByVerify() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            // The snapshot cannot be put in place (a full disk, say).
            _ = FaultInjector.inject(.publish, under: url.path + "/snapshots/index.sqlite", errno: ENOSPC)
            defer { FaultInjector.removeAll(under: url.path + "/snapshots/index.sqlite") }
            let backend = try CatalogBackend.open(at: url)
            backend.snapshotInterval.withLock { $0 = 2 }
            let library = PhotoLibrary(backend: backend)
            for n in 0..<3 {
                _ = try await library.album(titled: "A").save(.data(Fixture.uniqueJPEG("s\(n)"), filename: "\(n).jpg"))
            }
            let report = try await library.verify()
            #expect(
                report.problems.contains { $0.contains("the last snapshot of the catalog failed") },
                "\(report.problems)")
            FaultInjector.removeAll(under: url.path + "/snapshots/index.sqlite")
            for n in 3..<6 {
                _ = try await library.album(titled: "A").save(.data(Fixture.uniqueJPEG("s\(n)"), filename: "\(n).jpg"))
            }
            #expect(try await library.verify().isHealthy)
            #expect(FileManager.default.fileExists(atPath: url.path + "/snapshots/index.sqlite"))
        }
    }

    /// A torn tail (an append a power loss cut short) is ignored, kept under `damaged/` and cut off
    /// by the next writer; a record damaged in the middle is reported with what it affects and
    /// skipped, and every record after it still counts.
    @Test func aTornTailIsSetAsideAndADamagedRecordIsSkippedAlone() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let first = try await saveDistinct(1, into: "A", at: url)
            let middle = try await saveDistinct(1, into: "A", at: url, tag: "m")
            let last = try await saveDistinct(1, into: "A", at: url, tag: "z")
            let journal = url.appendingPathComponent("journal/library.journal")
            var bytes = try Data(contentsOf: journal)
            // Flip a byte inside the middle save's record.
            let text = String(decoding: bytes, as: UTF8.self)
            let range = try #require(text.range(of: "IMG_m0.JPG"))
            let offset = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
            bytes[offset] ^= 0x01
            bytes.append(Data("1234abcd {\"op\":\"save\",\"id\":\"torn".utf8))
            try bytes.write(to: journal)
            for suffix in catalogFiles {
                try? FileManager.default.removeItem(atPath: url.path + "/catalog.sqlite" + suffix)
            }
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(try await library.assets(inAlbumTitled: "A").map(\.id) == [first[0].assetID, last[0].assetID])
            let report = try await library.verify()
            #expect(
                report.problems.contains { $0.contains("damaged record") && $0.contains("the save of") },
                "\(report.problems)")
            #expect(report.problems.contains { $0.contains("stray file") && $0.contains(middle[0].assetID) })
            // The next save cuts the torn tail off (kept) and appends after the last whole record.
            let after = try await saveDistinct(1, into: "A", at: url, tag: "after")
            let kept = Fixture.files(under: url.appendingPathComponent("damaged"))
            #expect(kept.contains { $0.contains("journal-tail-at-") }, "\(kept)")
            #expect(!(try String(contentsOf: journal, encoding: .utf8)).contains("\"torn"))
            #expect(try await library.assets(inAlbumTitled: "A").map(\.id).last == after[0].assetID)
            // Repair adopts the file whose record was damaged, into "Recovered".
            let repaired = try await PhotoLibrary.repair(catalogAt: url)
            #expect(repaired.sources["originals"] == 1)
            #expect(try await library.assets(inAlbumTitled: "Recovered").map(\.id) == [middle[0].assetID])
            // Repair recorded that it dealt with the damaged record: verify is clean, also rebuilt.
            #expect(try await library.verify().isHealthy)
            for suffix in catalogFiles {
                try? FileManager.default.removeItem(atPath: url.path + "/catalog.sqlite" + suffix)
            }
            #expect(try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).verify().isHealthy)
        }
    }

    /// Files under `originals/` that no record names (copied in by hand, a backup's) are reported
    /// by `verify` and adopted by `repair` into "Recovered", with their metadata; what is not a
    /// photo stays where it is, named.
    @Test func repairAdoptsOriginalsNoRecordNames() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await saveDistinct(2, into: "Trip", at: url)
            try FileManager.default.createDirectory(
                atPath: url.path + "/originals/zz", withIntermediateDirectories: true)
            try Fixture.jpegBytes.write(to: url.appendingPathComponent("originals/zz/found.jpg"))
            try Data("not a photo".utf8).write(to: url.appendingPathComponent("originals/zz/notes.txt"))
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(try await library.verify().problems.filter { $0.contains("stray file") }.count == 2)
            let report = try await PhotoLibrary.repair(catalogAt: url)
            #expect(report.sources["originals"] == 1)
            #expect(report.notRestored.count == 1 && report.notRestored[0].contains("notes.txt"))
            let recovered = try await library.assets(inAlbumTitled: "Recovered")
            #expect(recovered.count == 1 && recovered[0].metadata?.format == .jpeg)
            #expect(try await library.assets(inAlbumTitled: "Trip").map(\.id) == saved.map(\.assetID))
            // A second repair adopts nothing again.
            #expect(try await PhotoLibrary.repair(catalogAt: url).sources["originals"] == 0)
        }
    }

    /// A saver killed after publishing its files and before recording them (its owner file lists
    /// them): the next opening removes them — they were never acknowledged — and keeps a listed
    /// file that a record names.
    @Test func filesADeadSaverPublishedButNeverRecordedAreRemoved() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await saveDistinct(1, into: "A", at: url)
            let savedFile = try #require(originals(url).first)
            let owners = url.appendingPathComponent("owners")
            let dead = "p999998-00000000000000fe"
            Fixture.write(Data(ProcessOwner.formatLine), named: dead, in: owners)
            try FileManager.default.createDirectory(
                atPath: url.path + "/originals/ee", withIntermediateDirectories: true)
            // Named as a save names its files: a list names nothing else (``LibraryFilePath``).
            let unrecorded = "originals/ee/\(RandomID.make()).jpg"
            try Fixture.uniqueJPEG("unrecorded").write(to: url.appendingPathComponent(unrecorded))
            Fixture.write(
                Data("\(unrecorded)\noriginals/\(savedFile)\n".utf8), named: dead + ".publishing", in: owners)
            try await expectIntact(url, ["A": saved])
            #expect(originals(url) == [savedFile])
            #expect(!FileManager.default.fileExists(atPath: owners.path + "/" + dead + ".publishing"))
        }
    }

    /// What a power loss leaves when the saver's list was flushed but its owner file's name was
    /// not: the list alone proves the owner dead and its unrecorded files its own; they go, and
    /// the list with them.
    @Test func aPublishingListWithoutItsOwnerFileIsStillSwept() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await saveDistinct(1, into: "A", at: url)
            let owners = url.appendingPathComponent("owners")
            let dead = "p999997-00000000000000fd"
            try FileManager.default.createDirectory(
                atPath: url.path + "/originals/ed", withIntermediateDirectories: true)
            let lost = "originals/ed/\(RandomID.make()).jpg"
            try Fixture.uniqueJPEG("lost").write(to: url.appendingPathComponent(lost))
            Fixture.write(Data("\(lost)\n".utf8), named: dead + ".publishing", in: owners)
            #expect(ProcessOwner.owners(in: owners.path).contains(dead))
            try await expectIntact(url, ["A": saved])
            #expect(originals(url).count == 1)
            #expect(!FileManager.default.fileExists(atPath: owners.path + "/" + dead + ".publishing"))
        }
    }

    /// The list of files being published only grows while saves are in flight (flushed before
    /// their names exist), and is blanked once none is: it keeps its size (the next listing is
    /// written in place) and names nothing.
    @Test func thePublishingListGrowsUntilNothingIsInFlight() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let owners = dir.appendingPathComponent("owners").path
            let list = owners + "/" + ProcessOwner.token + ".publishing"
            func listed() -> String { (try? String(contentsOfFile: list, encoding: .utf8)) ?? "missing" }
            try ProcessOwner.notePublishing(["originals/aa/1.jpg"], in: owners)
            try ProcessOwner.notePublishing(["originals/aa/2.jpg"], in: owners)
            ProcessOwner.clearPublishing(["originals/aa/1.jpg"], in: owners)
            #expect(listed() == "originals/aa/1.jpg\noriginals/aa/2.jpg\n")
            ProcessOwner.clearPublishing(["originals/aa/2.jpg"], in: owners)
            #expect(listed() == String(repeating: "\n", count: 38))
            #expect(ProcessOwner.publishedPaths(of: ProcessOwner.token, in: owners).isEmpty)
            try ProcessOwner.notePublishing(["originals/aa/3.jpg"], in: owners)
            #expect(listed() == "originals/aa/3.jpg\n" + String(repeating: "\n", count: 19))
            #expect(ProcessOwner.publishedPaths(of: ProcessOwner.token, in: owners) == ["originals/aa/3.jpg"])
            ProcessOwner.clearPublishing(["originals/aa/3.jpg"], in: owners)
            #expect(listed() == String(repeating: "\n", count: 38))
        }
    }

    /// A lone save lists its name as being published while it is still being copied, and starts
    /// flushing its data when the copy ends; discarded instead of committed, it is taken off the
    /// list and leaves nothing. A chunk's items are listed by their commit.
    @Test func aLoneSaveIsListedWhileStagedAndUnlistedWhenDiscarded() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let backend = try CatalogBackend.open(at: library(dir))
            let list = backend.ownersPath + "/" + ProcessOwner.token + ".publishing"
            func listed() -> String {
                ((try? String(contentsOfFile: list, encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
            }
            let lone = try await backend.stage([.data(Fixture.uniqueJPEG("lone"), filename: "lone.jpg")]) {}[0].get()
            #expect(lone.listing != nil && lone.publishing != nil && lone.isPublishedWhileStaged)
            try lone.listing?.wait()
            #expect(listed() == lone.relativePath)
            // Named while staged, once listed: its name and data flushed before its commit.
            try lone.publishing?.wait()
            let named = backend.root.path + "/" + lone.relativePath
            #expect(FileManager.default.fileExists(atPath: named))
            await backend.discard(lone)
            #expect(!FileManager.default.fileExists(atPath: named))
            #expect(listed() == "")
            let chunk = await backend.stage([
                .data(Fixture.uniqueJPEG("a"), filename: "a.jpg"), .data(Fixture.uniqueJPEG("b"), filename: "b.jpg"),
            ]) {}
            for item in chunk {
                let staged = try item.get()
                #expect(staged.listing == nil && staged.publishing == nil)
                await backend.discard(staged)
            }
            #expect(listed() == "")
            #expect(originals(library(dir)).isEmpty)
        }
    }

    /// A lone save whose record cannot be appended (the disk full under `journal/`) fails, and the
    /// name its file was given while it was staged goes with it: nothing of it is anywhere.
    @Test func aLoneSaveWhoseRecordFailsRemovesTheNameItWasGivenWhenStaged() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let backend = try CatalogBackend.open(at: url)
            let library = PhotoLibrary(backend: backend)
            _ = try await library.album(titled: "A").save(.data(Fixture.uniqueJPEG("first"), filename: "first.jpg"))
            let named = Locked<[String]>([])
            backend.beforeRecording.withLock { hook in
                hook = { named.withLock { $0 = Fixture.files(under: url.appendingPathComponent("originals")) } }
            }
            let rule = FaultInjector.inject(.write, under: backend.journal.path, errno: ENOSPC)
            await #expect(throws: AlbumError.self) {
                _ = try await library.album(titled: "A").save(.data(Fixture.uniqueJPEG("second"), filename: "2.jpg"))
            }
            #expect(FaultInjector.hits(rule) >= 1)
            FaultInjector.remove(rule)
            backend.beforeRecording.withLock { $0 = nil }
            // It was named before its record was written, and is gone after the failure.
            #expect(named.withLock { $0 }.count == 2)
            #expect(originals(url).count == 1)
            let list = backend.ownersPath + "/" + ProcessOwner.token + ".publishing"
            #expect(
                ((try? String(contentsOfFile: list, encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines) == "")
            #expect(try await library.assets(inAlbumTitled: "A").count == 1)
            #expect(try await library.verify().isHealthy)
            _ = try await library.album(titled: "A").save(.data(Fixture.uniqueJPEG("third"), filename: "3.jpg"))
            #expect(try await library.assets(inAlbumTitled: "A").count == 2)
        }
    }

    /// A lone save whose name cannot be listed (the disk full under `owners/`) fails before any
    /// of its names exists, says why, and leaves the library as it was.
    @Test func aLoneSaveWhoseListingFailsSavesNothing() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let backend = try CatalogBackend.open(at: url)
            let library = PhotoLibrary(backend: backend)
            _ = try await library.album(titled: "A").save(.data(Fixture.uniqueJPEG("first"), filename: "first.jpg"))
            let rule = FaultInjector.inject(
                .write, under: backend.ownersPath + "/" + ProcessOwner.token + ".publishing", errno: ENOSPC)
            await #expect(throws: AlbumError.self) {
                _ = try await library.album(titled: "A").save(.data(Fixture.uniqueJPEG("second"), filename: "2.jpg"))
            }
            #expect(FaultInjector.hits(rule) >= 1)
            FaultInjector.remove(rule)
            #expect(originals(url).count == 1)
            #expect(try await library.assets(inAlbumTitled: "A").count == 1)
            #expect(try await library.verify().isHealthy)
        }
    }

    /// Deleting an asset moves it to recently deleted (its file kept, restorable into its albums);
    /// saving the same bytes again brings it back; deleting permanently removes row and file.
    @Test func deletionsGoToRecentlyDeletedAndComeBack() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await saveDistinct(3, into: "A", at: url)
            let backend = try CatalogBackend.open(at: url)
            let library = PhotoLibrary(backend: backend)
            _ = try await backend.deleteAssets([saved[0].assetID, saved[1].assetID])
            #expect(try await library.assets(inAlbumTitled: "A").map(\.id) == [saved[2].assetID])
            #expect(originals(url).count == 3, "files stay while recently deleted")
            #expect(
                Set(try await backend.recentlyDeletedAssets().map(\.asset.id)) == [saved[0].assetID, saved[1].assetID])
            try await backend.restoreAssets([saved[0].assetID])
            #expect(try await library.assets(inAlbumTitled: "A").map(\.id) == [saved[0].assetID, saved[2].assetID])
            let again = try await library.album(titled: "B").save(.data(Fixture.uniqueJPEG("1"), filename: "again.jpg"))
            #expect(again.isExisting && again.assetID == saved[1].assetID)
            #expect(try await library.assets(inAlbumTitled: "A").count == 3)
            _ = try await backend.deleteAssets([saved[2].assetID], permanently: true)
            #expect(originals(url).count == 2)
            #expect(try await library.verify().isHealthy)
            // Rebuilt from the journal, the library is the same.
            for suffix in catalogFiles {
                try? FileManager.default.removeItem(atPath: url.path + "/catalog.sqlite" + suffix)
            }
            let rebuilt = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(try await rebuilt.assets(inAlbumTitled: "A").map(\.id) == [saved[0].assetID, saved[1].assetID])
            #expect(try await rebuilt.verify().isHealthy)
        }
    }

    /// The creation options an app gives (date, location, favourite, moving its file) are kept by
    /// the catalog, in the journal too: a rebuilt catalog has them.
    @Test func creationOptionsAreKeptAndTheMovedFileGoes() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let source = Fixture.write(Fixture.uniqueJPEG("moved"), named: "moved.jpg", in: dir)
            let date = Date(timeIntervalSince1970: 1_600_000_000)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            let media = Media.file(source).with(
                creationDate: date, location: GeoLocation(latitude: 48.8584, longitude: 2.2945), isFavorite: true,
                movesFile: true)
            _ = try await library.album(titled: "A").save(media)
            #expect(!FileManager.default.fileExists(atPath: source.path), "moved, not copied")
            for suffix in catalogFiles {
                try? FileManager.default.removeItem(atPath: url.path + "/catalog.sqlite" + suffix)
            }
            let asset = try #require(
                try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).assets(inAlbumTitled: "A").first)
            #expect(asset.capturedAt == date)
            #expect(asset.location?.latitude == 48.8584 && asset.location?.longitude == 2.2945)
            #expect(asset.isFavorite)
        }
    }

    /// A save by another process (another backend on the library) shows in the next listing.
    @Test func anotherHandlesChangesShowAtOnce() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let reader = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(try await reader.albums().isEmpty)
            let saved = try await saveDistinct(2, into: "A", at: url)
            #expect(try await reader.albums().map(\.count) == [2])
            try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).renameAlbum(titled: "A", to: "B")
            #expect(try await reader.assets(inAlbumTitled: "B").map(\.id) == saved.map(\.assetID))
        }
    }

    /// Every page of a new catalog carries its checksum; a page changed behind AlbumKit's back is
    /// found at the next read and the catalog rebuilt.
    @Test func pagesCarryChecksums() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            _ = try await saveDistinct(2, into: "A", at: url)
            let db = try Database(path: url.path + "/catalog.sqlite", create: false)
            #expect(db.reservedBytesPerPage == Int(Database.checksumBytes))
        }
    }

    /// A catalog that is a symbolic link looked like a lost catalog ("new or reset"), with the
    /// advice to rebuild it, over the link. The link is set aside under `damaged/` (never
    /// followed, the file it names untouched) and the index rebuilt, by opening and by repair.
    @Test func aCatalogThatIsASymbolicLinkIsSetAsideNotFollowed() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await saveDistinct(2, into: "Keep", at: url)
            let catalog = url.appendingPathComponent("catalog.sqlite").path
            let moved = dir.appendingPathComponent("elsewhere.sqlite").path
            for attempt in 0..<2 {
                try? FileManager.default.removeItem(atPath: moved)
                try FileManager.default.moveItem(atPath: catalog, toPath: moved)
                try FileManager.default.createSymbolicLink(atPath: catalog, withDestinationPath: "../elsewhere.sqlite")
                let before = try Data(contentsOf: URL(fileURLWithPath: moved))
                if attempt == 0 {
                    let backend = try CatalogBackend.open(at: url)
                    #expect(backend.takeNotices().contains { $0.contains("is a symbolic link, not a file") })
                } else {
                    _ = try await PhotoLibrary.repair(catalogAt: url)
                }
                #expect(FileSystem.fileStatus(atPath: catalog, following: false)?.kind == .regular)
                #expect(try Data(contentsOf: URL(fileURLWithPath: moved)) == before, "the linked file was changed")
                let assets = try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).assets(
                    inAlbumTitled: "Keep")
                #expect(assets.map(\.id) == saved.map(\.assetID))
            }
        }
    }

    /// Opening removes a dead saver's hidden staging files when its owner file says it staged
    /// some (or is an older version's, without the first line), keeps a live saver's, and does
    /// not list the photos' folders for an owner that staged none: a hidden file of such an owner
    /// (which a saver never makes) stays until `album repair`, which looks everywhere.
    @Test func deadSaversHiddenFilesAreRemovedWhenTheirOwnerFileSaysSo() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            _ = try await saveDistinct(1, into: "A", at: url)
            let shard = url.appendingPathComponent("originals/ab")
            let owners = url.appendingPathComponent("owners")
            try FileManager.default.createDirectory(at: shard, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: owners, withIntermediateDirectories: true)
            func deadOwner(_ number: Int, ownerFile: [UInt8]?) -> String {
                let token = "p99999\(number)-00000000000000f\(number)"
                if let ownerFile { Fixture.write(Data(ownerFile), named: token, in: owners) }
                let leftover = ".\(token).\(UUID().uuidString.lowercased()).partial"
                Fixture.write(Data([1, 2, 3]), named: leftover, in: shard)
                return leftover
            }
            let staged = deadOwner(1, ownerFile: ProcessOwner.formatLine + ProcessOwner.hiddenStagingLine)
            let older = deadOwner(2, ownerFile: [])
            let none = deadOwner(3, ownerFile: ProcessOwner.formatLine)
            let live = StagingName(kind: "partial").fileName
            Fixture.write(Data([4]), named: live, in: shard)
            func exists(_ name: String) -> Bool {
                FileManager.default.fileExists(atPath: shard.appendingPathComponent(name).path)
            }
            // No pending row at all: the sweep does not depend on one.
            let backend = try CatalogBackend.open(at: url)
            #expect(!exists(staged) && !exists(older))
            #expect(exists(none) && exists(live))
            // The owners cleaned up after are forgotten; verify names what is left; repair removes it.
            #expect(
                Set(ProcessOwner.owners(in: owners.path)).isDisjoint(with: [
                    "p999991-00000000000000f1", "p999993-00000000000000f3",
                ]))
            let report = try await PhotoLibrary(backend: backend).verify()
            #expect(report.problems.contains { $0.contains(none) && $0.contains("album repair") })
            _ = try await PhotoLibrary.repair(catalogAt: url)
            #expect(!exists(none) && exists(live))
        }
    }

    @Test func stagingFallsBackToPartialFilesWhenOTmpfileIsMissing() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let backend = try CatalogBackend.open(at: library(dir))
            let rule = FaultInjector.inject(.openTemporary, under: backend.originalsPath, errno: EOPNOTSUPP)
            let seen = Locked<[String]>([])
            let root = backend.root
            backend.beforeRecording.withLock { hook in
                hook = { seen.withLock { $0 = Fixture.files(under: root.appendingPathComponent("originals")) } }
            }
            let library = PhotoLibrary(backend: backend)
            let saved = try await library.album(titled: "A").save([
                .data(Fixture.uniqueJPEG("1"), filename: "1.jpg"), .data(Fixture.uniqueJPEG("2"), filename: "2.jpg"),
            ]).map { try $0.get() }
            // Both stagings were refused O_TMPFILE and used hidden files, which publishing removed.
            #expect(FaultInjector.hits(rule) == 2)
            #expect(seen.withLock { $0 }.count == 2)
            #expect(!seen.withLock { $0 }.contains { $0.contains("/.") })
            // Afterwards only the published files remain, and the library is healthy.
            #expect(Fixture.files(under: root.appendingPathComponent("originals")).count == saved.count)
            #expect(try await library.verify().isHealthy)
            // This process's owner file says it staged hidden files, so a later opening would
            // look for them were it to die.
            let ownerFile = try [UInt8](
                Data(contentsOf: URL(fileURLWithPath: backend.ownersPath + "/" + ProcessOwner.token)))
            #expect(ownerFile == ProcessOwner.formatLine + ProcessOwner.hiddenStagingLine)
        }
    }

    @Test func sameBytesAreOneAssetAddedToEachAlbum() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let backend = try CatalogBackend.open(at: library(dir))
            let library = PhotoLibrary(backend: backend)
            let bytes = Fixture.uniqueJPEG("same")
            let first = try await library.album(titled: "A").save(.data(bytes, filename: "first.jpg"))
            #expect(!first.isExisting)
            // Again into the same album, under another name, and twice in one batch into another.
            let again = try await library.album(titled: "A").save(.data(bytes, filename: "renamed.jpg"))
            #expect(again.isExisting && again.assetID == first.assetID)
            let batch = try await library.album(titled: "B").save([
                .data(bytes, filename: "b1.jpg"), .data(bytes, filename: "b2.jpg"),
            ]).map { try $0.get() }
            #expect(batch.allSatisfy { $0.isExisting && $0.assetID == first.assetID })
            #expect(try await library.assets(inAlbumTitled: "A").map(\.id) == [first.assetID])
            #expect(try await library.assets(inAlbumTitled: "B").map(\.id) == [first.assetID])
            // Stored once; the first name stays.
            #expect(originals(backend.root).count == 1)
            #expect(try await library.assets(inAlbumTitled: "B").first?.originalFilename == "first.jpg")
            #expect(try await library.verify().isHealthy)
        }
    }

    @Test func fifoAndDeviceFailAloneWithoutBlocking() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let fifo = dir.appendingPathComponent("pipe").path
            #expect(mkfifo(fifo, 0o644) == 0)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: library(dir)))
            let results = await library.album(titled: "A").save([
                .file(URL(fileURLWithPath: fifo)), .file(URL(fileURLWithPath: "/dev/zero")), .file(Fixture.jpeg),
            ])
            #expect(results[0].error?.code == .fileUnreadable)
            #expect(results[0].error?.file == fifo)
            #expect(results[1].error?.code == .fileUnreadable)
            #expect(results[2].value != nil)
        }
    }

    @Test func pathBytesThatAreNotUTF8ReachTheFileSystem() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let path = FileSystemPath(bytes: Array((dir.path + "/bad").utf8) + [0xFF, 0xFE] + Array("name.jpg".utf8))
            let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
            #expect(fd >= 0)
            let bytes = Fixture.jpegBytes
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: library(dir)))
            let saved = try await library.album(titled: "A").save(.path(path))
            #expect(saved.metadata?.format == .jpeg)
            // The same name as a (lossy) String names no file.
            let lossy = await library.album(titled: "A").save([.file(URL(fileURLWithPath: path.description))])
            #expect(lossy[0].error?.code == .fileNotFound)
        }
    }
}
