import Foundation
import Testing

@testable import AlbumKitCore

/// A folder inside a catalog library (`P.albumlibrary/originals`) is never opened as a folder
/// library: its files are the catalog's.
@Suite("Folder library: a folder inside a catalog library is refused")
struct FolderInsideCatalogTests {
    @Test func aFolderInsideACatalogIsNotAFolderLibrary() async throws {
        try await FolderFixture.withRoot { _, parent in
            // Given a catalog library with a photo, and a copy of it under another name
            let catalogURL = parent.appendingPathComponent("P.albumlibrary")
            let catalog = try PhotoLibrary.catalog(at: catalogURL)
            _ = try await catalog.album(titled: "T").save(.data(FolderFixture.jpeg("c"), filename: "c.jpg"))
            let renamed = parent.appendingPathComponent("Renamed")
            try FileManager.default.createDirectory(at: renamed, withIntermediateDirectories: true)
            try Data().write(to: renamed.appendingPathComponent("catalog.sqlite"))
            try FileManager.default.createDirectory(
                at: renamed.appendingPathComponent("originals"), withIntermediateDirectories: true)
            let link = parent.appendingPathComponent("link")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: catalogURL)
            let shards = FolderFixture.visible(in: catalogURL.appendingPathComponent("originals"))
            let shard = try #require(shards.first)
            // When folders below them are opened as folder libraries, they are refused, naming the catalog
            for inside in [
                "P.albumlibrary/originals", "P.albumlibrary/originals/\(shard)", "P.albumlibrary/journal",
                "P.albumlibrary/missing", "Renamed/originals", "link/originals", "P.albumlibrary",
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
        }
    }
}
