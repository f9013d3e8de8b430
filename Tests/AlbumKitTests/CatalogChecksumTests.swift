import Foundation
import Testing

@testable import AlbumKitCore

/// Every page of the catalog carries a checksum: a page garbled on disk is refused on every read,
/// before anything is listed or written, even where SQLite's structure checks see nothing wrong.
@Suite struct CatalogChecksumTests {
    func library(_ dir: URL) -> URL { dir.appendingPathComponent("Sums.albumlibrary") }
    func catalogPath(_ url: URL) -> String { url.path + "/catalog.sqlite" }

    func saveDistinct(_ count: Int, into title: String, at url: URL, tag: String = "") async throws -> [SavedAsset] {
        let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
        let media = (0..<count).map { Media.data(Fixture.uniqueJPEG("\(tag)\($0)"), filename: "IMG_\(tag)\($0).JPG") }
        return try await library.album(titled: title).save(media).map { try $0.get() }
    }

    /// Moves everything into the catalog file itself and drops the WAL.
    func checkpoint(_ url: URL) throws {
        let catalog = try Database(path: catalogPath(url), create: false)
        try catalog.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Byte 20 of the header: the bytes reserved at the end of each page.
    func reservedBytes(_ url: URL) throws -> UInt8 {
        try Data(contentsOf: URL(fileURLWithPath: catalogPath(url)))[20]
    }

    /// Overwrites 16 bytes at `shift` from the asset row's original name `name` in the catalog
    /// file: inside the name itself (0), or inside the path stored just before it (-20).
    func garble(name: String, shift: Int = 0, in url: URL) throws -> Data {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: catalogPath(url)))
        let range = try #require(bytes.range(of: Data(name.utf8)))
        let start = range.lowerBound + shift
        for offset in 0..<16 { bytes[start + offset] ^= UInt8(0x5A &+ offset) }
        try bytes.write(to: URL(fileURLWithPath: catalogPath(url)))
        return bytes
    }

    /// Marks the catalog's current state as checked, as if `quick_check` had passed on it: only the
    /// page checksums stand between the damage and what is listed.
    func skipOpeningCheck(_ url: URL) throws {
        let identity = try #require(CatalogIntegrity.fileIdentity(catalogPath(url)))
        try Data(identity.utf8).write(to: URL(fileURLWithPath: catalogPath(url) + "-checked"))
        #expect(CatalogIntegrity.fileIdentity(catalogPath(url)) == identity)
    }

    func expectCorrupt(sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("expected libraryCorrupt", sourceLocation: sourceLocation)
        } catch let error as AlbumError {
            #expect(error.code == .libraryCorrupt, "\(error)", sourceLocation: sourceLocation)
            #expect(error.message.contains("album repair"), sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    /// Opening, listing and saving are all refused, and the file stays as it is.
    func expectEveryUseRefused(_ url: URL, file bytes: Data) async throws {
        await expectCorrupt { _ = try CatalogBackend.open(at: url) }
        try skipOpeningCheck(url)
        await expectCorrupt {
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            _ = try await library.albums()
            _ = try await library.assets(inAlbumTitled: "Trip")
        }
        await expectCorrupt { _ = try await saveDistinct(1, into: "Trip", at: url, tag: "late") }
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalogPath(url))) == bytes)
    }

    /// The WAL is checkpointed every `walFrameLimit` frames, so the WAL every new process reads back
    /// stays small, and a checkpoint this process made keeps the catalog marked as checked (no full
    /// `quick_check` at the next open).
    @Test func theWALStaysSmallAndOwnCheckpointsStayChecked() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            _ = try await saveDistinct(1, into: "Trip", at: url, tag: "first")
            let first = try #require(CatalogIntegrity.fileIdentity(catalogPath(url)))
            // One save per open, about 13 WAL frames each: the limit is passed several times.
            for index in 0..<60 { _ = try await saveDistinct(1, into: "Trip", at: url, tag: "w\(index)") }
            let walBytes = try #require(
                try FileManager.default.attributesOfItem(atPath: catalogPath(url) + "-wal")[.size] as? NSNumber)
            let frameBytes = 24 + 4096
            #expect(walBytes.intValue <= 32 + (CatalogIntegrity.walFrameLimit + 64) * frameBytes)
            let now = try #require(CatalogIntegrity.fileIdentity(catalogPath(url)))
            #expect(now != first, "no checkpoint reached the catalog file")
            #expect(try String(contentsOfFile: catalogPath(url) + "-checked", encoding: .utf8) == now)
            let saved = try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).assets(inAlbumTitled: "Trip")
            #expect(saved.count == 61)
        }
    }

    @Test func aNewCatalogsPagesCarryChecksums() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            _ = try await saveDistinct(3, into: "Trip", at: url)
            try checkpoint(url)
            #expect(try reservedBytes(url) == 8)
            let catalog = try Database(path: catalogPath(url), create: false)
            #expect(catalog.reservedBytesPerPage == 8)
            #expect(try catalog.rows("PRAGMA integrity_check").compactMap { $0.text(0) } == ["ok"])
        }
    }

    @Test(arguments: ["path", "name"])
    func oneOverwriteInsideAValueIsRefusedThenRepaired(_ value: String) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await saveDistinct(40, into: "Trip", at: url)
            try checkpoint(url)
            // The asset's path (`originals/xx/ID.jpg`, just before its name in the row) or its name.
            let bytes = try garble(name: "IMG_17.JPG", shift: value == "path" ? -20 : 0, in: url)
            // SQLite's own structure check sees nothing: the damage is inside a value.
            let unverified = try Database(path: catalogPath(url), mode: .readOnly, verifyingPages: false)
            #expect(try unverified.rows("PRAGMA quick_check").compactMap { $0.text(0) } == ["ok"])
            try await expectEveryUseRefused(url, file: bytes)

            let report = try await PhotoLibrary.repair(catalogAt: url)
            #expect(!report.wasHealthy)
            #expect(report.notRestored.isEmpty, "\(report.notRestored)")
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            let assets = try await library.assets(inAlbumTitled: "Trip")
            #expect(Set(assets.map(\.id)) == Set(saved.map(\.assetID)))
            #expect(Set(assets.compactMap(\.originalFilename)) == Set((0..<40).map { "IMG_\($0).JPG" }))
            #expect(try await library.verify().isHealthy)
        }
    }

    @Test func twentyRandomOverwritesAreRefusedThenRepaired() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await saveDistinct(60, into: "Trip", at: url)
            try checkpoint(url)
            var bytes = try Data(contentsOf: URL(fileURLWithPath: catalogPath(url)))
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<20 {
                let start = Int.random(in: 0..<(bytes.count - 16), using: &generator)
                for offset in 0..<16 { bytes[start + offset] = UInt8.random(in: 0...255, using: &generator) }
            }
            try bytes.write(to: URL(fileURLWithPath: catalogPath(url)))
            try await expectEveryUseRefused(url, file: bytes)
            let report = try await PhotoLibrary.repair(catalogAt: url)
            #expect(report.notRestored.isEmpty, "\(report.notRestored)")
            let assets = try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).assets(inAlbumTitled: "Trip")
            #expect(Set(assets.map(\.id)) == Set(saved.map(\.assetID)))
        }
    }

    @Test func aCatalogWithoutChecksumsGetsThemWhenOpened() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await saveDistinct(5, into: "Trip", at: url)
            // The same catalog as AlbumKit wrote it before page checksums: no reserved bytes.
            try checkpoint(url)
            let oldPath = dir.path + "/old.sqlite"
            do {
                let old = try Database(path: oldPath, create: true)
                try old.execute("PRAGMA journal_mode = WAL")
                for migration in CatalogSchema.migrations { try old.execute(migration) }
                try old.execute(
                    "PRAGMA application_id = \(CatalogSchema.applicationID); "
                        + "PRAGMA user_version = \(CatalogSchema.migrations.count)")
                try old.execute("ATTACH '\(catalogPath(url))' AS current")
                for table in ["asset", "album", "album_asset", "remembered_album", "library_state"] {
                    try old.execute("INSERT INTO main.\(table) SELECT * FROM current.\(table)")
                }
                try old.execute("DETACH current; PRAGMA wal_checkpoint(TRUNCATE)")
            }
            for suffix in ["-wal", "-shm", "-checked"] {
                try? FileManager.default.removeItem(atPath: catalogPath(url) + suffix)
            }
            try FileSystem.rename(oldPath, to: catalogPath(url))
            #expect(try reservedBytes(url) == 0)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(Set(try await library.assets(inAlbumTitled: "Trip").map(\.id)) == Set(saved.map(\.assetID)))
            let later = try await saveDistinct(2, into: "Trip", at: url, tag: "b")
            try checkpoint(url)
            #expect(try reservedBytes(url) == 8)
            #expect(try await library.verify().isHealthy)
            let all = try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).assets(inAlbumTitled: "Trip")
            #expect(Set(all.map(\.id)) == Set((saved + later).map(\.assetID)))
            let bytes = try garble(name: "IMG_3.JPG", in: url)
            try await expectEveryUseRefused(url, file: bytes)
        }
    }
}
