import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitFolders

/// A folder inside a catalog library (`P.albumlibrary/originals`) is never opened as a folder
/// library: its files are the catalog's.
@Suite("Folder library: a folder inside a catalog library is refused")
struct FolderInsideCatalogTests {
    @Test func aFolderInsideACatalogIsNotAFolderLibrary() async throws {
        try await FolderFixture.withRoot { _, parent in
            // Given a catalog library with a photo, and a copy of it under another name
            let catalogURL = parent.appendingPathComponent("P.albumlibrary")
            let catalog = try PhotoLibrary.catalog(at: catalogURL)
            _ = try await catalog.album(titled: "T").save(.data(Fixture.tinyJPEG("c"), filename: "c.jpg"))
            // The index's commit ends before the folder is copied: a rollback journal cut short while
            // Foundation copies it makes that copy loop forever.
            await Blocking.acknowledgedWorkFinished()
            // A copy under another name, and one that lost its catalog file (journal and originals left)
            let renamed = parent.appendingPathComponent("Renamed")
            try FileManager.default.copyItem(at: catalogURL, to: renamed)
            let lost = parent.appendingPathComponent("Lost")
            try FileManager.default.copyItem(at: catalogURL, to: lost)
            for name in try FileManager.default.contentsOfDirectory(atPath: lost.path)
            where name.hasPrefix("catalog.sqlite") {
                try FileManager.default.removeItem(at: lost.appendingPathComponent(name))
            }
            let link = parent.appendingPathComponent("link")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: catalogURL)
            let shards = FolderFixture.visible(in: catalogURL.appendingPathComponent("originals"))
            let shard = try #require(shards.first)
            // When folders below them are opened as folder libraries, they are refused, naming the catalog
            for inside in [
                "P.albumlibrary/originals", "P.albumlibrary/originals/\(shard)", "P.albumlibrary/journal",
                "P.albumlibrary/missing", "Renamed/originals", "Lost/originals", "link/originals", "P.albumlibrary",
            ] {
                let url = parent.appendingPathComponent(inside)
                do {
                    _ = try PhotoLibrary.folders(at: url)
                    Issue.record("\(inside) was opened as a folder library")
                } catch let error as AlbumError {
                    #expect(error.code == .libraryCorrupt)
                    #expect(error.message.contains(url.path))
                    #expect(error.message.contains("catalog"))
                }
            }
            // Then nothing was made or moved inside the catalog
            #expect(!FileManager.default.fileExists(atPath: catalogURL.appendingPathComponent("missing").path))
            #expect(
                !FileManager.default.fileExists(atPath: catalogURL.appendingPathComponent("originals/.albumkit").path))
            #expect(FolderFixture.visible(in: catalogURL.appendingPathComponent("originals")) == shards)
            // A folder next to the catalog is still a folder library
            #expect(throws: Never.self) { try PhotoLibrary.folders(at: parent.appendingPathComponent("Pictures")) }
            // And so is one below a folder that only looks like a catalog: another application's
            // catalog.sqlite, a name ending in .albumlibrary (before, each was refused)
            let other = parent.appendingPathComponent("Lightroom/Photos")
            try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
            try Data("SQLite format 3\u{0}".utf8 + [UInt8](repeating: 0, count: 100)).write(
                to: parent.appendingPathComponent("Lightroom/catalog.sqlite"))
            let named = parent.appendingPathComponent("Old.albumlibrary/Pictures")
            try FileManager.default.createDirectory(at: named, withIntermediateDirectories: true)
            for folder in [other, named] {
                #expect(throws: Never.self) { try PhotoLibrary.folders(at: folder) }
            }
        }
    }
}
