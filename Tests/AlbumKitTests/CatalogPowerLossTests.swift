import Foundation
import Testing

@testable import AlbumKitCore

/// A save's catalog commit (transaction B) is not flushed by itself: the flushed journal record is
/// its commit point. These tests recreate, on real files, what the disk holds after a power loss
/// at that instant — the library as it was just before B, plus (or not) the flushed journal — and
/// open it as the next boot would.
@Suite struct CatalogPowerLossTests {
    /// What the disk held when the power went: the library copied just before transaction B (the
    /// rows pending, the files' data and names flushed), with the journal as flushed after it when
    /// `journalFlushed`. The copy's owner file is not locked by anyone: its saver is dead.
    struct PowerLoss {
        let url: URL
        let saved: [SavedAsset]
    }

    func losePower(
        saving media: [Media], into title: String, of url: URL, at lost: URL, journalFlushed: Bool
    ) async throws -> PowerLoss {
        let saved = try await PowerLossDisk.save(media, into: title, of: url, losingPowerAt: lost)
        if journalFlushed { try PowerLossDisk.writeJournal(try PowerLossDisk.journal(url), to: lost) }
        try PowerLossDisk.handToGoneOwner(lost)
        return PowerLoss(url: lost, saved: saved)
    }

    func photos(_ tags: [String]) -> [Media] { tags.map(PowerLossDisk.photo) }

    func pendingRows(_ url: URL) throws -> Int64? { try PowerLossDisk.pendingRows(url) }

    @Test func aSaveWhoseCatalogCommitWasLostIsFinishedFromItsFlushedJournal() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Home.albumlibrary")
            let lost = dir.appendingPathComponent("Lost.albumlibrary")
            // The batch creates its album: the album is rebuilt under the id the save reported.
            let loss = try await losePower(
                saving: photos(["a", "b", "c"]), into: "Trip", of: url, at: lost, journalFlushed: true)
            #expect(try pendingRows(lost) == 3)  // what the disk held: B never reached it

            let library = PhotoLibrary(backend: try CatalogBackend.open(at: lost))
            let albums = try await library.albums()
            #expect(albums.map(\.title) == ["Trip"])
            #expect(albums.first?.id == loss.saved.first?.albumID)
            let assets = try await library.assets(inAlbumTitled: "Trip")
            #expect(assets.map(\.id) == loss.saved.map(\.assetID))  // in the order saved
            #expect(assets.map(\.originalFilename) == ["IMG_a.JPG", "IMG_b.JPG", "IMG_c.JPG"])
            #expect(try pendingRows(lost) == 0)
            #expect(try await library.verify().isHealthy)

