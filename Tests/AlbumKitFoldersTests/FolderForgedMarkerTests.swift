import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitFolders

/// A folder album's marker (`.albumkit-album`) is a file anyone with write access can copy or
/// edit: a sync tool, a restored backup, another user. Whatever it says, a command acts only on the
/// folder it listed: an identifier always leads to one folder, and a title means the folder that
/// carries it.
@Suite("Folder library: copied and forged album markers")
struct FolderForgedMarkerTests {
    /// Ways the "Trips" marker ends up in the folder "Other".
    enum Forgery: String, CaseIterable, Sendable {
        case copied  // copied as it is
        case folderEdited  // its folder changed to "Other"
        case inodeEdited  // its inode changed to the "Other" folder's
        case folderAndInodeEdited
        case copiedAndMemoryLost  // copied, and the library's remembered albums removed
    }

    @Test(arguments: Forgery.allCases)
    func aMarkerCopiedIntoAnotherFolderNeverMakesACommandActOnTheWrongFolder(_ forgery: Forgery) async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given the albums "Trips" and "Other", each holding a photo named a.jpg
            let trips = root.appendingPathComponent("Trips")
            let other = root.appendingPathComponent("Other")
            let library = try FolderFixture.library(root)
            let saved = try await library.album(titled: "Trips").save(
                .data(Fixture.tinyJPEG("trip"), filename: "a.jpg"))
            _ = try await library.album(titled: "Other").save(.data(Fixture.tinyJPEG("other"), filename: "a.jpg"))
            // When the Trips marker is copied into Other and edited
            let marker = trips.appendingPathComponent(FolderAlbumMarker.fileName)
            var fields = try #require(
                JSONSerialization.jsonObject(with: Data(contentsOf: marker)) as? [String: Any])
            let otherInode = try #require(
                FileManager.default.attributesOfItem(atPath: other.path)[.systemFileNumber] as? NSNumber)
            switch forgery {
            case .copied, .copiedAndMemoryLost: break
            case .folderEdited: fields["folder"] = "Other"
            case .inodeEdited: fields["inode"] = otherInode
            case .folderAndInodeEdited:
                fields["folder"] = "Other"
                fields["inode"] = otherInode
            }
            try JSONSerialization.data(withJSONObject: fields).write(
                to: other.appendingPathComponent(FolderAlbumMarker.fileName))
            if forgery == .copiedAndMemoryLost {
                try FileManager.default.removeItem(
                    at: root.appendingPathComponent(".albumkit").appendingPathComponent("albums.json"))
            }
            // Then a new process (a new library) lists two albums with two identifiers, "Trips"
            // once, and every identifier leads to the folder it is listed with
            let fresh = try FolderFixture.library(root)
            let albums = try await fresh.albums()
            #expect(albums.count == 2)
            #expect(Set(albums.map(\.id)).count == 2)
            #expect(albums.filter { $0.title == "Trips" }.count == 1)
            let tripsAlbum = try #require(albums.first { $0.title == "Trips" })
            let otherAlbum = try #require(albums.first { $0.id != tripsAlbum.id })
            #expect(tripsAlbum.id == saved.albumID, "the real Trips keeps its identifier")
            for album in albums {
                let folder = album.id == tripsAlbum.id ? trips : other
                for asset in try await fresh.assets(inAlbumWithID: album.id) {
                    #expect(asset.fileURL?.deletingLastPathComponent().lastPathComponent == folder.lastPathComponent)
                }
            }
            #expect(try await fresh.assets(inAlbumTitled: "Trips").count == 1)
            // And deleting Other's photo by its identifier trashes Other's, not Trips'
            let otherPhoto = try #require(try await fresh.assets(inAlbumWithID: otherAlbum.id).first)
            _ = try await FolderFixture.library(root).deleteAssets(withIDs: [otherPhoto.id])
            #expect(FileManager.default.fileExists(atPath: trips.appendingPathComponent("a.jpg").path))
            #expect(!FileManager.default.fileExists(atPath: other.appendingPathComponent("a.jpg").path))
            // And deleting the other album for good by its identifier removes Other, never Trips
            try await FolderFixture.library(root).deleteAlbum(withID: otherAlbum.id, force: true, permanently: true)
            #expect(FileManager.default.fileExists(atPath: trips.appendingPathComponent("a.jpg").path))
            #expect(!FileManager.default.fileExists(atPath: other.path))
            #expect(
                try await FolderFixture.library(root).albumInfo(withID: try #require(saved.albumID)).title == "Trips")
        }
    }

    @Test func aNumberedCopyOfAnAlbumIsItsOwnAlbumUntilTheOriginalIsGone() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given "Trips", and a copy of it as "Trips 2" (marker and all), the way a file
            // manager names a copy
            let library = try FolderFixture.library(root)
            let saved = try await library.album(titled: "Trips").save(
                .data(Fixture.tinyJPEG("trip"), filename: "a.jpg"))
            let original = root.appendingPathComponent("Trips")
            try FileManager.default.copyItem(at: original, to: root.appendingPathComponent("Trips 2"))
            // Then the copy lost the identifier, and with it the marker's title: it is "Trips 2",
            // and "Trips" means the original alone
            let albums = try await FolderFixture.library(root).albums()
            #expect(albums.map(\.title).sorted() == ["Trips", "Trips 2"])
            #expect(albums.first { $0.title == "Trips" }?.id == saved.albumID)
            let shown = try await FolderFixture.library(root).assets(inAlbumTitled: "Trips")
            #expect(shown.map { $0.fileURL?.deletingLastPathComponent().lastPathComponent } == ["Trips"])
            // When the original is removed, the copy is the album: it keeps the identifier, and its
            // title follows its folder, as for a folder renamed in a file manager
            try FileManager.default.removeItem(at: original)
            let after = try await FolderFixture.library(root).albums()
            #expect(after.map(\.id) == [saved.albumID].compactMap { $0 })
            #expect(after.map(\.title) == ["Trips 2"])
        }
    }
}
