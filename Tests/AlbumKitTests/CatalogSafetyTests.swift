import Foundation
import Testing

@testable import AlbumKitCore

#if canImport(Glibc)
    import Glibc
#endif

/// Nothing acknowledged is ever lost: damaged or lost catalogs are refused and repaired, recovery
/// removes only what dead savers staged, same bytes are one asset, and awkward inputs fail alone.
@Suite struct CatalogSafetyTests {
    func library(_ dir: URL) -> URL { dir.appendingPathComponent("Safe.albumlibrary") }

    /// Saves `count` distinct photos into `title`; returns their assets.
    func saveDistinct(_ count: Int, into title: String, at url: URL, tag: String = "") async throws -> [SavedAsset] {
        let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
        let media = (0..<count).map { Media.data(Fixture.uniqueJPEG("\(tag)\($0)"), filename: "IMG_\(tag)\($0).JPG") }
        return try await library.album(titled: title).save(media).map { try $0.get() }
    }

    /// A catalog created with its journal takes no snapshot on its first save (the journal holds
    /// everything); one older than its journal does, and repair still restores every save from the
    /// journal alone.
    @Test func snapshotsOnlyWhereTheJournalDoesNotHoldEverything() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let snapshot = url.appendingPathComponent("snapshots/catalog.sqlite").path
            let saved = try await saveDistinct(3, into: "Trip", at: url)
            #expect(!FileManager.default.fileExists(atPath: snapshot))
            // Damaged with no snapshot: the journal brings every save back.
            try Data("not a catalog".utf8).write(to: url.appendingPathComponent("catalog.sqlite"))
            for suffix in ["-wal", "-shm", "-checked"] {
                try? FileManager.default.removeItem(atPath: url.path + "/catalog.sqlite" + suffix)
            }
            expectRefused(url)
            try await expectRepaired(url, saved, title: "Trip")

