import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitFolders

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 10: the folder library inside real Pictures folders — nested albums, the Trash, the album
/// a title lists, concurrent deletes, media-only duplicates, other programs' data.
@Suite("Folder library: real Pictures folders")
struct FolderPicturesTests {
    // MARK: Item 1: nested folders

    @Test func nestedFoldersAreAlbumsAndForcedDeleteMovesThemToTheTrash() async throws {
        try await FolderFixture.withRoot { root, parent in
            // Given mkdir -p 2023/Summer; cp a.jpg b.jpg 2023/Summer/ (and a sidecar)
            let summer = root.appendingPathComponent("2023/Summer")
            let a = Fixture.tinyJPEG("a")
            let b = Fixture.tinyJPEG("b")
            try FolderFixture.write(a, named: "a.jpg", in: summer)
            try FolderFixture.write(b, named: "b.jpg", in: summer)
            try FolderFixture.write(Data("<xmp/>".utf8), named: "a.jpg.xmp", in: summer)
            let library = try FolderFixture.library(root)

            // Then the nested folder is the album, titled by its path; its parent holds no photos
            let albums = try await library.albums()
            #expect(albums.map(\.title) == ["2023/Summer"] && albums.map(\.count) == [2])
            #expect(
                try await library.assets(inAlbumTitled: "2023/Summer").map(\.originalFilename) == ["a.jpg", "b.jpg"])
            #expect(try await library.verify().checkedAssets == 2)

            // When deleting 2023 without force: refused, naming the album inside it
            do {
                try await library.deleteAlbum(titled: "2023")
                Issue.record("a folder holding an album was deleted without force")
            } catch let error as AlbumError {
                #expect(error.code == .albumNotEmpty)
                #expect(error.message.contains("\"2023/Summer\" (2)"))
            }
            #expect(FolderFixture.visible(in: summer) == ["a.jpg", "a.jpg.xmp", "b.jpg"])

            // When deleting with force: everything moves to the Trash, nothing is destroyed
            let deleted = try await library.deleteAlbum(titled: "2023", force: true)
            #expect(deleted.albums.map(\.title) == ["2023", "2023/Summer"])
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("2023").path))
            let trash = parent.appendingPathComponent("Trash")
            #expect(deleted.trashURL?.path == trash.appendingPathComponent("files/2023").path)
            let trashed = trash.appendingPathComponent("files/2023/Summer")
            #expect(try Data(contentsOf: trashed.appendingPathComponent("a.jpg")) == a)
            #expect(try Data(contentsOf: trashed.appendingPathComponent("b.jpg")) == b)
            #expect(FileManager.default.fileExists(atPath: trashed.appendingPathComponent("a.jpg.xmp").path))
            let info = try String(
                contentsOf: trash.appendingPathComponent("info/2023.trashinfo"), encoding: .utf8)
            let lines = info.split(separator: "\n").map(String.init)
            #expect(lines.first == "[Trash Info]")
            #expect(lines.contains("Path=" + FolderTrash.percentEncoded(root.appendingPathComponent("2023").path)))
            #expect(lines.contains { $0.wholeMatch(of: /DeletionDate=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/) != nil })
        }
    }

    @Test func trashNamesArePercentEncodedAndNeverReplaceEachOther() async throws {
        try await FolderFixture.withRoot { root, parent in
            let library = try FolderFixture.library(root)
            for round in 1...2 {
                _ = try await library.album(titled: "Été 100%").save(
                    .data(Fixture.tinyJPEG("\(round)"), filename: "a.jpg"))
                try await library.deleteAlbum(titled: "Été 100%", force: true)
            }
            let trash = parent.appendingPathComponent("Trash")
            #expect(FolderFixture.all(in: trash.appendingPathComponent("files")) == ["Été 100%", "Été 100%.2"])
            let info = try String(
                contentsOf: trash.appendingPathComponent("info/Été 100%.2.trashinfo"), encoding: .utf8)
            #expect(info.contains("/%C3%89t%C3%A9%20100%25\n"))
        }
    }

    @Test func permanentlyDeletesWithoutTheTrash() async throws {
        try await FolderFixture.withRoot { root, parent in
            let library = try FolderFixture.library(root)
            _ = try await library.album(titled: "Trips/2024").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            let deleted = try await library.deleteAlbum(titled: "Trips", force: true, permanently: true)
            #expect(deleted.trashURL == nil)
            #expect(FolderFixture.visible(in: root).isEmpty)
            #expect(FolderFixture.all(in: parent.appendingPathComponent("Trash/files")).isEmpty)
        }
    }

    @Test func aTrashThatCannotBeUsedDeletesNothing() async throws {
        try await FolderFixture.withRoot { root, parent in
            let library = try FolderFixture.library(root)
            let photo = Fixture.tinyJPEG("keep")
            _ = try await library.album(titled: "Trips").save(.data(photo, filename: "a.jpg"))
            // Given moving into the Trash fails (a full or read-only home, say)
            FaultInjector.inject(.publish, under: parent.appendingPathComponent("Trash").path, errno: EROFS)
            // When deleting with force
            let code = await Fixture.errorCode { try await library.deleteAlbum(titled: "Trips", force: true) }
            // Then it is refused, the album is back where it was, whole, and nothing is left aside
            #expect(code == .ioFailure)
            #expect(FolderFixture.all(in: root).filter { $0 != ".albumkit" } == ["Trips"])
            #expect(try Data(contentsOf: root.appendingPathComponent("Trips/a.jpg")) == photo)
            #expect(FolderFixture.all(in: parent.appendingPathComponent("Trash/info")).isEmpty)
            #expect(try await library.albums().map(\.title) == ["Trips"])
        }
    }

    @Test func trashOnAnotherFileSystemIsAtItsTop() async throws {
        // /dev/shm is a tmpfs on Linux, another file system than the temporary directory.
        let shm = "/dev/shm"
        guard let shmDevice = FileSystem.fileStatus(atPath: shm)?.device,
            shmDevice != FileSystem.fileStatus(atPath: NSTemporaryDirectory())?.device
        else {
            Issue.record("/dev/shm is not a separate file system here; this test needs one")
            return
        }
        let root = URL(fileURLWithPath: shm).appendingPathComponent("albumkit-trash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let trashName = "album-\(UUID().uuidString)"
        defer {
            try? FileManager.default.removeItem(at: root)
            try? FileManager.default.removeItem(atPath: "\(shm)/.Trash-\(getuid())/files/\(trashName)")
            try? FileManager.default.removeItem(atPath: "\(shm)/.Trash-\(getuid())/info/\(trashName).trashinfo")
        }
        try await FolderFixture.withRoot { home, parent in
            // The library is reached through a symlink in the temporary directory (~/Pictures →
            // /data/Pictures): the Trash is still at the top of the real folder's file system.
            let link = parent.appendingPathComponent("Linked")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: root)
            let library = PhotoLibrary(backend: FolderBackend(root: link, trash: FolderFixture.trash(home)))
            _ = try await library.album(titled: trashName).save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            let deleted = try await library.deleteAlbum(titled: trashName, force: true)
            // Then it went to $topdir/.Trash-$UID on that file system, with a path relative to $topdir
            #expect(deleted.trashURL?.path == "\(shm)/.Trash-\(getuid())/files/\(trashName)")
            #expect(FileManager.default.fileExists(atPath: "\(shm)/.Trash-\(getuid())/files/\(trashName)/a.jpg"))
            let info = try String(
                contentsOfFile: "\(shm)/.Trash-\(getuid())/info/\(trashName).trashinfo", encoding: .utf8)
            #expect(info.contains("\nPath=\(root.lastPathComponent)/\(trashName)\n"))
        }
    }

    // MARK: Item 2: the album listed under the title

    @Test func commandsActOnTheAlbumListedUnderTheTitle() async throws {
        try await FolderFixture.withRoot { root, parent in
            // Given: save --album Trips a.jpg; mv Trips Trips-2023; mkdir Trips; cp b.jpg Trips/mine.jpg
            let library = try FolderFixture.library(root)
            let a = Fixture.tinyJPEG("a")
            _ = try await library.album(titled: "Trips").save(.data(a, filename: "a.jpg"))
            try FileManager.default.moveItem(
                at: root.appendingPathComponent("Trips"), to: root.appendingPathComponent("Trips-2023"))
            try FolderFixture.write(
                Fixture.tinyJPEG("b"), named: "mine.jpg", in: root.appendingPathComponent("Trips"))
            #expect(Set(try await library.albums().map(\.title)) == ["Trips", "Trips-2023"])

            // Then show and delete act on the folder listed as "Trips"
            #expect(try await library.assets(inAlbumTitled: "Trips").map(\.originalFilename) == ["mine.jpg"])
            try await library.deleteAlbum(titled: "Trips", force: true)
            #expect(FolderFixture.visible(in: root) == ["Trips-2023"])
            #expect(try Data(contentsOf: root.appendingPathComponent("Trips-2023/a.jpg")) == a)
            #expect(FolderFixture.visible(in: parent.appendingPathComponent("Trash/files/Trips")) == ["mine.jpg"])
        }
    }

    @Test func aTitleTwoFoldersCarryIsRefusedNamingBoth() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given "Café" twice: once NFC, once NFD (copied from a Mac)
            try FolderFixture.write(
                Fixture.tinyJPEG("1"), named: "a.jpg", in: root.appendingPathComponent("Caf\u{E9}"))
            try FolderFixture.write(
                Fixture.tinyJPEG("2"), named: "b.jpg", in: root.appendingPathComponent("Cafe\u{301}"))
            let library = try FolderFixture.library(root)
            for action in ["show", "delete", "save"] {
                do {
                    switch action {
                    case "show": _ = try await library.assets(inAlbumTitled: "Café")
                    case "delete": try await library.deleteAlbum(titled: "Café", force: true)
                    default:
                        _ = try await library.album(titled: "Café").save(
                            .data(Fixture.tinyJPEG("3"), filename: "c.jpg"))
                    }
                    Issue.record("\(action) of an ambiguous title went ahead")
                } catch let error as AlbumError {
                    #expect(error.code == .ambiguousAlbumTitle, "\(action)")
                    #expect(error.message.contains("2 folders"), "\(action)")
                    // The two look the same: their code points tell them apart.
                    #expect(error.message.contains("(C a f U+E9)") && error.message.contains("(C a f e U+301)"))
                }
            }
            #expect(FolderFixture.visible(in: root).count == 2)
        }
    }

    // MARK: Item 3: a file copied in while deleting

    @Test(arguments: [false, true])
    func deleteNeverLosesAFileCopiedInAtTheSameMoment(permanently: Bool) async throws {
        try await FolderFixture.withRoot { root, parent in
            let library = try FolderFixture.library(root)
            let photo = Fixture.tinyJPEG("copied")
            var lost = 0
            for trial in 0..<60 {
                let title = "Empty \(trial)"
                _ = try await library.createAlbum(titled: title)
                let folder = root.appendingPathComponent(title)
                // `cp photo folder/new.jpg`, racing the delete
                let copier = Task.detached { () -> Bool in
                    let fd = open(folder.appendingPathComponent("new.jpg").path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
                    guard fd >= 0 else { return false }
                    let written = photo.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    return close(fd) == 0 && written == photo.count
                }
                _ = try? await library.deleteAlbum(titled: title, permanently: permanently)
                let copied = await copier.value
                guard copied else { continue }
                // Then the copied file is somewhere: in the album folder or in the Trash
                let places = [
                    folder.appendingPathComponent("new.jpg"),
                    parent.appendingPathComponent("Trash/files/\(title)/new.jpg"),
                ]
                if !places.contains(where: { (try? Data(contentsOf: $0)) == photo }) { lost += 1 }
            }
            #expect(lost == 0)
        }
    }

    @Test func aDeleteInterruptedAfterMovingAsideIsMovedBack() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            _ = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            // Given a process that died right after moving the folder aside
            let aside = ".p999999-00000000000000ff.dead.deleting"
            try FileManager.default.moveItem(
                at: root.appendingPathComponent("Trips"), to: root.appendingPathComponent(aside))
            let note = FolderAside.Note(parent: "", aside: aside, folder: "Trips")
            try FolderFixture.write(
                try JSONEncoder().encode(note), named: ".p999999-00000000000000ff.dead.aside",
                in: root.appendingPathComponent(".albumkit/staging"))
            // When the library is opened again
            _ = try FolderFixture.library(root)
            // Then the folder is back where it was, and the note is gone
            #expect(FolderFixture.all(in: root).filter { $0 != ".albumkit" } == ["Trips"])
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Trips")) == ["a.jpg"])
            #expect(FolderFixture.all(in: root.appendingPathComponent(".albumkit/staging")).isEmpty)
        }
    }

    // MARK: Item 4: only media files are the album's content

    @Test func identicalBytesUnderANonMediaNameAreNotTheAlbumsContent() async throws {
        try await FolderFixture.withRoot { root, _ in
            let photo = Fixture.tinyJPEG("a")
            try FolderFixture.write(photo, named: "a.jpg.bak", in: root.appendingPathComponent("Trips"))
            let library = try FolderFixture.library(root)
            let saved = try await library.album(titled: "Trips").save(.data(photo, filename: "a.jpg"))
            #expect(!saved.isExisting)
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Trips")) == ["a.jpg", "a.jpg.bak"])
            #expect(try Data(contentsOf: root.appendingPathComponent("Trips/a.jpg")) == photo)
        }
    }

    // MARK: Albums as people's folders

    @Test func otherProgramsDataIsNeverAnAlbum() async throws {
        try await FolderFixture.withRoot { root, _ in
            let photo = Fixture.tinyJPEG("x")
            // Given a catalog library, Shotwell/darktable data, a NAS thumbnail folder, Lightroom previews
            try FolderFixture.write(
                Data(), named: "catalog.sqlite", in: root.appendingPathComponent("Family.albumlibrary"))
            try FolderFixture.write(
                photo, named: "a.jpg", in: root.appendingPathComponent("Family.albumlibrary/originals/ab"))
            try FolderFixture.write(photo, named: "a.jpg", in: root.appendingPathComponent("Backup/photos"))
            try FolderFixture.write(Data(), named: "photo.db", in: root.appendingPathComponent("Backup"))
            try FolderFixture.write(photo, named: "t.jpg", in: root.appendingPathComponent("darktable"))
            try FolderFixture.write(Data(), named: "library.db", in: root.appendingPathComponent("darktable"))
            try FolderFixture.write(photo, named: "t.jpg", in: root.appendingPathComponent("2024/@eaDir"))
            try FolderFixture.write(photo, named: "p.jpg", in: root.appendingPathComponent("Cat Previews.lrdata/0"))
            try FolderFixture.write(photo, named: "t.jpg", in: root.appendingPathComponent(".thumbnails"))
            try FolderFixture.write(photo, named: "real.jpg", in: root.appendingPathComponent("2024"))
            let library = try FolderFixture.library(root)

            // Then only the real photo folder is an album, and verify looks only there
            #expect(try await library.albums().map(\.title) == ["2024"])
            #expect(try await library.verify().checkedAssets == 1)
            // And the catalog library is never saved into, shown or deleted
            #expect(
                await Fixture.errorCode { try await library.assets(inAlbumTitled: "Family.albumlibrary") }
                    == .albumNotFound)
            #expect(
                await Fixture.errorCode {
                    try await library.deleteAlbum(titled: "Family.albumlibrary", force: true)
                } == .albumNotFound)
            #expect(
                await Fixture.errorCode {
                    try await library.album(titled: "Family.albumlibrary/originals").save(
                        .data(photo, filename: "b.jpg"))
                } == .invalidAlbumTitle)
            _ = try await library.album(titled: "Family.albumlibrary").save(.data(photo, filename: "b.jpg"))
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Family.albumlibrary 2")) == ["b.jpg"])
            #expect(
                FolderFixture.all(in: root.appendingPathComponent("Family.albumlibrary")) == [
                    "catalog.sqlite", "originals",
                ])
            // And a title that would name a library package or a NAS folder gets a listed folder
            _ = try await library.album(titled: "New.albumlibrary").save(.data(photo, filename: "c.jpg"))
            #expect(FolderFixture.visible(in: root.appendingPathComponent("New.albumlibrary 2")) == ["c.jpg"])
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("New.albumlibrary").path))
            #expect(
                await Fixture.errorCode {
                    try await library.album(titled: "@eaDir/x").save(.data(photo, filename: "d.jpg"))
                } == .invalidAlbumTitle)
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("@eaDir").path))
        }
    }

    @Test func createOnAPlainFolderAtTheTitlesPathMakesItAnAlbum() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given an empty folder the user made (not listed: it holds no photos)
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("2024/Spring"), withIntermediateDirectories: true)
            let library = try FolderFixture.library(root)
            #expect(try await library.albums().isEmpty)
            // When creating the album with that path, and saving into it
            let created = try await library.createAlbum(titled: "2024/Spring")
            let saved = try await library.album(titled: "2024/Spring").save(
                .data(Fixture.tinyJPEG(), filename: "a.jpg"))
            // Then that folder is the album (no "Spring 2"), listed and found again
            #expect(FolderFixture.visible(in: root.appendingPathComponent("2024")) == ["Spring"])
            #expect(saved.albumID == created.id && saved.albumOutcome == .found)
            #expect(try await library.albums().map(\.title) == ["2024/Spring"])
        }
    }

    @Test func sidecarsTravelWithTheirPhotoToTheTrashAndOutOfTheAlbum() async throws {
        try await FolderFixture.withRoot { root, parent in
            let library = try FolderFixture.library(root)
            let one = try await library.album(titled: "Trips").save(
                .data(Fixture.tinyJPEG("1"), filename: "IMG_1.JPG"))
            let two = try await library.album(titled: "Trips").save(
                .data(Fixture.tinyJPEG("2"), filename: "IMG_2.JPG"))
            _ = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("3"), filename: "IMG_3.JPG"))
            let trips = root.appendingPathComponent("Trips")
            for name in ["IMG_1.JPG.xmp", "IMG_1.xmp", "IMG_2.xmp", "IMG_3.xmp"] {
                try FolderFixture.write(Data("<xmp/>".utf8), named: name, in: trips)
            }
            // When deleting IMG_1 and removing IMG_2 from the album
            _ = try await library.deleteAssets(withIDs: [one.assetID])
            try await library.removeAssets(withIDs: [two.assetID], fromAlbumWithID: two.albumID!)
            // Then each photo's sidecars went with it; IMG_3's stayed
            #expect(FolderFixture.visible(in: trips) == ["IMG_3.JPG", "IMG_3.xmp"])
            #expect(
                FolderFixture.visible(in: parent.appendingPathComponent("Trash/files")) == [
                    "IMG_1.JPG", "IMG_1.JPG.xmp", "IMG_1.xmp",
                ])
            #expect(Set(FolderFixture.visible(in: root)).isSuperset(of: ["IMG_2.JPG", "IMG_2.xmp"]))
            // And a raw + JPEG pair is one photo: the raw and the shared sidecar go with the JPEG,
            // whether or not AlbumKit reads the raw format (.NRW, .3FR, .X3F)
            #expect(
                FolderSidecars.names(for: "IMG_4.JPG", among: ["IMG_4.JPG", "IMG_4.CR2", "IMG_4.xmp"]) == [
                    "IMG_4.CR2", "IMG_4.xmp",
                ])
            for raw in ["IMG_5.NRW", "IMG_5.3fr", "IMG_5.X3F", "IMG_5.iiq", "IMG_5.sr2"] {
                #expect(
                    FolderSidecars.names(for: "IMG_5.JPG", among: ["IMG_5.JPG", raw, "IMG_5.xmp"]) == [
                        raw, "IMG_5.xmp",
                    ])
            }
            // A shared sidecar stays while another file of its name is there (a video of the same stem)
            #expect(FolderSidecars.names(for: "IMG_7.JPG", among: ["IMG_7.JPG", "IMG_7.MOV", "IMG_7.xmp"]).isEmpty)
            #expect(
                Set(FolderSidecars.names(for: "IMG_6.JPG", among: ["IMG_6.JPG", "IMG_6.xmp", "IMG_6.JPG.xmp"])) == [
                    "IMG_6.JPG.xmp", "IMG_6.xmp",
                ])
        }
    }

    @Test func savedFileKeepsTheSourceModificationTime() async throws {
        try await FolderFixture.withRoot { root, parent in
            let source = try FolderFixture.write(Fixture.tinyJPEG(), named: "old.jpg", in: parent)
            let then = Date(timeIntervalSince1970: 1_500_000_000.25)
            try FileManager.default.setAttributes([.modificationDate: then], ofItemAtPath: source.path)
            let library = try FolderFixture.library(root)
            _ = try await library.album(titled: "Old").save(.file(source))
            let saved = try FileManager.default.attributesOfItem(
                atPath: root.appendingPathComponent("Old/old.jpg").path)
            let modified = try #require(saved[.modificationDate] as? Date)
            #expect(abs(modified.timeIntervalSince(then)) < 0.001)
        }
    }

    @Test func sameSizeFilesAreToldApartByTheirHeadsNotReadWhole() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given an album holding 20 different photos of one size (256 KiB each)
            let folder = root.appendingPathComponent("Raw")
            func photo(_ tag: Int) -> Data {
                var data = Fixture.tinyJPEG(String(format: "%04d", tag))
                data.append(Data(repeating: UInt8(tag & 0xFF), count: 256 * 1024 - data.count))
                return data
            }
            for tag in 0..<20 { try FolderFixture.write(photo(tag), named: "IMG_\(tag).jpg", in: folder) }
            let backend = FolderBackend(root: root, trash: FolderFixture.trash(root))
            let library = PhotoLibrary(backend: backend)
            // When saving one more photo of that size, and one identical to IMG_7
            let results = await library.album(titled: "Raw").save([
                .data(photo(99), filename: "new.jpg"), .data(photo(7), filename: "copy.jpg"),
            ])
            // Then the duplicate is found, no file but IMG_7 was read whole, each head once
            #expect(try results[0].get().isExisting == false)
            #expect(try results[1].get().assetID.hasSuffix("/IMG_7.jpg"))
            let reads = backend.hashCache.reads.withLock { $0 }
            #expect(reads.full == 1)
            #expect(reads.head == 20)
        }
    }

    @Test(.enabled(if: getuid() == 0, "mounting a file system inside the library needs root (CI runs as root)"))
    func albumFolderOnAnotherFileSystemCanBeSavedInto() async throws {
        try await FolderFixture.withRoot { root, parent in
            let card = root.appendingPathComponent("Card")
            try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
            #expect(FolderFixture.run("/bin/mount", "-t", "tmpfs", "-o", "size=16m", "albumkit-card", card.path) == 0)
            defer { _ = FolderFixture.run("/bin/umount", card.path) }
            let library = try FolderFixture.library(root)
            let photo = Fixture.tinyJPEG("card")
            // When saving into an album on the card
            let saved = try await library.album(titled: "Card/Trips").save(.data(photo, filename: "a.jpg"))
            // Then the file is there, complete, with nothing left hidden
            #expect(saved.albumOutcome == .created)
            #expect(try Data(contentsOf: card.appendingPathComponent("Trips/a.jpg")) == photo)
            FolderFixture.expectOnlyCompleteMedia(in: card.appendingPathComponent("Trips"), sources: [photo])
            // And deleting it uses the card's own Trash
            let deleted = try await library.deleteAlbum(titled: "Card/Trips", force: true)
            #expect(deleted.trashURL?.path == card.path + "/.Trash-\(getuid())/files/Trips")
            #expect(FolderFixture.all(in: parent.appendingPathComponent("Trash/files")).isEmpty)
        }
    }

}
