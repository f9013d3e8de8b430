import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitFolders

@Suite("Folder library: albums")
struct FolderAlbumManagementTests {
    @Test func albumsAndAssetsAreListed() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given two albums, one with a photo and a sidecar the user's editor wrote
            let library = try FolderFixture.library(root)
            let saved = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            try await Task.sleep(for: .milliseconds(20))
            _ = try await library.album(titled: "Trips").save(.data(Fixture.tinyPNG(), filename: "b.png"))
            _ = try await library.createAlbum(titled: "Empty")
            try FolderFixture.write(Data("<xmp/>".utf8), named: "a.jpg.xmp", in: root.appendingPathComponent("Trips"))

            // When listing
            let albums = try await library.albums()
            let assets = try await library.assets(inAlbumTitled: "Trips")

            // Then titles, counts, order and asset details are right (the sidecar is not an asset)
            #expect(albums.map(\.title) == ["Trips", "Empty"])
            #expect(albums.map(\.count) == [2, 0])
            #expect(assets.map(\.originalFilename) == ["a.jpg", "b.png"])
            #expect(assets.map(\.id) == [saved.assetID, saved.albumID! + "/b.png"])
            #expect(assets.map(\.kind) == [.photo, .photo])
            #expect(assets[0].byteSize == Int64(Fixture.tinyJPEG().count))
            #expect(assets[1].metadata?.format == .png)
            #expect(assets[0].fileURL?.path == root.appendingPathComponent("Trips/a.jpg").path)
        }
    }

    @Test func createAlbumIsFindOrCreate() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            // When creating twice
            let first = try await library.createAlbum(titled: "Trips")
            let second = try await library.createAlbum(titled: "trips ".uppercased().lowercased().capitalized)
            // Then one folder, one id
            #expect(first.id == second.id)
            #expect(FolderFixture.visible(in: root) == ["Trips"])
        }
    }

    @Test func renameMovesTheFolderAndKeepsTheID() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            let saved = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            // When renaming to a title with a literal slash (written \/)
            try await library.renameAlbum(titled: "Trips", to: #"Trips\/2026"#)
            // Then the folder is renamed, the id and asset id survive, and the title leads to it
            #expect(FolderFixture.visible(in: root) == ["Trips\u{2215}2026"])
            let albums = try await library.albums()
            #expect(albums.map(\.title) == [#"Trips\/2026"#] && albums[0].id == saved.albumID)
            #expect(try await library.assets(inAlbumTitled: #"Trips\/2026"#).map(\.id) == [saved.assetID])
            let next = try await library.album(titled: #"Trips\/2026"#).save(
                .data(Fixture.tinyPNG(), filename: "b.png"))
            #expect(next.albumOutcome == .found && next.albumID == saved.albumID)
        }
    }

    @Test func renameToANestedTitleMovesTheFolderAndItsSidecars() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            let saved = try await library.album(titled: "Trips").save(
                .data(Fixture.tinyJPEG(), filename: "IMG_1.JPG"))
            let trips = root.appendingPathComponent("Trips")
            try FolderFixture.write(Data("<xmp/>".utf8), named: "IMG_1.JPG.xmp", in: trips)
            try FolderFixture.write(Data("<xmp/>".utf8), named: "IMG_1.xmp", in: trips)
            // When renaming "Trips" to "Archive/2026/Trips"
            try await library.renameAlbum(titled: "Trips", to: "Archive/2026/Trips")
            // Then the parents are made, the folder moved with its photo and both sidecars
            let moved = root.appendingPathComponent("Archive/2026/Trips")
            #expect(FolderFixture.visible(in: moved) == ["IMG_1.JPG", "IMG_1.JPG.xmp", "IMG_1.xmp"])
            #expect(FolderFixture.visible(in: root) == ["Archive"])
            let albums = try await library.albums()
            #expect(albums.map(\.title) == ["Archive/2026/Trips"] && albums[0].id == saved.albumID)
        }
    }

    @Test func renameOfAnUnmarkedFolderKeepsItsListedID() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given a folder the user made, with a photo in it
            try FolderFixture.write(Fixture.tinyJPEG(), named: "a.jpg", in: root.appendingPathComponent("Old"))
            let library = try FolderFixture.library(root)
            let id = try await library.albums()[0].id
            // When renaming it
            try await library.renameAlbum(titled: "Old", to: "New")
            // Then the id it was listed with stays
            #expect(try await library.albums().map(\.id) == [id])
            #expect(FolderFixture.visible(in: root) == ["New"])
        }
    }

    @Test func renameOntoAnExistingFolderIsRefused() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            _ = try await library.createAlbum(titled: "A")
            _ = try await library.createAlbum(titled: "B")
            // When renaming A to B
            let code = await Fixture.errorCode { try await library.renameAlbum(titled: "A", to: "B") }
            // Then it is refused and nothing moved
            #expect(code == .invalidAlbumTitle)
            #expect(FolderFixture.visible(in: root) == ["A", "B"])
            #expect(Set(try await library.albums().map(\.title)) == ["A", "B"])
        }
    }

    @Test func deleteOfANonEmptyAlbumNeedsForce() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            _ = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            // When deleting without force
            let code = await Fixture.errorCode { try await library.deleteAlbum(titled: "Trips") }
            // Then it is refused and the files are intact
            #expect(code == .albumNotEmpty)
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Trips")) == ["a.jpg"])
            // When deleting with force
            try await library.deleteAlbum(titled: "Trips", force: true)
            // Then the folder and its files are gone, leaving nothing in staging
            #expect(FolderFixture.visible(in: root).isEmpty)
            #expect(FolderFixture.all(in: root.appendingPathComponent(".albumkit/staging")).isEmpty)
            #expect(try await library.albums().isEmpty)
        }
    }

    @Test func deleteOfAnEmptyAlbumNeedsNoForce() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            _ = try await library.createAlbum(titled: "Empty")
            try await library.deleteAlbum(titled: "Empty")
            #expect(FolderFixture.visible(in: root).isEmpty)
            // And saving to the title later makes a new album
            let saved = try await library.album(titled: "Empty").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            #expect(saved.albumOutcome == .created)
        }
    }

    @Test func forcedDeleteNeverFollowsSymlinks() async throws {
        try await FolderFixture.withRoot { root, parent in
            // Given an album holding a symlink to a folder outside the library
            let library = try FolderFixture.library(root)
            _ = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            let outside = parent.appendingPathComponent("Precious")
            try FolderFixture.write(Fixture.tinyJPEG("keep"), named: "keep.jpg", in: outside)
            try FileManager.default.createSymbolicLink(
                at: root.appendingPathComponent("Trips/link"), withDestinationURL: outside)
            // When force-deleting the album
            try await library.deleteAlbum(titled: "Trips", force: true)
            // Then the outside folder is untouched
            #expect(FolderFixture.visible(in: outside) == ["keep.jpg"])
            #expect(FolderFixture.visible(in: root).isEmpty)
        }
    }

    @Test func verifyReportsDamagedFilesAndPartialLeftovers() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            _ = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            #expect(try await library.verify().isHealthy)
            #expect(try await library.verify().checkedAssets == 1)
            // Given a text file named .jpg, an empty .png, a hidden partial file and a sidecar
            let folder = root.appendingPathComponent("Trips")
            try FolderFixture.write(Data("not a photo".utf8), named: "fake.jpg", in: folder)
            try FolderFixture.write(Data(), named: "empty.png", in: folder)
            try FolderFixture.write(Data([0xFF]), named: ".b.jpg.partial", in: folder)
            try FolderFixture.write(Data("<xmp/>".utf8), named: "a.jpg.xmp", in: folder)
            // When verifying
            let report = try await library.verify()
            // Then the three problems are reported, the sidecar is not
            #expect(report.checkedAssets == 3)
            #expect(report.problems.count == 3)
            #expect(report.problems.contains { $0.contains("fake.jpg") })
            #expect(report.problems.contains { $0.contains("empty.png") })
            #expect(report.problems.contains { $0.contains(".b.jpg.partial") })
        }
    }

    @Test func verifyOfAMissingRootFails() async throws {
        try await FolderFixture.withRoot { _, parent in
            let library = try PhotoLibrary.folders(at: parent.appendingPathComponent("nope"))
            #expect(await Fixture.errorCode { try await library.verify() } == .libraryNotFound)
        }
    }

    @Test func copiedAlbumFolderGetsItsOwnID() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given an album folder copied (marker included) by the user
            let library = try FolderFixture.library(root)
            let saved = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            try FileManager.default.copyItem(
                at: root.appendingPathComponent("Trips"), to: root.appendingPathComponent("Trips copy"))
            // When listing
            let albums = try await library.albums()
            // Then the original keeps its id and the copy gets another one, titled by its folder
            #expect(albums.count == 2)
            #expect(albums.first { $0.title == "Trips" }?.id == saved.albumID)
            #expect(albums.first { $0.title == "Trips copy" }.map { $0.id != saved.albumID } == true)
            // And saving still goes to the original
            let next = try await library.album(titled: "Trips").save(.data(Fixture.tinyPNG(), filename: "b.png"))
            #expect(next.albumID == saved.albumID)
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Trips")) == ["a.jpg", "b.png"])
        }
    }
}
