import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

/// `verify` at its two depths. The standard check reads every file once, in a folder opened once,
/// and checks the index and the journal without replaying the journal: every page of the index
/// against its checksum, every record against its own, and the journal's bytes against the digest
/// the index keeps. The thorough check also replays the journal and compares fact by fact: it
/// alone sees a change to the index made through SQLite with valid page checksums.
@Suite struct CatalogVerifyDepthTests {
    func library(_ dir: URL) -> URL { dir.appendingPathComponent("Depth.albumlibrary") }

    /// Saves `count` distinct photos into "Trip" (one batch) and returns the library.
    func saved(_ count: Int, in dir: URL) async throws -> (PhotoLibrary, CatalogBackend) {
        let backend = try CatalogBackend.open(at: library(dir))
        let library = PhotoLibrary(backend: backend)
        let items = (0..<count).map { Media.data(Fixture.uniqueJPEG("depth \($0)"), filename: "IMG_\($0).JPG") }
        for result in await library.album(titled: "Trip").save(items) { _ = try result.get() }
        await Blocking.acknowledgedWorkFinished()
        return (library, backend)
    }

    /// CRC-32 (the journal's record checksum), as eight lowercase hex digits.
    static func crc32Hex(_ bytes: some Sequence<UInt8>) -> String {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return String(format: "%08x", ~crc)
    }

    /// A path read from a record names a file under `originals/` only as the split by `/` says.
    @Test func aPathUnderOriginalsIsTakenApartAsItsNamesSay() {
        let cases: [(String, Int?)] = [
            ("originals/3f/a.jpg", 12), ("originals/a.jpg", 9), ("originals/3f/sub/a.jpg", 16),
            ("originals/3f/..jpg", 12), ("originals/3f/.a", 12), ("originals/é/ü.jpg", 12),
            ("originals/", nil), ("originals", nil), ("originals/3f/", nil), ("originals//a.jpg", nil),
            ("originals/../a.jpg", nil), ("originals/3f/..", nil), ("originals/./a.jpg", nil),
            ("/originals/3f/a.jpg", nil), ("Originals/3f/a.jpg", nil), ("other/3f/a.jpg", nil), ("", nil),
        ]
        for (path, expected) in cases {
            #expect(CatalogBackend.lastSlashOfAFileUnderOriginals(path) == expected, "\(path)")
        }
    }

    @Test func theStandardCheckReadsEachFileOnceInFoldersOpenedOnce() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, backend) = try await saved(40, in: dir)
            let originals = self.library(dir).appendingPathComponent("originals").path
            let folders = try FileManager.default.contentsOfDirectory(atPath: originals).filter { !$0.hasPrefix(".") }
            let paths = try backend.withIndex("test") { try $0.index!.db.rows("SELECT path FROM asset") }
            #expect(paths.count == 40)
            let opens = FaultInjector.count(.open, under: originals)
            let reads = FaultInjector.count(.read, under: originals)
            defer {
                FaultInjector.remove(opens)
                FaultInjector.remove(reads)
            }
            let report = try await library.verify()
            #expect(report.isHealthy, "\(report.problems)")
            // `originals/` and each of its folders are listed three times (stray files, leftovers,
            // folders that cannot be listed): an open and a read each.
            let listings = 3 * (folders.count + 1)
            // One read a file (the read that did not fill the buffer met the end), where two were.
            #expect(FaultInjector.calls(reads) <= 40 + listings, "\(FaultInjector.calls(reads))")
            // A file's open and each folder's once, where each file's folder was opened for it.
            #expect(FaultInjector.calls(opens) <= 40 + folders.count + listings, "\(FaultInjector.calls(opens))")
        }
    }

    /// A record rewritten in place with a valid checksum (the title of "Trip"): each record
    /// reads, but the journal is no longer the one the index was built from. Both depths say so.
    @Test func aRecordRewrittenWithAValidChecksumIsFound() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            _ = try await saved(3, in: dir)
            let path = library(dir).appendingPathComponent("journal/library.journal").path
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            let index = try #require(lines.firstIndex { String(decoding: $0, as: UTF8.self).contains("\"Trip\"") })
            #expect(index < lines.count - 2)
            let line = String(decoding: lines[index], as: UTF8.self)
            let json = String(line.dropFirst(9)).replacingOccurrences(of: "\"Trip\"", with: "\"Tryp\"")
            let forged = Array((Self.crc32Hex(Array(json.utf8)) + " " + json).utf8)
            #expect(forged.count == lines[index].count)
            let start = lines[..<index].reduce(0) { $0 + $1.count + 1 }
            bytes.replaceSubrange(start..<(start + forged.count), with: forged)
            await Blocking.acknowledgedWorkFinished()
            // In place: the same file, the same length, its last line as it was.
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: Data(bytes))
            try handle.close()

            let backend = try CatalogBackend.open(at: library(dir))
            let standard = try await PhotoLibrary(backend: backend).verify(.standard)
            #expect(
                standard.problems.contains { $0.contains("is not the one the catalog was built from") },
                "\(standard.problems)")
            let thorough = try await PhotoLibrary(backend: backend).verify(.thorough)
            #expect(
                thorough.problems.contains { $0.contains("the catalog disagrees with the library's journal") },
                "\(thorough.problems)")
        }
    }

    /// A membership taken out of the index through its own connection (valid page checksums):
    /// the standard check, which compares no album, finds nothing; the thorough one does.
    @Test func onlyTheThoroughCheckComparesAlbumsWithTheJournal() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let (library, backend) = try await saved(3, in: dir)
            try backend.withIndex("test") { connection in
                try connection.index!.db.execute(
                    "DELETE FROM album_asset WHERE asset_id = (SELECT asset_id FROM album_asset LIMIT 1)")
            }
            let standard = try await library.verify()
            #expect(standard.isHealthy, "\(standard.problems)")
            let thorough = try await library.verify(.thorough)
            #expect(
                thorough.problems.contains { $0.contains("the catalog disagrees with the library's journal") },
                "\(thorough.problems)")
        }
    }

    /// Bytes of a page of the index changed on disk (an index's page, which no command before the
    /// check reads): the standard check reads every page and names the damage.
    @Test func aDamagedPageOfTheIndexIsFoundByTheStandardCheck() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            _ = try CatalogBackend.open(at: url)
            try LibraryJournal(libraryRoot: url.path).append((0..<300).map { CatalogListingTests.save($0, added: 1e9) })
            let backend = try CatalogBackend.open(at: url)
            let (root, pageSize) = try backend.withIndex("test") { connection in
                let db = connection.index!.db
                return (
                    try #require(
                        try db.row("SELECT rootpage FROM sqlite_schema WHERE name = 'asset_by_name'")?.integer(0)),
                    try #require(try db.row("PRAGMA page_size")?.integer(0))
                )
            }
            // What the opening left to do in the background (on a busy machine it could still be
            // writing the index) is done before the index is damaged.
            await Blocking.acknowledgedWorkFinished()
            let handle = try #require(FileHandle(forUpdatingAtPath: url.path + "/catalog.sqlite"))
            try handle.seek(toOffset: UInt64((root - 1) * pageSize + 200))
            try handle.write(contentsOf: Data(repeating: 0x5A, count: 16))
            try handle.close()

            let checking = try CatalogBackend.open(at: url)
            let report = try await PhotoLibrary(backend: checking).verify()
            #expect(
                report.problems.contains { $0.hasPrefix("the catalog is damaged") },
                "\(report.problems.filter { !$0.contains("missing file") }) \(checking.takeNotices())")
        }
    }
}
