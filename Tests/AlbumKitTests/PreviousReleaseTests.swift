import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

/// A library written by the previous release (its catalog held the truth, in WAL mode; its journal
/// a copy) opens with every album, asset, membership, rename and deletion intact, converted once.
@Suite struct PreviousReleaseTests {
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
            #expect(try CatalogBackend.open(at: url).takeNotices().isEmpty)
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
}
