import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

/// Variants of the hostile-library attacks that the first round did not list, tried as an outside
/// attacker or an unlucky user would: each test here failed before its fix.
@Suite struct CatalogRedTeamVariantsTests {
    /// A library with one photo, a folder `outside` beside it, and `damaged` inside the library
    /// made `how`: a link to `outside`, or a plain file.
    func scene(_ dir: URL, damaged how: String) async throws -> (library: URL, outside: URL) {
        let url = dir.appendingPathComponent("Aside.albumlibrary")
        let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
        _ = try await library.album(titled: "Trips").save(.data(Fixture.uniqueJPEG("aside"), filename: "IMG_1.JPG"))
        await Blocking.acknowledgedWorkFinished()
        let outside = dir.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let damaged = url.appendingPathComponent("damaged")
        if how == "link" {
            try FileManager.default.createSymbolicLink(atPath: damaged.path, withDestinationPath: outside.path)
        } else {
            Fixture.write(Data("not a folder".utf8), named: "damaged", in: url)
        }
        return (url, outside)
    }

    /// `damaged/` a link out of the library (or a file), then the index damaged: setting the index
    /// aside neither makes a folder outside nor moves the library's index there (before: the
    /// index, with every name and place, went to `outside/DATE/catalog.sqlite`); the link (or
    /// file) is renamed beside it, untouched, and the command works.
    @Test(arguments: ["link", "file"])
    func settingAsideNeverFollowsALinkedDamagedFolder(damaged how: String) async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let (url, outside) = try await scene(dir, damaged: how)
            Fixture.write(Data(repeating: 0x5A, count: 5000), named: "catalog.sqlite", in: url)
            let albums = try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).albums()
            #expect(albums.map(\.title) == ["Trips"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
            var isFolder: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: url.path + "/damaged", isDirectory: &isFolder) && isFolder.boolValue)
            let asideNames = try FileManager.default.contentsOfDirectory(atPath: url.path).filter {
                $0.hasPrefix("damaged.") && $0.hasSuffix(".not-a-folder")
            }
            #expect(asideNames.count == 1)
        }
    }

    /// A torn journal tail is kept under `damaged/` before it is cut off: never written through a
    /// `damaged` that is a link out of the library (before: `outside/DATE/journal-tail-at-N`).
    @Test func aTornJournalTailIsNeverWrittenThroughALinkedDamagedFolder() async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let (url, outside) = try await scene(dir, damaged: "link")
            let journal = try FileHandle(forWritingTo: url.appendingPathComponent("journal/library.journal"))
            try journal.seekToEnd()
            try journal.write(contentsOf: Data("a torn record".utf8))
            try journal.close()
            _ = try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).album(titled: "Trips").save(
                .data(Fixture.uniqueJPEG("after"), filename: "IMG_2.JPG"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
            let kept = try FileManager.default.subpathsOfDirectory(atPath: url.path + "/damaged")
            #expect(kept.contains { $0.hasSuffix("journal-tail-at-") || $0.contains("journal-tail-at-") })
        }
    }
}
