import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore
@testable import AlbumKitFolders

/// `storedSHA256(ofAssetWithID:)`, what `album import --move` checks before removing a source:
/// the library's copy read back now, so a copy damaged since the save does not match.
@Suite struct StoredCopyTests {
    static func check(_ library: PhotoLibrary, damaging file: (SavedAsset) async throws -> URL) async throws {
        let bytes = Fixture.uniqueJPEG("stored")
        let saved = try await library.album(titled: "Trips").save(.data(bytes, filename: "a.jpg"))
        let expected = bytes.withUnsafeBytes { SHA256Hasher.hash($0) }
        #expect(try await library.storedSHA256(ofAssetWithID: saved.assetID) == expected)
        // Damaged on disk after the save: read back, it no longer matches.
        let url = try await file(saved)
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: 100)
        handle.write(Data([0x00, 0x01, 0x02]))
        try handle.close()
        #expect(try await library.storedSHA256(ofAssetWithID: saved.assetID) != expected)
        await #expect(throws: AlbumError.self) { _ = try await library.storedSHA256(ofAssetWithID: "no-such-asset") }
    }

    @Test func catalogReadsItsCopyBack() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let library = try PhotoLibrary.catalog(at: dir.appendingPathComponent("Test.albumlibrary"))
            try await Self.check(library) { saved in
                let assets = try await library.assets(inAlbumTitled: "Trips")
                return try #require(assets.first { $0.id == saved.assetID }?.fileURL)
            }
        }
    }

    @Test func folderLibraryReadsItsCopyBack() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try PhotoLibrary.folders(at: root)
            try await Self.check(library) { _ in root.appendingPathComponent("Trips/a.jpg") }
        }
    }

    @Test func aLibraryThatCannotReadBackSaysSo() async throws {
        let library = PhotoLibrary.inMemory()
        let saved = try await library.save(.data(Fixture.uniqueJPEG("memory"), filename: "a.jpg"))
        #expect(try await library.storedSHA256(ofAssetWithID: saved.assetID) == nil)
    }

    /// The calls `--move` makes on a source go through the platform layer, where faults reach them.
    @Test func sourceRemovalAndWritabilityCanBeMadeToFail() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let file = Fixture.write(Fixture.jpegBytes, named: "IMG_0001.JPG", in: dir)
            FaultInjector.inject(.access, under: dir.path, errno: EROFS)
            #expect(throws: SystemError.self) { try FileSystem.checkWritable(FileSystemPath(dir.path)) }
            FaultInjector.inject(.unlink, under: dir.path, errno: EROFS)
            #expect(throws: SystemError.self) { try FileSystem.unlink(FileSystemPath(file.path)) }
            #expect(FileManager.default.fileExists(atPath: file.path))
            FaultInjector.removeAll(under: dir.path)
            try FileSystem.checkWritable(FileSystemPath(dir.path))
            try FileSystem.unlink(FileSystemPath(file.path))
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
    }
}
