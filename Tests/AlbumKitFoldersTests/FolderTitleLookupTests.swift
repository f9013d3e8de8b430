import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

@testable import AlbumKitCore

/// Every command finds an album by title the way `albums` lists it, also when AlbumKit had to give
/// its folder a number (`Trips 2`) because the name was taken, and refuses a title two folders carry.
@Suite struct FolderTitleLookupTests {
    @Test func albumInANumberedFolderIsFoundByItsListedTitle() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given a file named Trips, so the album Trips is made as the folder "Trips 2"
            _ = try FolderFixture.write(Data("notes".utf8), named: "Trips", in: root)
            let library = try FolderFixture.library(root)
            let first = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("1"), filename: "a.jpg"))
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Trips 2/a.jpg").path))
            #expect(try await library.albums().map(\.title) == ["Trips"])
            // When looking it up by that title, then saving into it again
            let info = try await library.albumInfo(titled: "Trips")
            let again = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("2"), filename: "b.jpg"))
            // Then both find the listed album
            #expect(info.id == first.albumID)
            #expect(info.count == 1)
            #expect(again.albumID == first.albumID)
            #expect(try await library.assets(inAlbumTitled: "Trips").count == 2)
            // And rename and delete act on it
            try await library.renameAlbum(titled: "Trips", to: "Holiday")
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Holiday")) == ["a.jpg", "b.jpg"])
            #expect(try await library.albums().map(\.title) == ["Holiday"])
            _ = try await library.save(.data(Fixture.tinyJPEG("3"), filename: "c.jpg"))
            _ = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("4"), filename: "d.jpg"))
            _ = try await library.deleteAlbum(titled: "Trips", force: true)
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Trips 2").path))
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Trips").path))
        }
    }

    @Test func titlesWhoseFoldersCollideAreEachFound() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given the album "Trip." (folder Trip), then the album "Trip" (folder "Trip 2")
            let library = try FolderFixture.library(root)
            let dotted = try await library.album(titled: "Trip.").save(
                .data(Fixture.tinyJPEG("1"), filename: "a.jpg"))
            let plain = try await library.album(titled: "Trip").save(.data(Fixture.tinyJPEG("2"), filename: "b.jpg"))
            #expect(FolderFixture.visible(in: root) == ["Trip", "Trip 2"])
            #expect(dotted.albumID != plain.albumID)
            // Then each title finds its own album, as listed
            #expect(try await library.albumInfo(titled: "Trip").id == plain.albumID)
            #expect(try await library.albumInfo(titled: "Trip.").id == dotted.albumID)
            try await library.renameAlbum(titled: "Trip", to: "Trip 2024")
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Trip 2024")) == ["b.jpg"])
        }
    }

    @Test func twoFoldersListedUnderOneTitleAreRefusedByEveryCommand() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given the album Trips in "Trips 2" (a file had the name), then a folder Trips with a photo
            let notes = try FolderFixture.write(Data("notes".utf8), named: "Trips", in: root)
            let library = try FolderFixture.library(root)
            _ = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("1"), filename: "a.jpg"))
            try FileManager.default.removeItem(at: notes)
            let plain = root.appendingPathComponent("Trips")
            try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
            _ = try FolderFixture.write(Fixture.tinyJPEG("mine"), named: "mine.jpg", in: plain)
            #expect(try await library.albums().map(\.title) == ["Trips", "Trips"])
            // Then every command refuses the title as ambiguous and changes nothing
            let before = FolderFixture.all(in: root)
            let codes = [
                await Fixture.errorCode { try await library.albumInfo(titled: "Trips") },
                await Fixture.errorCode { try await library.assets(inAlbumTitled: "Trips") },
                await Fixture.errorCode { try await library.renameAlbum(titled: "Trips", to: "Holiday") },
                await Fixture.errorCode { try await library.deleteAlbum(titled: "Trips", force: true) },
                await Fixture.errorCode {
                    try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("2"), filename: "b.jpg"))
                },
            ]
            #expect(codes == Array(repeating: .ambiguousAlbumTitle, count: 5))
            #expect(FolderFixture.all(in: root) == before)
            #expect(FolderFixture.visible(in: plain) == ["mine.jpg"])
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Trips 2")) == ["a.jpg"])
        }
    }
}
