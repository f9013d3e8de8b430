import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

@testable import AlbumKitCore

/// An album is never exported into its own library (a folder library's folders are albums, a
/// catalog's folders are its own).
@Suite("Export: never into the library itself")
struct ExportIntoLibraryTests {
    @Test func exportingIntoTheLibraryIsRefused() async throws {
        try await FolderFixture.withRoot { root, parent in
            let library = try FolderFixture.library(root)
            // Given an album of two photos and a symlink outside the library that points into it
            for tag in ["a", "b"] {
                _ = try await library.album(titled: "Trips").save(
                    .data(Fixture.tinyJPEG(tag), filename: "\(tag).jpg"))
            }
            _ = try await library.album(titled: "Other").save(.data(Fixture.tinyJPEG("o"), filename: "o.jpg"))
            try FileManager.default.createSymbolicLink(
                at: parent.appendingPathComponent("into"), withDestinationURL: root.appendingPathComponent("Other"))
            // When it is exported into its own folder, another album's, a new folder, the root,
            // through `..` or through the symlink, every export is refused, naming the folder
            for destination in [
                root.appendingPathComponent("Trips"), root.appendingPathComponent("Other"),
                root.appendingPathComponent("New/Sub"), root, URL(fileURLWithPath: root.path + "/Other/../Trips"),
                parent.appendingPathComponent("into/x"),
            ] {
                do {
                    _ = try await library.exportAlbum(titled: "Trips", to: destination)
                    Issue.record("exported into \(destination.path)")
                } catch let error as AlbumError {
                    #expect(error.code == .invalidArgument)
                    #expect(error.message.contains(destination.path))
                }
            }
            // Then the library is unchanged, no folder was made
            #expect(FolderFixture.visible(in: root) == ["Other", "Trips"])
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Trips")) == ["a.jpg", "b.jpg"])
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Other")) == ["o.jpg"])
            #expect(try await library.albums().map(\.count).reduce(0, +) == 3)
            // A folder outside the library still works
            let report = try await library.exportAlbum(titled: "Trips", to: parent.appendingPathComponent("out"))
            #expect(report.exported.count == 2)
        }
    }

    @Test func exportingIntoACatalogsOwnFolderIsRefused() async throws {
        try await FolderFixture.withRoot { _, parent in
            let catalogURL = parent.appendingPathComponent("P.albumlibrary")
            let catalog = try PhotoLibrary.catalog(at: catalogURL)
            _ = try await catalog.album(titled: "T").save(.data(Fixture.tinyJPEG("c"), filename: "c.jpg"))
            for destination in [catalogURL, catalogURL.appendingPathComponent("originals")] {
                let code = await Fixture.errorCode {
                    try await catalog.exportAlbum(titled: "T", to: destination)
                }
                #expect(code == .invalidArgument)
            }
            #expect(try await catalog.verify().isHealthy)
        }
    }
}

extension ExportIntoLibraryTests {
    /// The check compared resolved paths only: through a bind mount of the library, the export
    /// went into the library again and doubled the album.
    @Test(.enabled(if: getuid() == 0, "a bind mount needs root (CI runs as root)"))
    func exportingIntoTheLibraryThroughABindMountIsRefused() async throws {
        try await FolderFixture.withRoot { root, parent in
            let library = try FolderFixture.library(root)
            _ = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("a"), filename: "a.jpg"))
            let bound = parent.appendingPathComponent("bound")
            try FileManager.default.createDirectory(at: bound, withIntermediateDirectories: true)
            try #require(FolderFixture.run("/bin/mount", "--bind", root.path, bound.path) == 0)
            defer { _ = FolderFixture.run("/bin/umount", bound.path) }
            for destination in [bound.appendingPathComponent("Trips"), bound.appendingPathComponent("New")] {
                do {
                    _ = try await library.exportAlbum(titled: "Trips", to: destination)
                    Issue.record("exported into \(destination.path)")
                } catch let error as AlbumError {
                    #expect(error.code == .invalidArgument)
                }
            }
            #expect(FolderFixture.visible(in: root) == ["Trips"])
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Trips")) == ["a.jpg"])
        }
    }

}