            // A catalog without the mark (written before its journal existed) gets its copy at once.
            let other = dir.appendingPathComponent("Old.albumlibrary")
            _ = try await saveDistinct(1, into: "Old", at: other, tag: "old")
            let db = try Database(path: other.path + "/catalog.sqlite", create: false)
            try db.run("DELETE FROM library_state WHERE key = ?", [.text(CatalogSchema.StateKey.journalFromStart)])
            _ = try await saveDistinct(1, into: "Old", at: other, tag: "later")
            #expect(FileManager.default.fileExists(atPath: other.path + "/snapshots/catalog.sqlite"))
        }
    }

    /// Deletes the catalog and its companion files, as a user or a failing disk could.
    func removeCatalog(_ url: URL) {
        for suffix in ["", "-wal", "-shm", "-checked"] {
            try? FileManager.default.removeItem(atPath: url.path + "/catalog.sqlite" + suffix)
        }
    }

    func originals(_ url: URL) -> [String] {
        Fixture.files(under: url.appendingPathComponent("originals")).filter { !$0.contains("/.") }
    }

    func expectRefused(_ url: URL, sourceLine: SourceLocation = #_sourceLocation) {
        #expect(throws: AlbumError.self, sourceLocation: sourceLine) {
            do { _ = try CatalogBackend.open(at: url) } catch let error as AlbumError {
                #expect(error.code == .libraryCorrupt, sourceLocation: sourceLine)
                #expect(error.message.contains("album repair"), sourceLocation: sourceLine)
                throw error
            }
        }
    }

    /// Repairs, then checks every save is back with its album, name and date.
    func expectRepaired(_ url: URL, _ saved: [SavedAsset], title: String) async throws {
        let report = try await PhotoLibrary.repair(catalogAt: url)
        #expect(!report.wasHealthy)
        #expect(report.notRestored.isEmpty, "\(report.notRestored)")
        let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
        let assets = try await library.assets(inAlbumTitled: title)
        #expect(Set(assets.map(\.id)) == Set(saved.map(\.assetID)))
        #expect(assets.allSatisfy { $0.originalFilename?.hasPrefix("IMG_") == true })
        #expect(assets.allSatisfy { $0.addedAt.timeIntervalSinceNow > -600 })
        #expect(try await library.verify().isHealthy)
    }

    /// A journal removed, cut short or overwritten went unnoticed (`verify`: ok), and a catalog
    /// lost later was rebuilt without the albums only the journal recorded. Now `verify` names the
    /// journal, and `repair` appends what it lacks; a lost catalog then comes back whole.
    @Test(arguments: ["garbage", "removed", "cut"])
    func aDamagedJournalIsReportedAndRecordedAgain(_ damage: String) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let keep = try await saveDistinct(3, into: "Keep", at: url)
            let other = try await saveDistinct(2, into: "Other", at: url, tag: "o")
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            _ = try await library.addAssets(
                withIDs: [keep[0].assetID], toAlbumWithID: try #require(other[0].albumID))
            #expect(try await library.verify().isHealthy)
            let journal = url.appendingPathComponent("journal/saves.jsonl")
            switch damage {
            case "garbage": try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: journal)
            case "removed": try FileManager.default.removeItem(at: journal)
            default: try Data(try Data(contentsOf: journal).prefix(100)).write(to: journal)
            }
            let report = try await library.verify()
            #expect(report.problems.count == 1, "\(report.problems)")
            #expect(report.problems.first?.contains("journal (journal/saves.jsonl) lacks") == true)
            // repair: the catalog is healthy; the journal gets what it lacks.
            let repaired = try await PhotoLibrary.repair(catalogAt: url)
            #expect(repaired.wasHealthy)
            #expect(repaired.journalRecordsAdded > 0)
            #expect(try await library.verify().isHealthy)
            // A second repair finds nothing missing.
            #expect(try await PhotoLibrary.repair(catalogAt: url).journalRecordsAdded == 0)
            // And the catalog, lost now, is rebuilt with both albums and the shared photo.
            removeCatalog(url)
            _ = try await PhotoLibrary.repair(catalogAt: url)
            let rebuilt = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(Set(try await rebuilt.assets(inAlbumTitled: "Keep").map(\.id)) == Set(keep.map(\.assetID)))
            #expect(
                Set(try await rebuilt.assets(inAlbumTitled: "Other").map(\.id))
                    == Set(other.map(\.assetID) + [keep[0].assetID]))
            #expect(try await rebuilt.verify().isHealthy)
        }
    }

    /// A deletion killed after it journaled and before it marked its rows deleted nothing, but the
    /// journal said it did: a repair of a catalog lost later dropped those assets from their albums.
    /// Opening the library records them as saved again once the deleting process is proved dead.
    @Test func aDeletionKilledBeforeItMarkedItsRowsIsJournaledAsSavedAgain() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await saveDistinct(2, into: "Keep", at: url)
            let owners = url.appendingPathComponent("owners")
            try FileManager.default.createDirectory(at: owners, withIntermediateDirectories: true)
            let dead = "p999994-00000000000000f4"
            Fixture.write(Data(ProcessOwner.formatLine), named: dead, in: owners)
            let journal = SaveJournal(libraryRoot: url.path)
            try journal.append([
                SaveJournal.Record(op: .deleteAsset, asset: saved[0].assetID, at: 1, owner: dead)
            ])
            #expect(!SaveJournal.savedAssets(in: try journal.records()).contains(saved[0].assetID))
            // When the library is opened again
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            // Then the journal holds the asset, in its album, and verify finds nothing wrong
            #expect(SaveJournal.savedAssets(in: try journal.records()).contains(saved[0].assetID))
            #expect(try await library.verify().isHealthy)
            removeCatalog(url)
            _ = try await PhotoLibrary.repair(catalogAt: url)
            let rebuilt = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(Set(try await rebuilt.assets(inAlbumTitled: "Keep").map(\.id)) == Set(saved.map(\.assetID)))
            // A deletion of a live process is left alone (it may be marking its rows right now).
            try journal.append([
                SaveJournal.Record(op: .deleteAsset, asset: saved[1].assetID, at: 2, owner: ProcessOwner.token)
            ])
            _ = try CatalogBackend.open(at: url)
            #expect(!SaveJournal.savedAssets(in: try journal.records()).contains(saved[1].assetID))
        }
    }

    /// A catalog that is a symbolic link looked like a lost catalog ("new or reset"), with the
    /// advice to rebuild it, over the link. It is refused as what it is, by repair too.
    @Test func aCatalogThatIsASymbolicLinkIsRefusedAsOne() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            _ = try await saveDistinct(2, into: "Keep", at: url)
            let catalog = url.appendingPathComponent("catalog.sqlite").path
            let moved = dir.appendingPathComponent("elsewhere.sqlite").path
            try FileManager.default.moveItem(atPath: catalog, toPath: moved)
            try FileManager.default.createSymbolicLink(atPath: catalog, withDestinationPath: "../elsewhere.sqlite")
            for attempt in 0..<2 {
                do {
                    if attempt == 0 {
                        _ = try CatalogBackend.open(at: url)
                    } else {
                        _ = try await PhotoLibrary.repair(catalogAt: url)
                    }
                    Issue.record("a linked catalog was opened")
                } catch let error as AlbumError {
                    #expect(error.code == .libraryCorrupt)
                    #expect(error.message.contains("is a symbolic link (to \(moved))"), "\(error.message)")
                }
            }
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: catalog) == "../elsewhere.sqlite")
        }
    }

    /// A saver killed after its catalog commit and before its journal record: the photos are in
    /// the catalog (never acknowledged) and not in the journal, which rebuilds a lost catalog. The
    /// next opening records them, once the saver is proved dead.
    @Test func aSaveKilledBeforeItsJournalRecordIsRecordedAtTheNextOpening() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            _ = try await saveDistinct(2, into: "Keep", at: url)
            let journalPath = url.appendingPathComponent("journal/saves.jsonl")
            let before = try Data(contentsOf: journalPath)
            let lost = try await saveDistinct(3, into: "New", at: url, tag: "n")
            try before.write(to: journalPath)  // what the kill left: the commit without its records
            let owners = url.appendingPathComponent("owners")
            Fixture.write(Data(ProcessOwner.formatLine), named: "p999995-00000000000000f5", in: owners)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(try await library.verify().isHealthy)
            removeCatalog(url)
            _ = try await PhotoLibrary.repair(catalogAt: url)
            let rebuilt = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(Set(try await rebuilt.assets(inAlbumTitled: "New").map(\.id)) == Set(lost.map(\.assetID)))
        }
    }

    /// A `delete-asset` killed before it removed the files, and the catalog lost before the library
    /// was opened again: repair kept the deletion, and the photos came back from the originals in no
    /// album and without their names. The deletion never finished: they come back whole.
    @Test func repairKeepsPhotosWhoseDeletionDiedBeforeRemovingThem() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await saveDistinct(3, into: "Keep", at: url)
            let dead = "p999996-00000000000000f6"
            Fixture.write(Data(ProcessOwner.formatLine), named: dead, in: url.appendingPathComponent("owners"))
            try SaveJournal(libraryRoot: url.path).append([
                SaveJournal.Record(op: .deleteAsset, asset: saved[0].assetID, at: 1, owner: dead)
            ])
            removeCatalog(url)
            let report = try await PhotoLibrary.repair(catalogAt: url)
            #expect(report.sources["originals"] == nil, "\(report.sources)")
            let rebuilt = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            let keep = try await rebuilt.assets(inAlbumTitled: "Keep")
            #expect(Set(keep.map(\.id)) == Set(saved.map(\.assetID)))
            #expect(keep.allSatisfy { $0.originalFilename?.hasPrefix("IMG_") == true })
        }
    }

    /// The journal holding saves the catalog lacks: verify asked for a repair, and repair called the
    /// catalog healthy and changed nothing, for ever. Now a deletion the journal lost (the file is
    /// gone) is recorded, and a save the catalog lost (the file is there) rebuilds the catalog.
    @Test func savesOnlyInTheJournalAreResolvedByRepair() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await saveDistinct(3, into: "Keep", at: url)
            let backend = try CatalogBackend.open(at: url)
            let library = PhotoLibrary(backend: backend)
            _ = try await library.deleteAssets(withIDs: [saved[0].assetID])
            // The journal loses the deletion's line.
            let journal = url.appendingPathComponent("journal/saves.jsonl")
            let lines = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n")
            try (lines.filter { !$0.contains("\"deleteAsset\"") }.joined(separator: "\n") + "\n")
                .write(to: journal, atomically: false, encoding: .utf8)
            #expect(try await library.verify().problems.contains { $0.contains("the catalog lacks 1 saved photo") })
            var report = try await PhotoLibrary.repair(catalogAt: url)
            #expect(report.journalRecordsAdded >= 1)
            #expect(try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).verify().isHealthy)
            #expect(try await PhotoLibrary.repair(catalogAt: url).wasHealthy)
            // The catalog loses a save whose file is still there (its row removed behind its back).
            let reopened = try CatalogBackend.open(at: url)
            _ = try reopened.withDatabase("test") { db in
                try db.run("DELETE FROM asset WHERE id = ?", [.text(saved[1].assetID)])
            }
            #expect(
                try await PhotoLibrary(backend: reopened).verify().problems.contains {
                    $0.contains("the catalog lacks 1 saved photo")
                })
            report = try await PhotoLibrary.repair(catalogAt: url)
            #expect(!report.wasHealthy)
            let rebuilt = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(
                Set(try await rebuilt.assets(inAlbumTitled: "Keep").map(\.id)) == [saved[1].assetID, saved[2].assetID])
            #expect(try await rebuilt.verify().isHealthy)
        }
    }

    /// A journal whose album deletion or removal line was damaged still holds the album or the
    /// membership: a catalog lost later was rebuilt with them back. verify names it; repair records
    /// the deletion and the removal again.
    @Test func aJournalHoldingAlbumsTheCatalogDeletedIsMended() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let keep = try await saveDistinct(3, into: "A", at: url)
            _ = try await saveDistinct(1, into: "C", at: url, tag: "c")
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            try await library.removeAssets(withIDs: [keep[0].assetID], fromAlbumWithID: try #require(keep[0].albumID))
            _ = try await library.deleteAlbum(titled: "C", force: true)
            let journal = url.appendingPathComponent("journal/saves.jsonl")
            let damaged = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n").map { line in
                line.contains("\"deleteAlbum\"") || line.contains("\"removeFromAlbum\"")
                    ? String(line.prefix(line.count / 2)) : String(line)
            }
            try (damaged.joined(separator: "\n") + "\n").write(to: journal, atomically: false, encoding: .utf8)
            #expect(try await library.verify().problems.contains { $0.contains("and 2 record(s) of albums") })
            #expect(try await PhotoLibrary.repair(catalogAt: url).journalRecordsAdded == 2)
            #expect(try await library.verify().isHealthy)
            removeCatalog(url)
            _ = try await PhotoLibrary.repair(catalogAt: url)
            let rebuilt = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(try await rebuilt.albums().map(\.title) == ["A"])
            #expect(Set(try await rebuilt.assets(inAlbumTitled: "A").map(\.id)) == [keep[1].assetID, keep[2].assetID])
        }
    }

    @Test func deletedCatalogIsRefusedThenRepaired() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await saveDistinct(3, into: "Keep", at: url)
            let files = originals(url)
            removeCatalog(url)
            expectRefused(url)
            // Read-only commands too: the library is damaged, not missing.
            #expect(throws: AlbumError.self) {
                do { _ = try PhotoLibrary.catalog(at: url, createIfMissing: false) } catch let error as AlbumError {
                    #expect(error.code == .libraryCorrupt)
                    throw error
                }
            }
            #expect(!FileManager.default.fileExists(atPath: url.path + "/catalog.sqlite"))
            #expect(originals(url) == files)
            try await expectRepaired(url, saved, title: "Keep")
            #expect(originals(url) == files)
        }
    }

    @Test func catalogWithoutItsWALIsRefusedThenRepaired() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await saveDistinct(4, into: "Keep", at: url)
            // Connections keep the WAL: the saves are only there. A copy without it lost them.
            let copy = dir.appendingPathComponent("Copy.albumlibrary")
            try FileManager.default.copyItem(at: url, to: copy)
            #expect(FileManager.default.fileExists(atPath: copy.path + "/catalog.sqlite-wal"))
            try FileManager.default.removeItem(atPath: copy.path + "/catalog.sqlite-wal")
            try? FileManager.default.removeItem(atPath: copy.path + "/catalog.sqlite-shm")
            let before = try Data(contentsOf: copy.appendingPathComponent("catalog.sqlite"))
            expectRefused(copy)
            #expect(try Data(contentsOf: copy.appendingPathComponent("catalog.sqlite")) == before)
            try await expectRepaired(copy, saved, title: "Keep")
        }
    }

    @Test func olderCatalogIsRefusedThenRepairedWithLaterRenames() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let early = try await saveDistinct(2, into: "Trip", at: url, tag: "a")
            let backup = dir.appendingPathComponent("backup")
            try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
            for suffix in ["", "-wal"]
            where FileManager.default.fileExists(atPath: url.path + "/catalog.sqlite" + suffix) {
                try FileManager.default.copyItem(
                    atPath: url.path + "/catalog.sqlite" + suffix, toPath: backup.path + "/catalog.sqlite" + suffix)
            }
            let late = try await saveDistinct(2, into: "Trip", at: url, tag: "b")
            try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).renameAlbum(
                titled: "Trip", to: "Trip 2026")
            removeCatalog(url)
            for name in try FileManager.default.contentsOfDirectory(atPath: backup.path) {
                try FileManager.default.copyItem(atPath: backup.path + "/" + name, toPath: url.path + "/" + name)
            }
            expectRefused(url)
            try await expectRepaired(url, early + late, title: "Trip 2026")
        }
    }

    @Test func garbledPagesAreRefusedBeforeAnyWriteThenRepaired() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await saveDistinct(40, into: "Big", at: url)
            let catalog = try Database(path: url.path + "/catalog.sqlite", create: false)
            try catalog.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            // Garble the page headers of every b-tree page but the first.
            var bytes = try Data(contentsOf: url.appendingPathComponent("catalog.sqlite"))
            for page in stride(from: 4096, to: bytes.count, by: 4096) { bytes[page] = 0x42 }
            try bytes.write(to: url.appendingPathComponent("catalog.sqlite"))
            expectRefused(url)
            #expect(try Data(contentsOf: url.appendingPathComponent("catalog.sqlite")) == bytes)
            try await expectRepaired(url, saved, title: "Big")
        }
    }

    @Test func garbledValuesThatPassTheStructureCheckAreFoundByVerifyAndRepaired() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await saveDistinct(3, into: "Keep", at: url)
            // Bytes inside a text value garbled: the b-trees are intact, the value is wrong.
            let backend = try CatalogBackend.open(at: url)
            try backend.withDatabase("test") { db in
                try db.run(
                    "UPDATE asset SET original_name = 'IMG_\u{FFFD}\u{FFFD}.JPG' WHERE id = ?",
                    [.text(saved[0].assetID)])
            }
            let report = try await PhotoLibrary(backend: backend).verify()
            #expect(
                report.problems.contains {
                    $0.contains("differ from the library's journal") && $0.contains("album repair")
                })
            try await expectRepaired(url, saved, title: "Keep")
            let names = try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).assets(inAlbumTitled: "Keep")
                .map(\.originalFilename)
            #expect(!names.contains { $0?.contains("\u{FFFD}") == true })
        }
    }

    @Test func schemaLessCatalogBesidePhotosIsNotStartedOver() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            _ = try await saveDistinct(1, into: "Keep", at: url)
            removeCatalog(url)
            _ = try Database(path: url.path + "/catalog.sqlite", create: true)  // a new, empty database
            let before = try Data(contentsOf: url.appendingPathComponent("catalog.sqlite"))
            expectRefused(url)
            #expect(try Data(contentsOf: url.appendingPathComponent("catalog.sqlite")) == before)
        }
    }

    @Test func anAssetWhosePendingRowVanishedIsNeverAcknowledged() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let backend = try CatalogBackend.open(at: library(dir))
            // Another process's recovery wrongly removes this saver's pending rows mid-save.
            backend.beforeMarkingReady.withLock { hook in
                hook = {
                    try? backend.withDatabase("test") { _ = try $0.run("DELETE FROM asset WHERE state = 'pending'") }
                }
            }
            let results = await PhotoLibrary(backend: backend).album(titled: "A").save([
                .data(Fixture.uniqueJPEG("x"), filename: "x.jpg"), .data(Fixture.uniqueJPEG("y"), filename: "y.jpg"),
            ])
            #expect(results.allSatisfy { $0.error != nil })
            #expect(try backend.withDatabase("test") { try $0.row("SELECT count(*) FROM asset")?.integer(0) } == 0)
            #expect(originals(backend.root).isEmpty)
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
            backend.beforeMarkingReady.withLock { hook in
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
