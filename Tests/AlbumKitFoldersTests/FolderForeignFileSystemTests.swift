import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitFolders

#if canImport(Glibc)
    import Glibc
#endif

/// Album folders on another file system than the library's `.albumkit/` (a card mounted inside the
/// library): marking and renaming existing folders there, and recovery of what a process that died
/// while staging there left behind. Each test mounts a small tmpfs inside the library, so it needs
/// root.
@Suite struct FolderForeignFileSystemTests {
    /// A token no process holds: it has no owner file in the library, so it is proved dead.
    static let deadOwner = "p999999-00000000deadbeef"

    /// Runs `body` with a library root holding `Card/`, a fresh tmpfs (another file system).
    private func withCard(_ body: (_ root: URL, _ card: URL) async throws -> Void) async throws {
        try await FolderFixture.withRoot { root, _ in
            let card = root.appendingPathComponent("Card")
            try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
            try #require(
                FolderFixture.run("/bin/mount", "-t", "tmpfs", "-o", "size=16m", "albumkit-card", card.path) == 0)
            defer { _ = FolderFixture.run("/bin/umount", card.path) }
            try await body(root, card)
        }
    }

    @Test(.enabled(if: getuid() == 0, "mounting a file system inside the library needs root (CI runs as root)"))
    func existingFolderOnAnotherFileSystemIsMarkedAndRenamed() async throws {
        try await withCard { root, card in
            // Given a folder a camera made on the card, with photos but no marker
            let camera = card.appendingPathComponent("DCIM/100CANON")
            try FileManager.default.createDirectory(at: camera, withIntermediateDirectories: true)
            let old = [Fixture.tinyJPEG("camera 1"), Fixture.tinyJPEG("camera 2")]
            _ = try FolderFixture.write(old[0], named: "IMG_0001.JPG", in: camera)
            _ = try FolderFixture.write(old[1], named: "IMG_0002.JPG", in: camera)
            let library = try FolderFixture.library(root)
            let listed = try #require(try await library.albums().first { $0.title == "Card/DCIM/100CANON" })
            // When saving into it, and into the card's mount folder itself
            let photo = Fixture.tinyJPEG("new")
            let saved = try await library.album(titled: "Card/DCIM/100CANON").save(.data(photo, filename: "a.jpg"))
            let top = Fixture.tinyJPEG("top")
            _ = try await library.album(titled: "Card").save(.data(top, filename: "t.jpg"))
            // Then both are saved, the folders are marked (the album keeps its identifier)
            #expect(saved.albumID == listed.id)
            #expect(saved.albumOutcome == .found)
            #expect(FileManager.default.fileExists(atPath: camera.appendingPathComponent(".albumkit-album").path))
            #expect(FileManager.default.fileExists(atPath: card.appendingPathComponent(".albumkit-album").path))
            FolderFixture.expectOnlyCompleteMedia(in: camera, sources: old + [photo])
            // And renaming it on the card works and keeps its identifier
            try await library.renameAlbum(titled: "Card/DCIM/100CANON", to: "Card/Trips")
            let trips = card.appendingPathComponent("Trips")
            #expect(FolderFixture.visible(in: trips) == ["IMG_0001.JPG", "IMG_0002.JPG", "a.jpg"])
            FolderFixture.expectOnlyCompleteMedia(in: trips, sources: old + [photo])
            #expect(try await library.albums().first { $0.title == "Card/Trips" }?.id == listed.id)
            // And an existing unmarked folder is marked when created as an album
            try FileManager.default.createDirectory(
                at: card.appendingPathComponent("Empty"), withIntermediateDirectories: true)
            _ = try await library.createAlbum(titled: "Card/Empty")
            #expect(FolderFixture.all(in: card.appendingPathComponent("Empty")) == [".albumkit-album"])
            #expect(try await library.verify().problems == [])
        }
    }

    @Test(.enabled(if: getuid() == 0, "mounting a file system inside the library needs root (CI runs as root)"))
    func failedMarkOnAnotherFileSystemLeavesNothingHidden() async throws {
        try await withCard { root, card in
            // Given an unmarked folder on the card, and renaming the new marker over fails
            let camera = card.appendingPathComponent("DCIM")
            try FileManager.default.createDirectory(at: camera, withIntermediateDirectories: true)
            _ = try FolderFixture.write(Fixture.tinyJPEG("old"), named: "IMG_0001.JPG", in: camera)
            FaultInjector.inject(.publish, under: camera.path + "/.albumkit-album", errno: EIO)
            defer { FaultInjector.removeAll(under: camera.path) }
            let library = try FolderFixture.library(root)
            // When saving into it
            let code = await Fixture.errorCode {
                try await library.album(titled: "Card/DCIM").save(.data(Fixture.tinyJPEG("new"), filename: "a.jpg"))
            }
            // Then the save fails and nothing is left in the folder but the camera's photo
            #expect(code == .ioFailure)
            #expect(FolderFixture.all(in: camera) == ["IMG_0001.JPG"])
        }
    }

    /// `add` copies a photo into an album on another file system (no hard link can cross): the
    /// folder is noted in `staging/` first, as for a save, so a kill during the copy leaves nothing
    /// that recovery cannot find.
    @Test(.enabled(if: getuid() == 0, "mounting a file system inside the library needs root (CI runs as root)"))
    func addingIntoAnAlbumOnAnotherFileSystemNotesTheFolderFirst() async throws {
        try await withCard { root, card in
            let staging = root.appendingPathComponent(".albumkit/staging")
            let trips = card.appendingPathComponent("Trips")
            _ = try FolderFixture.write(Fixture.tinyJPEG("on the card"), named: "c.jpg", in: trips)
            let library = try FolderFixture.library(root)
            let photo = Fixture.tinyJPEG("home")
            let saved = try await library.album(titled: "Home").save(.data(photo, filename: "h.jpg"))
            let album = try #require(try await library.albums().first { $0.title == "Card/Trips" })
            let notes = { FolderFixture.all(in: staging).filter { $0.hasSuffix(".foreign") } }
            #expect(notes() == [])
            _ = try await library.addAssets(withIDs: [saved.assetID], toAlbumWithID: album.id)
            #expect(notes().count == 1)
            #expect(FolderFixture.visible(in: trips) == ["c.jpg", "h.jpg"])
            FolderFixture.expectOnlyCompleteMedia(in: trips)
        }
    }

    @Test(.enabled(if: getuid() == 0, "mounting a file system inside the library needs root (CI runs as root)"))
    func deadSaversLeftoversOnAnotherFileSystemAreRemovedOnOpen() async throws {
        try await withCard { root, card in
            let album = card.appendingPathComponent("Trips")
            let staging = root.appendingPathComponent(".albumkit/staging")
            // Given a save into an album on the card, with hidden `.partial` staging there (no
            // O_TMPFILE), that "dies" just before publishing: what this process has staged by then
            // is copied under the token of a dead process, as a kill -9 would leave it
            let library = try FolderFixture.library(root)
            _ = try await library.album(titled: "Card/Trips").save(
                .data(Fixture.tinyJPEG("first"), filename: "f.jpg"))
            FaultInjector.inject(.openTemporary, under: album.path, errno: EOPNOTSUPP)
            let mine = "." + ProcessOwner.token + "."
            let dying = FolderBackend(root: root, trash: FolderFixture.trash(root)) { _ in
                for folder in [album, staging] {
                    for name in FolderFixture.all(in: folder) where name.hasPrefix(mine) {
                        let copy = "." + Self.deadOwner + "." + name.dropFirst(mine.count)
                        try? FileManager.default.copyItem(
                            at: folder.appendingPathComponent(name), to: folder.appendingPathComponent(copy))
                    }
                }
            }
            let photos = (0..<3).map { Fixture.tinyJPEG("batch \($0)") }
            let results = await PhotoLibrary(backend: dying).album(titled: "Card/Trips").save(
                photos.enumerated().map { .data($1, filename: "b\($0).jpg") })
            for result in results { _ = try result.get() }
            let dead = FolderFixture.all(in: album).filter { $0.hasPrefix("." + Self.deadOwner) }
            try #require(dead.count == 3, "the dead process's copies: \(FolderFixture.all(in: album))")
            // And hidden files recovery must never touch: a live owner's, and names it did not make
            let live = "." + ProcessOwner.token + ".\(RandomID.make()).partial"
            for name in [live, ".notes.partial", ".p1-x.y.partial.bak"] {
                _ = try FolderFixture.write(Data("keep".utf8), named: name, in: album)
            }
            #expect(try await library.verify().problems.count >= 3)
            // When the library is opened again
            let reopened = try FolderFixture.library(root)
            // Then the dead process's files are gone from the card and its note from staging
            #expect(FolderFixture.all(in: album).filter { $0.hasPrefix("." + Self.deadOwner) } == [])
            #expect(FolderFixture.all(in: staging).filter { $0.hasPrefix("." + Self.deadOwner) } == [])
            // And what it did not stage is still there
            for name in [live, ".notes.partial", ".p1-x.y.partial.bak", ".albumkit-album"] {
                #expect(FolderFixture.all(in: album).contains(name), "\(name) was removed")
            }
            for name in [live, ".notes.partial", ".p1-x.y.partial.bak"] {
                try FileManager.default.removeItem(at: album.appendingPathComponent(name))
            }
            #expect(try await reopened.verify().problems == [])
            FolderFixture.expectOnlyCompleteMedia(in: album)
        }
    }

    @Test(.enabled(if: getuid() == 0, "mounting a file system inside the library needs root (CI runs as root)"))
    func deadOwnerIsRememberedUntilItsForeignLeftoversAreGone() async throws {
        try await withCard { root, card in
            // Given a dead process (its owner file unlocked) that noted a card folder and left a
            // hidden copy there
            let album = card.appendingPathComponent("Trips")
            try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
            let state = root.appendingPathComponent(".albumkit")
            let owners = state.appendingPathComponent("owners")
            let staging = state.appendingPathComponent("staging")
            try FileManager.default.createDirectory(at: owners, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
            _ = try FolderFixture.write(Data(), named: Self.deadOwner, in: owners)
            let note = StagingName(parsing: ".\(Self.deadOwner).\(RandomID.make()).foreign")!
            _ = try FolderFixture.write(Data(#"{"folder":["Card","Trips"]}"#.utf8), named: note.fileName, in: staging)
            let leftover = ".\(Self.deadOwner).\(RandomID.make()).partial"
            _ = try FolderFixture.write(Fixture.tinyJPEG("half"), named: leftover, in: album)
            // When the library is opened while the folder cannot be read
            FaultInjector.inject(.open, under: album.path, errno: EIO)
            _ = try FolderFixture.library(root)
            // Then the leftover, the note and the owner's record all stay
            #expect(FolderFixture.all(in: album) == [leftover])
            #expect(FolderFixture.all(in: staging) == [note.fileName])
            #expect(FolderFixture.all(in: owners).contains(Self.deadOwner))
            // And once it can be read, the next open removes all three
            FaultInjector.removeAll(under: album.path)
            _ = try FolderFixture.library(root)
            #expect(FolderFixture.all(in: album) == [])
            #expect(FolderFixture.all(in: staging) == [])
            #expect(!FolderFixture.all(in: owners).contains(Self.deadOwner))
        }
    }

}
