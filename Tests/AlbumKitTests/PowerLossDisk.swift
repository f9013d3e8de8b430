import Foundation
import Testing

@testable import AlbumKitCore

/// What the disk holds after a power loss while a catalog save commits, recreated on real files:
/// the library copied at the instant before transaction B (its rows pending, its files' data and
/// names flushed), then given its journal as flushed afterwards, or not; its saver made a process
/// that is gone. Opening the copy is what the next boot does.
enum PowerLossDisk {
    static let goneOwner = "p999999-00000000000000ff"
    static let journalPath = "journal/saves.jsonl"

    /// Saves `media` into `title` of the library at `url`, copying the library to `lost` just
    /// before transaction B; returns what the save acknowledged. The copy has no journal records of
    /// this save (see ``writeJournal(_:to:)``) and its owner is still this process
    /// (see ``handToGoneOwner(_:)``).
    static func save(_ media: [Media], into title: String, of url: URL, losingPowerAt lost: URL) async throws
        -> [SavedAsset]
    {
        let backend = try CatalogBackend.open(at: url)
        backend.beforeMarkingReady.withLock { $0 = { copyLibrary(url, to: lost) } }
        let saved = try await PhotoLibrary(backend: backend).album(titled: title).save(media).map { try $0.get() }
        #expect(FileManager.default.fileExists(atPath: lost.path))
        return saved
    }

    /// Copies `url` to `lost` as the disk holds it after a reboot (the shared-memory index is gone).
    static func copyLibrary(_ url: URL, to lost: URL) {
        try? FileManager.default.copyItem(at: url, to: lost)
        try? FileManager.default.removeItem(atPath: lost.path + "/catalog.sqlite-shm")
    }

    /// The saver was this test process, which is alive: its pending rows and owner file go to an
    /// owner that is gone.
    static func handToGoneOwner(_ lost: URL) throws {
        let db = try Database(path: lost.path + "/catalog.sqlite")
        try db.run("UPDATE asset SET owner = ? WHERE owner = ?", [.text(goneOwner), .text(ProcessOwner.token)])
        let mine = lost.path + "/owners/" + ProcessOwner.token
        if FileManager.default.fileExists(atPath: mine) {
            try FileManager.default.moveItem(atPath: mine, toPath: lost.path + "/owners/" + goneOwner)
        }
    }

    static func journal(_ url: URL) throws -> Data {
        try Data(contentsOf: url.appendingPathComponent(journalPath))
    }

    static func writeJournal(_ data: Data, to lost: URL) throws {
        try FileManager.default.createDirectory(
            at: lost.appendingPathComponent("journal"), withIntermediateDirectories: true)
        try data.write(to: lost.appendingPathComponent(journalPath))
    }

    static func pendingRows(_ url: URL) throws -> Int64? {
        let db = try Database(path: url.path + "/catalog.sqlite")
        return try db.row("SELECT count(*) FROM asset WHERE state = 'pending'")?.integer(0)
    }

    static func photo(_ tag: String) -> Media { .data(Fixture.uniqueJPEG(tag), filename: "IMG_\(tag).JPG") }
}
