import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

/// A library written by the previous release (its catalog held the truth, in WAL mode; its journal
/// a copy) opens with every album, asset, membership, rename and deletion intact, converted once.
@Suite(.onThreadsOfTheirOwn) struct PreviousReleaseTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("PreviousRelease/Photos.albumlibrary")

    /// A copy of the fixture library in `dir`.
    func copy(into dir: URL) throws -> URL {
        let url = dir.appendingPathComponent("Photos.albumlibrary")
        try FileManager.default.copyItem(at: Self.fixture, to: url)
        return url
    }

    func names(_ assets: [AssetInfo]) -> [String?] { assets.map(\.originalFilename) }

    @Test func aLibraryOfThePreviousReleaseOpensIntact() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = try copy(into: dir)
            let backend = try CatalogBackend.open(at: url)
            let notices = backend.takeNotices()
            #expect(notices.contains { $0.contains("converted to this release's format") }, "\(notices)")
            let library = PhotoLibrary(backend: backend)
            let albums = try await library.albums()
            #expect(albums.map(\.title) == ["Trips 2026", "Home", "Empty"])
            #expect(albums.map(\.count) == [2, 1, 0])
            #expect(names(try await library.assets(inAlbumTitled: "Trips 2026")) == ["IMG_0001.jpg", "IMG_0002.jpg"])
            #expect(names(try await library.assets(inAlbumTitled: "Home")) == ["IMG_0004.jpg"])
            let all = try await library.assets().assets
            #expect(Set(names(all)) == ["IMG_0001.jpg", "IMG_0002.jpg", "IMG_0004.jpg", "IMG_0005.jpg"])
            #expect(all.allSatisfy { $0.metadata?.format == .jpeg && $0.metadata?.width == 40 })
            #expect(try await library.verify().isHealthy)
            // The remembered album comes through: its title leads to the same album; the title
            // the rename freed makes a new one.
            let trips = try #require(albums.first?.id)
            let again = try await library.album(titled: "Trips 2026").save(
                .data(Fixture.uniqueJPEG("n"), filename: "n.jpg"))
            #expect(again.albumID == trips && again.albumOutcome == .found)
            #expect(
                try await library.album(titled: "Trips").save(.data(Fixture.uniqueJPEG("o"), filename: "o.jpg"))
                    .albumOutcome == .created)
            // The previous files are kept; a second opening converts nothing again.
            for name in ["catalog.sqlite", "catalog.sqlite-wal", "saves.jsonl"] {
                #expect(FileManager.default.fileExists(atPath: url.path + "/previous-release/" + name), "\(name)")
            }
            let reopenedNotices = try CatalogBackend.open(at: url).takeNotices()
            #expect(reopenedNotices.isEmpty, "\(reopenedNotices)")
        }
    }

    /// With the old catalog gone (its files and the journal of the previous release remain), the old
    /// journal is replayed: the same albums and assets.
    @Test func aLibraryOfThePreviousReleaseWithoutItsCatalogIsReplayedFromItsJournal() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = try copy(into: dir)
            for suffix in ["", "-wal", "-checked"] {
                try FileManager.default.removeItem(atPath: url.path + "/catalog.sqlite" + suffix)
            }
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(try await library.albums().map(\.title) == ["Trips 2026", "Home", "Empty"])
            #expect(names(try await library.assets(inAlbumTitled: "Trips 2026")) == ["IMG_0001.jpg", "IMG_0002.jpg"])
            #expect(names(try await library.assets(inAlbumTitled: "Home")) == ["IMG_0004.jpg"])
            #expect(try await library.assets().assets.count == 4)
            #expect(try await library.verify().isHealthy)
        }
    }

    /// A conversion killed midway (its hidden journal written, not renamed into place) leaves the
    /// library as it was; the next opening converts it.
    @Test func aConversionCutShortIsRedone() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = try copy(into: dir)
            Fixture.write(
                Data("albumkit-journal 2 half\n1234".utf8), named: ".p1-0000000000000001.x.journal",
                in: url.appendingPathComponent("journal"))
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(try await library.albums().map(\.count) == [2, 1, 0])
        }
    }

    /// A conversion killed after its journal was written and before the previous release's files
    /// were moved aside: the next opening moves them, byte for byte, before any index is built
    /// (the `convert` reliability scenario once found the old catalog rebuilt in place instead).
    @Test func aConversionKilledBeforeMovingTheOldFilesAsideIsFinished() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = try copy(into: dir)
            let oldCatalog = try Data(contentsOf: url.appendingPathComponent("catalog.sqlite"))
            let oldJournal = try Data(contentsOf: url.appendingPathComponent("journal/saves.jsonl"))
            _ = try CatalogBackend.open(at: url)
            // Back where they were, and no index of this release: as the kill left them.
            let manager = FileManager.default
            let aside = url.appendingPathComponent("previous-release")
            for name in try manager.contentsOfDirectory(atPath: url.path) where name.hasPrefix("catalog.sqlite") {
                try manager.removeItem(at: url.appendingPathComponent(name))
            }
            for name in try manager.contentsOfDirectory(atPath: aside.path) where name.hasPrefix("catalog.sqlite") {
                try manager.moveItem(at: aside.appendingPathComponent(name), to: url.appendingPathComponent(name))
            }
            try manager.moveItem(
                at: aside.appendingPathComponent("saves.jsonl"), to: url.appendingPathComponent("journal/saves.jsonl"))
            let backend = try CatalogBackend.open(at: url)
            #expect(backend.takeNotices().contains { $0.contains("conversion") })
            #expect(try Data(contentsOf: aside.appendingPathComponent("catalog.sqlite")) == oldCatalog)
            #expect(try Data(contentsOf: aside.appendingPathComponent("saves.jsonl")) == oldJournal)
            #expect(!manager.fileExists(atPath: url.path + "/journal/saves.jsonl"))
            let library = PhotoLibrary(backend: backend)
            #expect(try await library.albums().map(\.count) == [2, 1, 0])
            #expect(try await library.verify().isHealthy)
            let reopenedNotices = try CatalogBackend.open(at: url).takeNotices()
            #expect(reopenedNotices.isEmpty, "\(reopenedNotices)")
        }
    }

    /// The old catalog damaged past reading (its header intact) and no old journal: the library's
    /// photos are not left unnamed (an empty library) but adopted into "Recovered" at the first
    /// opening, the old catalog kept; an opening killed before it was done adopts them next time.
    @Test(arguments: [false, true])
    func anUnreadableOldCatalogWithoutAJournalHasItsPhotosRecovered(killedBeforeAdopting: Bool) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = try copy(into: dir)
            let catalog = url.appendingPathComponent("catalog.sqlite")
            // The previous release's pages into the file itself (the sqlite3 shell, as a user would).
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: try ExternalTool.require("sqlite3"))
            shell.arguments = [catalog.path, "PRAGMA wal_checkpoint(TRUNCATE);"]
            try shell.run()
            shell.waitUntilExit()
            #expect(shell.terminationStatus == 0)
            for name in ["catalog.sqlite-wal", "catalog.sqlite-checked", "journal/saves.jsonl"]
            where FileManager.default.fileExists(atPath: url.path + "/" + name) {
                try FileManager.default.removeItem(atPath: url.path + "/" + name)
            }
            var bytes = try Data(contentsOf: catalog)
            // Page 1 (the header and schema) stays; every other page is garbage.
            for offset in 4096..<bytes.count { bytes[offset] = UInt8(truncatingIfNeeded: offset &* 7919 >> 3) }
            try bytes.write(to: catalog)
            if killedBeforeAdopting {
                // As an opening killed between writing the new journal and adopting the files
                // leaves the library: the marker, an empty journal, the old catalog set aside.
                _ = Fixture.write(Data(), named: CatalogMigration.adoptsOriginalsMarker, in: url)
                try LibraryJournal.create(atLibraryRoot: url.path)
                let aside = url.appendingPathComponent("previous-release")
                try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
                try FileManager.default.moveItem(at: catalog, to: aside.appendingPathComponent("catalog.sqlite"))
            }
            let backend = try CatalogBackend.open(at: url)
            let library = PhotoLibrary(backend: backend)
            let albums = try await library.albums()
            #expect(albums.map(\.title) == ["Recovered"])
            #expect(albums.first?.count == 4)
            #expect(try await library.assets().assets.allSatisfy { $0.metadata?.format == .jpeg })
            #expect(try await library.verify().isHealthy)
            #expect(FileManager.default.fileExists(atPath: url.path + "/previous-release/catalog.sqlite"))
            #expect(!FileManager.default.fileExists(atPath: url.path + "/" + CatalogMigration.adoptsOriginalsMarker))
            if !killedBeforeAdopting {
                #expect(backend.takeNotices().contains { $0.contains("could not be read") })
            }
            // Nothing is adopted twice.
            #expect(try await PhotoLibrary(backend: CatalogBackend.open(at: url)).albums().map(\.count) == [4])
        }
    }
}
