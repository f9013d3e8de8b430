import Foundation
import Testing

@testable import AlbumKitCore

/// The roll-forward after a power loss, in the harder cases: two processes saving the same bytes
/// at once and journaling in the other order than they committed, a deletion after a lost commit,
/// a commit whose journal records were cut short, copies within a batch, journals written before
/// records named their pending rows. (See CatalogPowerLossTests for the emulation: the library
/// copied just before transaction B, its owners made dead.)
@Suite struct CatalogPowerLossRaceTests {
    /// Two processes save the same new bytes at once: P2 ("B") commits its B first (its own asset
    /// Y), then P1 ("A") commits B (a copy of Y: its row X goes, its record is save(Y, pending X)).
    /// Power is lost before any flush of the catalog: both A's are durable, neither B.
    /// Returns the lost copy's journal pieces: before, P2's batch (J2), P1's batch (J1).
    struct Race {
        let lost: URL
        let first: SavedAsset  // P1's acknowledged save into "A"
        let second: SavedAsset  // P2's acknowledged save into "B"
        let before: Data
        let j2: Data
        let j1: Data
    }

    static func race(_ dir: URL, distinct: Bool = false) async throws -> Race {
        let url = dir.appendingPathComponent("Home.albumlibrary")
        let lost = dir.appendingPathComponent("Lost.albumlibrary")
        _ = try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).album(titled: "Old").save(
            PowerLossDisk.photo("old"))
        let bytes = Fixture.uniqueJPEG("same")
        let p1 = try CatalogBackend.open(at: url)
        let p2 = try CatalogBackend.open(at: url)
        let lengths = Locked<[Int]>([])
        let second = Locked<SavedAsset?>(nil)
        p2.beforeMarkingReady.withLock { $0 = { PowerLossDisk.copyLibrary(url, to: lost) } }
        p1.beforeMarkingReady.withLock { hook in
            hook = {
                lengths.withLock { $0.append((try? PowerLossDisk.journal(url).count) ?? 0) }
                let done = DispatchSemaphore(value: 0)
                Task {
                    let saved = try? await PhotoLibrary(backend: p2).album(titled: distinct ? "A" : "B")
                        .save(.data(distinct ? Fixture.uniqueJPEG("other") : bytes, filename: "second.jpg"))
                    second.withLock { $0 = saved }
                    done.signal()
                }
                done.wait()
                lengths.withLock { $0.append((try? PowerLossDisk.journal(url).count) ?? 0) }
            }
        }
        let first = try await PhotoLibrary(backend: p1).album(titled: "A").save(.data(bytes, filename: "first.jpg"))
        let all = try PowerLossDisk.journal(url)
        let (l0, l1) = lengths.withLock { ($0[0], $0[1]) }
        try PowerLossDisk.handToGoneOwner(lost)
        return Race(
            lost: lost, first: first, second: try #require(second.withLock { $0 }),
            before: all.prefix(l0), j2: all.subdata(in: l0..<l1), j1: all.subdata(in: l1..<all.count))
    }

    /// J1 (P1's copy record) reached the journal before J2 (P2's own record): P1 was acknowledged
    /// with "asset Y, in album A", and album A exists with Y after the reboot.
    @Test func aCopyJournaledBeforeTheSaveItBecameIsFinished() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let race = try await Self.race(dir)
            #expect(race.first.isExisting)
            #expect(race.first.assetID == race.second.assetID)
            #expect(try PowerLossDisk.pendingRows(race.lost) == 2)
            // P2 committed B first but P1 appended its journal first (both flushed, both acknowledged).
            try PowerLossDisk.writeJournal(race.before + race.j1 + race.j2, to: race.lost)

            let library = PhotoLibrary(backend: try CatalogBackend.open(at: race.lost))
            #expect(try await library.albums().map(\.title).sorted() == ["A", "B", "Old"])
            #expect(try await library.assets(inAlbumTitled: "A").map(\.id) == [race.first.assetID])
            #expect(try await library.assets(inAlbumTitled: "B").map(\.id) == [race.second.assetID])
            #expect(try PowerLossDisk.pendingRows(race.lost) == 0)
            #expect(try await library.verify().isHealthy)
        }
    }

    /// P2 had not flushed its journal yet (never acknowledged), P1's copy record was flushed
    /// (acknowledged). The asset Y that P1 was told it got is a dead pending row with its file
    /// durable: it is finished, and the library opens.
    @Test func aCopyWhoseSaveWasNeverJournaledStillGetsItsAsset() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let race = try await Self.race(dir)
            try PowerLossDisk.writeJournal(race.before + race.j1, to: race.lost)

            let backend = try CatalogBackend.open(at: race.lost)
            let library = PhotoLibrary(backend: backend)
            #expect(try await library.assets(inAlbumTitled: "A").map(\.id) == [race.first.assetID])
            #expect(try await library.albums().map(\.title).sorted() == ["A", "Old"])
            #expect(Fixture.files(under: race.lost.appendingPathComponent("originals")).count == 2)
            #expect(try await library.verify().isHealthy)
        }
    }

    /// The journal in the order the commits were made (J2 then J1).
    @Test func twoSavesOfTheSameBytesJournaledInCommitOrder() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let race = try await Self.race(dir)
            try PowerLossDisk.writeJournal(race.before + race.j2 + race.j1, to: race.lost)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: race.lost))
            #expect(try await library.assets(inAlbumTitled: "A").map(\.id) == [race.first.assetID])
            #expect(try await library.assets(inAlbumTitled: "B").map(\.id) == [race.second.assetID])
            #expect(Fixture.files(under: race.lost.appendingPathComponent("originals")).count == 2)
            #expect(try await library.verify().isHealthy)
        }
    }

    /// A save creates album "Trip" (acknowledged, B lost); the user deletes the photo: `deleteAsset`
    /// is journaled (flushed), the power goes before the deletion's first commit. The deletion is
    /// finished, and the acknowledged album stays, empty, under the id the save reported.
    @Test func anAcknowledgedAlbumSurvivesTheDeletionOfItsOnlyPhoto() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Home.albumlibrary")
            let lost = dir.appendingPathComponent("Lost.albumlibrary")
            let saved = try await PowerLossDisk.save(
                [PowerLossDisk.photo("t")], into: "Trip", of: url, losingPowerAt: lost)[0]
            try SaveJournal(libraryRoot: url.path).append([
                SaveJournal.Record(op: .deleteAsset, asset: saved.assetID, at: 2)
            ])
            try PowerLossDisk.writeJournal(try PowerLossDisk.journal(url), to: lost)
            try PowerLossDisk.handToGoneOwner(lost)

            let library = PhotoLibrary(backend: try CatalogBackend.open(at: lost))
            #expect(try await library.albums().map(\.title) == ["Trip"], "acknowledged album lost")
            #expect(try await library.albums().first?.id == saved.albumID)
            #expect(try await library.verify().isHealthy)
        }
    }

    /// Within one batch the same bytes twice; B's pre-commit unlink of the copy reached the disk
    /// (a later directory flush), B did not. Expected to hold (unlink tolerates ENOENT).
    @Test func inBatchCopyWhoseUnlinkReachedTheDisk() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Home.albumlibrary")
            let lost = dir.appendingPathComponent("Lost.albumlibrary")
            let bytes = Fixture.uniqueJPEG("dup")
            let saved = try await PowerLossDisk.save(
                [.data(bytes, filename: "1.jpg"), .data(bytes, filename: "2.jpg"), PowerLossDisk.photo("other")],
                into: "Trip", of: url, losingPowerAt: lost)
            #expect(saved[0].assetID == saved[1].assetID)
            try PowerLossDisk.writeJournal(try PowerLossDisk.journal(url), to: lost)
            try PowerLossDisk.handToGoneOwner(lost)
            // The copy's name is gone from the lost disk too (as on the live library).
            let live = Set(Fixture.files(under: url.appendingPathComponent("originals")))
            for file in Fixture.files(under: lost.appendingPathComponent("originals")) where !live.contains(file) {
                try FileManager.default.removeItem(atPath: lost.path + "/originals/" + file)
            }
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: lost))
            #expect(try await library.assets(inAlbumTitled: "Trip").map(\.id) == [saved[0].assetID, saved[2].assetID])
            #expect(try PowerLossDisk.pendingRows(lost) == 0)
            #expect(try await library.verify().isHealthy)
        }
    }

    /// One file of a lost batch gone (refused, for repair) with a copy in the batch: `album repair`
    /// adopts no second asset with the same bytes.
    @Test func repairAfterARefusedRollForwardAdoptsNoCopy() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Home.albumlibrary")
            let lost = dir.appendingPathComponent("Lost.albumlibrary")
            let bytes = Fixture.uniqueJPEG("dup")
            let saved = try await PowerLossDisk.save(
                [.data(bytes, filename: "1.jpg"), .data(bytes, filename: "2.jpg"), PowerLossDisk.photo("gone")],
                into: "Trip", of: url, losingPowerAt: lost)
            try PowerLossDisk.writeJournal(try PowerLossDisk.journal(url), to: lost)
            try PowerLossDisk.handToGoneOwner(lost)
            // The third file is lost (a bad sector): the open is refused, as designed.
            let goneFile = try #require(
                Fixture.files(under: lost.appendingPathComponent("originals")).first {
                    $0.contains(saved[2].assetID)
                })
            try FileManager.default.removeItem(atPath: lost.path + "/originals/" + goneFile)
            #expect(throws: AlbumError.self) { _ = try CatalogBackend.open(at: lost) }
            _ = try await PhotoLibrary.repair(catalogAt: lost)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: lost))
            let all = try await library.assets(limit: 100).assets
            #expect(all.count == 1, "assets after repair: \(all.map { ($0.id, $0.originalFilename ?? "-") })")
            #expect(Fixture.files(under: lost.appendingPathComponent("originals")).count == 1)
        }
    }

    /// A journal append cut short (the save never acknowledged): none of the batch is finished, not
    /// the lines that were written whole.
    @Test func aCommitWhoseRecordsWereCutShortIsNotFinishedInPart() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Home.albumlibrary")
            let lost = dir.appendingPathComponent("Lost.albumlibrary")
            _ = try await PowerLossDisk.save(
                ["1", "2", "3"].map(PowerLossDisk.photo), into: "Trip", of: url, losingPowerAt: lost)
            let all = try PowerLossDisk.journal(url)
            // Cut in the middle of the last record.
            try PowerLossDisk.writeJournal(all.prefix(all.count - 40), to: lost)
            try PowerLossDisk.handToGoneOwner(lost)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: lost))
            #expect(try await library.albums().isEmpty, "the album of a commit never acknowledged appears")
            #expect(try await library.assets(limit: 10).assets.isEmpty)
            // Nor does a rebuild from the journal look for it or bring its album back.
            try FileManager.default.removeItem(at: lost.appendingPathComponent("catalog.sqlite"))
            for suffix in ["-wal", "-shm", "-checked"] {
                try? FileManager.default.removeItem(atPath: lost.path + "/catalog.sqlite" + suffix)
            }
            let report = try await PhotoLibrary.repair(catalogAt: lost)
            #expect(report.notRestored.isEmpty, "\(report.notRestored)")
            let rebuilt = PhotoLibrary(backend: try CatalogBackend.open(at: lost))
            #expect(try await rebuilt.albums().isEmpty)
            #expect(Fixture.files(under: lost.appendingPathComponent("originals")).isEmpty)
            #expect(try await library.verify().isHealthy)
        }
    }

    /// A journal written before `pending` existed: dead pending rows are removed, nothing invented.
    @Test func oldJournalWithoutPendingField() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Home.albumlibrary")
            let lost = dir.appendingPathComponent("Lost.albumlibrary")
            _ = try await PowerLossDisk.save(
                [PowerLossDisk.photo("x")], into: "Trip", of: url, losingPowerAt: lost)
            let old = String(decoding: try PowerLossDisk.journal(url), as: UTF8.self)
                .replacingOccurrences(of: #","pending":"[0-9a-f-]+""#, with: "", options: .regularExpression)
            try PowerLossDisk.writeJournal(Data(old.utf8), to: lost)
            try PowerLossDisk.handToGoneOwner(lost)
            // An old journal cannot finish the save: refused (for repair), never invented.
            #expect(throws: AlbumError.self) { _ = try CatalogBackend.open(at: lost) }
        }
    }
}