            // The album is remembered: the next save goes into it, and the library stays healthy.
            let next = try await library.album(titled: "Trip").save(photos(["d"])[0])
            #expect(next.albumID == loss.saved.first?.albumID)
            #expect(try await library.assets(inAlbumTitled: "Trip").count == 4)
            #expect(try await library.verify().isHealthy)
        }
    }

    @Test func aLostCommitOfBytesAlreadySavedAddsTheExistingAssetAndDropsTheCopy() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Home.albumlibrary")
            let lost = dir.appendingPathComponent("Lost.albumlibrary")
            let bytes = Fixture.uniqueJPEG("same")
            let first = try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).album(titled: "A")
                .save(.data(bytes, filename: "first.jpg"))
            let loss = try await losePower(
                saving: [.data(bytes, filename: "copy.jpg")], into: "B", of: url, at: lost, journalFlushed: true)
            #expect(loss.saved.first?.isExisting == true)
            #expect(Fixture.files(under: lost.appendingPathComponent("originals")).count == 2)  // the copy's file

            let library = PhotoLibrary(backend: try CatalogBackend.open(at: lost))
            #expect(try await library.assets(inAlbumTitled: "A").map(\.id) == [first.assetID])
            #expect(try await library.assets(inAlbumTitled: "B").map(\.id) == [first.assetID])
            #expect(Fixture.files(under: lost.appendingPathComponent("originals")).count == 1)
            #expect(try pendingRows(lost) == 0)
            #expect(try await library.verify().isHealthy)
        }
    }

    @Test func aLostCommitThatRestoredADamagedFileIsFinishedWithTheNewCopy() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Home.albumlibrary")
            let lost = dir.appendingPathComponent("Lost.albumlibrary")
            let bytes = Fixture.uniqueJPEG("restored")
            let home = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            let first = try await home.album(titled: "A").save(.data(bytes, filename: "first.jpg"))
            let damaged = try #require(try await home.assets(inAlbumTitled: "A").first?.fileURL)
            try FileHandle(forWritingTo: damaged).truncate(atOffset: 10)
            let loss = try await losePower(
                saving: [.data(bytes, filename: "again.jpg")], into: "B", of: url, at: lost, journalFlushed: true)
            #expect(loss.saved.first?.assetID == first.assetID)

            let library = PhotoLibrary(backend: try CatalogBackend.open(at: lost))
            let asset = try #require(try await library.assets(inAlbumTitled: "B").first)
            #expect(asset.id == first.assetID)
            #expect(try Data(contentsOf: try #require(asset.fileURL)) == bytes)  // the copy, not removed
            #expect(try pendingRows(lost) == 0)
            #expect(try await library.verify().isHealthy)
        }
    }

    @Test func aSaveLostBeforeItsJournalWasFlushedLeavesNothing() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Home.albumlibrary")
            let lost = dir.appendingPathComponent("Lost.albumlibrary")
            _ = try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).album(titled: "Old")
                .save(photos(["old"])[0])
            _ = try await losePower(saving: photos(["x", "y"]), into: "New", of: url, at: lost, journalFlushed: false)
            #expect(Fixture.files(under: lost.appendingPathComponent("originals")).count == 3)

            // Never acknowledged: its rows and files go, nothing else does.
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: lost))
            #expect(try await library.albums().map(\.title) == ["Old"])
            #expect(try await library.assets(inAlbumTitled: "Old").count == 1)
            #expect(Fixture.files(under: lost.appendingPathComponent("originals")).count == 1)
            #expect(try pendingRows(lost) == 0)
            #expect(try await library.verify().isHealthy)
        }
    }

    @Test func aFinishedSaveWhoseFileIsGoneIsRefusedNotInvented() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Home.albumlibrary")
            let lost = dir.appendingPathComponent("Lost.albumlibrary")
            _ = try await losePower(
                saving: photos(["kept", "gone"]), into: "Trip", of: url, at: lost, journalFlushed: true)
            // One of the two files is gone: the other is finished, and the library still refused.
            let file = try #require(Fixture.files(under: lost.appendingPathComponent("originals")).first)
            try FileManager.default.removeItem(atPath: lost.path + "/originals/" + file)
            // The journal records a save the catalog cannot finish: damage, for `album repair`.
            #expect(throws: AlbumError.self) {
                do { _ = try CatalogBackend.open(at: lost) } catch let error as AlbumError {
                    #expect(error.code == .libraryCorrupt)
                    #expect(error.message.contains("album repair"))
                    throw error
                }
            }
            // And again on the next try: nothing was removed meanwhile; repair restores the other.
            #expect(throws: AlbumError.self) { _ = try CatalogBackend.open(at: lost) }
            let report = try await PhotoLibrary.repair(catalogAt: lost)
            #expect(report.notRestored.count == 1)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: lost))
            #expect(try await library.assets(inAlbumTitled: "Trip").count == 1)
        }
    }

    /// A deletion journals `deleteAsset`, then marks the rows pending: killed there, right after
    /// the save whose records are still the journal's tail, its assets stay deleted.
    @Test func aDeletionInterruptedAfterASaveIsNotUndone() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Home.albumlibrary")
            let saved = try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).album(titled: "Trip")
                .save(photos(["p", "q"])).map { try $0.get() }
            // What `album delete-asset` leaves when killed after step 1 (a process that is gone).
            let gone = PowerLossDisk.goneOwner
            try SaveJournal(libraryRoot: url.path).append(
                saved.map { SaveJournal.Record(op: .deleteAsset, asset: $0.assetID, at: 1) })
            let db = try Database(path: url.path + "/catalog.sqlite")
            try db.run("DELETE FROM album_asset")
            try db.run("UPDATE asset SET state = 'pending', owner = ?", [.text(gone)])
            FileManager.default.createFile(atPath: url.path + "/owners/" + gone, contents: nil)

            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(try await library.assets(inAlbumTitled: "Trip").isEmpty)
            #expect(Fixture.files(under: url.appendingPathComponent("originals")).isEmpty)
            #expect(try pendingRows(url) == 0)
            #expect(try await library.verify().isHealthy)
        }
    }
}
