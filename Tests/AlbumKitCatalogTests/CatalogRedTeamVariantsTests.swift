import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

#if canImport(Glibc)
    import Glibc
#endif

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
            #expect(
                FileManager.default.fileExists(atPath: url.path + "/damaged", isDirectory: &isFolder)
                    && isFolder.boolValue)
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

    /// A library handed over by another user (`sudo album …` on it, a root cron job): root opening
    /// it with its index damaged used to rebuild the index, make shard folders and save photos
    /// there as root-only `0600` files, and the owner's every command then failed ("Cannot open the
    /// catalog …; does the library folder exist?"). Root only reads it; a save is refused, and
    /// nothing in the library changes.
    @Test(.enabled(if: getuid() == 0, "only root can give the library to another user and open it"))
    func rootNeverWritesIntoAnotherUsersLibrary() async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let url = dir.appendingPathComponent("Theirs.albumlibrary")
            _ = try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).album(titled: "Trips").save(
                .data(Fixture.uniqueJPEG("theirs"), filename: "IMG_1.JPG"))
            await Blocking.acknowledgedWorkFinished()
            Fixture.write(Data(repeating: 0x5A, count: 5000), named: "catalog.sqlite", in: url)
            let entries = FileManager.default.enumerator(atPath: url.path)?.allObjects as? [String] ?? []
            for path in [url.path] + entries.map({ url.path + "/" + $0 }) { #expect(lchown(path, 65534, 65534) == 0) }
            await #expect {
                try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).album(titled: "Trips").save(
                    .data(Fixture.uniqueJPEG("root's"), filename: "IMG_2.JPG"))
            } throws: { error in
                (error as? AlbumError)?.code == .accessDenied
                    && (error as? AlbumError)?.message.contains("belongs to the user with id 65534") == true
            }
            // Reading works (an index built in memory); a change is refused as for read-only media.
            let reader = PhotoLibrary(backend: try CatalogBackend.open(at: url, create: false))
            #expect(try await reader.albums().map(\.title) == ["Trips"])
            await #expect(throws: AlbumError.self) { try await reader.createAlbum(titled: "Root's") }
            let after = FileManager.default.enumerator(atPath: url.path)?.allObjects as? [String] ?? []
            #expect(after.sorted() == entries.sorted())
            for path in [url.path] + after.map({ url.path + "/" + $0 }) {
                var info = stat()
                #expect(lstat(path, &info) == 0 && info.st_uid == 65534, "\(path)")
            }
        }
    }

    /// A forged `setCompanions` giving the owner's first photo the second photo's own file as a
    /// sidecar, then one giving it none: opening the library keeps the second photo's file (before:
    /// it was removed as a companion let go, and the photo existed nowhere). Likewise a forged
    /// save naming that file, deleted and purged.
    @Test func aForgedCompanionNamingAnotherPhotosFileNeverRemovesIt() async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let url = dir.appendingPathComponent("Pair.albumlibrary")
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            let bytes = Fixture.uniqueJPEG("second")
            let first = try await library.album(titled: "Trips").save(
                .data(Fixture.uniqueJPEG("first"), filename: "A.JPG"))
            let second = try await library.album(titled: "Trips").save(.data(bytes, filename: "B.JPG"))
            await Blocking.acknowledgedWorkFinished()
            let files = try FileManager.default.subpathsOfDirectory(atPath: url.path + "/originals")
            let path = try #require(files.first { $0.contains(second.assetID) }.map { "originals/" + $0 })
            let sha256 = bytes.withUnsafeBytes { SHA256Hasher.hash($0) }
            let sidecar = CatalogCompanion(
                role: "sidecar", name: "A.xmp", path: path, size: Int64(bytes.count), sha256: sha256)
            let id = RandomID.make()
            try LibraryJournal(libraryRoot: url.path).append([
                .setCompanions(asset: first.assetID, companions: [sidecar]),
                .setCompanions(asset: first.assetID, companions: []),
                .save(
                    .init(
                        id: id, path: path, originalName: "B.JPG", byteSize: Int64(bytes.count), sha256: sha256,
                        kind: "photo", format: "jpeg", addedAt: 1_700_000_000, metadata: nil, companions: [])),
                .deleteAssets([id], at: 1_700_000_001), .purgeAssets([id]),
            ])
            let reopened = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            _ = try await reopened.albums()
            _ = try await reopened.emptyRecentlyDeleted(deletedBefore: .distantFuture)
            await Blocking.acknowledgedWorkFinished()
            #expect((try? Data(contentsOf: url.appendingPathComponent(path))) == bytes)
            #expect(try await reopened.verify().problems.filter { $0.contains(second.assetID) }.isEmpty)
        }
    }
}
