import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@testable import AlbumKitCore
@testable import AlbumKitFolders

@Suite("Folder library: saving")
struct FolderBackendTests {
    @Test func firstSaveCreatesTheAlbumFolderWithItsMarker() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given an empty Pictures folder
            let library = try FolderFixture.library(root)

            // When a photo is saved into a new album
            let saved = try await library.album(titled: "Touch Code Magazine").save(
                .data(Fixture.tinyJPEG(), filename: "IMG_0001.JPG"))

            // Then the folder exists with the original file name and a hidden marker
            let folder = root.appendingPathComponent("Touch Code Magazine")
            #expect(saved.albumOutcome == .created)
            #expect(FolderFixture.visible(in: root) == ["Touch Code Magazine"])
            #expect(FolderFixture.visible(in: folder) == ["IMG_0001.JPG"])
            #expect(FolderFixture.all(in: folder).contains(FolderAlbumMarker.fileName))
            #expect(saved.albumID.map { UUID(uuidString: $0) != nil } == true)
            #expect(saved.assetID == saved.albumID! + "/IMG_0001.JPG")
            #expect(try Data(contentsOf: folder.appendingPathComponent("IMG_0001.JPG")) == Fixture.tinyJPEG())

            // And the next save finds it
            let again = try await library.album(titled: "Touch Code Magazine").save(
                .data(Fixture.tinyPNG(), filename: "b.png"))
            #expect(again.albumOutcome == .found)
            #expect(again.albumID == saved.albumID)
        }
    }

    @Test func extensionFollowsTheContent() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given a JPEG named .png
            let library = try FolderFixture.library(root)
            // When saved
            let saved = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG(), filename: "x.png"))
            // Then it is published as .jpg
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Trips")) == ["x.jpg"])
            #expect(saved.assetID.hasSuffix("/x.jpg"))
        }
    }

    @Test func sourceFileIsCopiedByteForByte() async throws {
        try await FolderFixture.withRoot { root, parent in
            // Given a PNG file on disk
            let source = try FolderFixture.write(Fixture.tinyPNG(red: 9), named: "garden.png", in: parent)
            // When saved
            _ = try await PhotoLibrary.folders(at: root).album(titled: "Garden").save(.file(source))
            // Then the album file is identical
            #expect(
                try Data(contentsOf: root.appendingPathComponent("Garden/garden.png")) == Fixture.tinyPNG(red: 9))
        }
    }

    @Test func identicalFileIsTheSameAsset() async throws {
        try await FolderFixture.withRoot { root, _ in
            let album = try FolderFixture.library(root).album(titled: "Trips")
            // Given a saved photo
            let first = try await album.save(.data(Fixture.tinyJPEG("a"), filename: "a.jpg"))
            // When the same bytes are saved again, under the same or another name
            let second = try await album.save(.data(Fixture.tinyJPEG("a"), filename: "a.jpg"))
            let third = try await album.save(.data(Fixture.tinyJPEG("a"), filename: "copy.jpg"))
            // Then no copy is made and the existing asset is reported
            #expect(!first.isExisting)
            #expect(second.isExisting && second.assetID == first.assetID)
            #expect(third.isExisting && third.assetID == first.assetID)
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Trips")) == ["a.jpg"])
        }
    }

    /// One library saves chunk after chunk into a folder it lists once; what another program did in
    /// the folder between two saves is still seen.
    @Test func aSaveSeesWhatAnotherProgramPutInTheFolderSinceTheLastSave() async throws {
        try await FolderFixture.withRoot { root, _ in
            let album = try FolderFixture.library(root).album(titled: "Trips")
            let folder = root.appendingPathComponent("Trips")
            // Given a saved photo, then another program adding a different file and a copy of a photo
            _ = try await album.save(.data(Fixture.tinyJPEG("a"), filename: "a.jpg"))
            _ = try FolderFixture.write(Fixture.tinyJPEG("theirs"), named: "b.jpg", in: folder)
            _ = try FolderFixture.write(Fixture.tinyJPEG("c"), named: "their-c.jpg", in: folder)
            // When the same library saves a photo named like theirs, and the bytes of their copy
            let b = try await album.save(.data(Fixture.tinyJPEG("b"), filename: "b.jpg"))
            let c = try await album.save(.data(Fixture.tinyJPEG("c"), filename: "c.jpg"))
            // Then their file is kept, the new photo gets a number, and their copy is the asset
            #expect(try Data(contentsOf: folder.appendingPathComponent("b.jpg")) == Fixture.tinyJPEG("theirs"))
            #expect(b.assetID.hasSuffix("/b 2.jpg") && !b.isExisting)
            #expect(c.isExisting && c.assetID.hasSuffix("/their-c.jpg"))
            // And a file they replaced in place (same name, other bytes) is not taken for ours
            try Fixture.tinyJPEG("replaced").write(to: folder.appendingPathComponent("a.jpg"))
            let a = try await album.save(.data(Fixture.tinyJPEG("a"), filename: "a.jpg"))
            #expect(!a.isExisting && a.assetID.hasSuffix("/a 2.jpg"))
            #expect(FolderFixture.visible(in: folder) == ["a 2.jpg", "a.jpg", "b 2.jpg", "b.jpg", "their-c.jpg"])
        }
    }

    /// A batch commits in chunks (128 photos each) and lists the folder again for each; a file
    /// another program adds while one chunk commits is seen by the next (it was not, for a while,
    /// when a chunk reused the last listing whenever the folder's times had not changed since).
    @Test func aFileAddedWhileAChunkCommitsIsSeenByTheNextChunk() async throws {
        try await FolderFixture.withRoot { root, _ in
            let folder = root.appendingPathComponent("Trips")
            let late = Fixture.tinyJPEG("photo 136")
            let backend = FolderBackend(root: root, trash: FolderFixture.trash(root)) { _ in
                let theirs = folder.appendingPathComponent("fromcamera.jpg")
                guard !FileManager.default.fileExists(atPath: theirs.path) else { return }
                _ = try? FolderFixture.write(late, named: "fromcamera.jpg", in: folder)
            }
            // When 140 photos are saved, while the first chunk commits another program copies in
            // the bytes of photo 136 (in the second chunk)
            let photos = (0..<140).map { Media.data(Fixture.tinyJPEG("photo \($0)"), filename: "p\($0).jpg") }
            let saved = await PhotoLibrary(backend: backend).album(titled: "Trips").save(photos)
            // Then photo 136 is that file, already there, and no second copy is made
            let result = try saved[136].get()
            #expect(result.isExisting && result.assetID.hasSuffix("/fromcamera.jpg"))
            #expect(FolderFixture.visible(in: folder).count == 140)
            #expect(saved.allSatisfy { $0.value != nil })
        }
    }

    /// A photo edited in place with its modification time put back (`exiftool -P`, `touch -r`) was
    /// still "already there" for its old bytes: the cache of digests did not look at `ctime`.
    @Test func aPhotoEditedInPlaceWithItsTimePutBackIsNotTakenForItsOldBytes() async throws {
        try await FolderFixture.withRoot { root, _ in
            let album = try FolderFixture.library(root).album(titled: "Trips")
            // Larger than the two 16 KiB ends that tell same-size files apart: only the SHA-256 can
            let original =
                Fixture.tinyJPEG("before the edit") + Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
            _ = try await album.save(.data(original, filename: "a.jpg"))
            let file = root.appendingPathComponent("Trips/a.jpg")
            // Given the file edited in place (same size), its times put back
            var before = stat()
            #expect(stat(file.path, &before) == 0)
            var edited = original
            edited[edited.count / 2] ^= 0xFF
            let handle = try FileHandle(forWritingTo: file)
            try handle.write(contentsOf: edited)
            try handle.close()
            let times = [before.st_atim, before.st_mtim]
            #expect(utimensat(AT_FDCWD, file.path, times, 0) == 0)
            // When the original bytes are saved again
            let again = try await album.save(.data(original, filename: "a.jpg"))
            // Then they are saved as a new file, not reported as the edited one
            #expect(!again.isExisting && again.assetID.hasSuffix("/a 2.jpg"))
            #expect(try Data(contentsOf: root.appendingPathComponent("Trips/a 2.jpg")) == original)
        }
    }

    @Test func aNameTakenBetweenListingAndPublishingIsNeverOverwritten() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given another program that writes IMG.jpg into the album just before ours is named
            let folder = root.appendingPathComponent("Trips")
            let backend = FolderBackend(root: root, trash: FolderFixture.trash(root)) { name in
                let theirs = folder.appendingPathComponent(name)
                guard name == "IMG.jpg", !FileManager.default.fileExists(atPath: theirs.path) else { return }
                _ = try? FolderFixture.write(Fixture.tinyJPEG("theirs"), named: name, in: folder)
            }
            let album = PhotoLibrary(backend: backend).album(titled: "Trips")
            _ = try await album.save(.data(Fixture.tinyJPEG("first"), filename: "first.jpg"))
            // When a photo named IMG.jpg is saved
            let saved = try await album.save(.data(Fixture.tinyJPEG("ours"), filename: "IMG.jpg"))
            // Then theirs keeps its name and bytes, and ours is numbered
            #expect(try Data(contentsOf: folder.appendingPathComponent("IMG.jpg")) == Fixture.tinyJPEG("theirs"))
            #expect(saved.assetID.hasSuffix("/IMG 2.jpg"))
            #expect(try Data(contentsOf: folder.appendingPathComponent("IMG 2.jpg")) == Fixture.tinyJPEG("ours"))
        }
    }

    @Test func differentFileWithTheSameNameGetsANumber() async throws {
        try await FolderFixture.withRoot { root, _ in
            let album = try FolderFixture.library(root).album(titled: "Trips")
            // Given three different photos all named IMG.jpg
            for tag in ["1", "2", "3"] {
                _ = try await album.save(.data(Fixture.tinyJPEG(tag), filename: "IMG.jpg"))
            }
            // Then they are kept side by side
            #expect(
                FolderFixture.visible(in: root.appendingPathComponent("Trips")) == [
                    "IMG 2.jpg", "IMG 3.jpg", "IMG.jpg",
                ])
        }
    }

    @Test func batchWithDuplicatesAndABadFile() async throws {
        try await FolderFixture.withRoot { root, _ in
            let album = try FolderFixture.library(root).album(titled: "Batch")
            // Given a batch: two identical photos, a text file, a different photo with the same name
            let results = await album.save([
                .data(Fixture.tinyJPEG("x"), filename: "p.jpg"),
                .data(Fixture.tinyJPEG("x"), filename: "p.jpg"),
                .data(Data("hello".utf8), filename: "notes.jpg"),
                .data(Fixture.tinyJPEG("y"), filename: "p.jpg"),
            ])
            // Then the bad file fails alone and the duplicate is reported as existing
            #expect(try results[0].get().isExisting == false)
            #expect(try results[1].get().isExisting == true)
            #expect((try? results[2].get()) == nil)
            if case .failure(let error) = results[2] { #expect(error.code == .notMedia) }
            #expect(try results[3].get().assetID.hasSuffix("/p 2.jpg"))
            let folder = root.appendingPathComponent("Batch")
            #expect(FolderFixture.visible(in: folder) == ["p 2.jpg", "p.jpg"])
            FolderFixture.expectOnlyCompleteMedia(in: folder)
        }
    }

    @Test func escapedSlashStaysInOneFolderAndHiddenTitlesStayVisible() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            // When saving into "AC\/DC" (a literal slash) and ".hidden"
            _ = try await library.album(titled: #"AC\/DC"#).save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            _ = try await library.album(titled: ".hidden").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            // Then the folders are visible single components, and the titles are kept
            #expect(FolderFixture.visible(in: root) == ["AC\u{2215}DC", "_hidden"])
            #expect(Set(try await library.albums().map(\.title)) == [#"AC\/DC"#, ".hidden"])
            // And the look-alike slash typed directly names the same album
            #expect(
                try await library.album(titled: "AC\u{2215}DC").save(.data(Fixture.tinyPNG(), filename: "b.png"))
                    .albumOutcome == .found)
        }
    }

    @Test func nestedTitleCreatesNestedFolders() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            // When saving into "Trips/2024" twice, the second time typed with spaces
            let first = try await library.album(titled: "Trips/2024").save(
                .data(Fixture.tinyJPEG(), filename: "a.jpg"))
            let second = try await library.album(titled: " Trips / 2024 ").save(
                .data(Fixture.tinyPNG(), filename: "b.png"))
            // Then one nested folder holds both, listed by its path
            #expect(first.albumOutcome == .created && second.albumOutcome == .found)
            #expect(second.albumID == first.albumID)
            #expect(FolderFixture.visible(in: root) == ["Trips"])
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Trips/2024")) == ["a.jpg", "b.png"])
            #expect(try await library.albums().map(\.title) == ["Trips/2024"])
            #expect(try await library.assets(inAlbumTitled: "Trips/2024").count == 2)
        }
    }

    @Test func librarySaveGoesToTheRoot() async throws {
        try await FolderFixture.withRoot { root, _ in
            // When saving without an album
            let saved = try await PhotoLibrary.folders(at: root).save(
                .data(Fixture.tinyJPEG(), filename: "loose.jpg"))
            // Then the file is at the root and its id is its name
            #expect(saved.albumID == nil && saved.assetID == "loose.jpg")
            #expect(FolderFixture.visible(in: root) == ["loose.jpg"])
        }
    }

    @Test func deletedAlbumFolderIsRecreated() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            let first = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("1"), filename: "1.jpg"))
            // Given the user deleted the album folder
            try FileManager.default.removeItem(at: root.appendingPathComponent("Trips"))
            // When saving again
            let second = try await library.album(titled: "Trips").save(
                .data(Fixture.tinyJPEG("2"), filename: "2.jpg"))
            // Then a new album folder is made, and the result says so
            #expect(second.albumOutcome == .recreated)
            #expect(second.albumID != first.albumID)
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Trips")) == ["2.jpg"])
        }
    }

    @Test func renamedAlbumFolderIsFollowed() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            let first = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("1"), filename: "1.jpg"))
            // Given the user renamed the folder in a file manager
            try FileManager.default.moveItem(
                at: root.appendingPathComponent("Trips"), to: root.appendingPathComponent("Holidays 2026"))
            // When saving to the old title
            let second = try await library.album(titled: "Trips").save(
                .data(Fixture.tinyJPEG("2"), filename: "2.jpg"))
            // Then the renamed folder is used (same id) and listed under its new name
            #expect(second.albumOutcome == .found && second.albumID == first.albumID)
            #expect(FolderFixture.visible(in: root) == ["Holidays 2026"])
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Holidays 2026")) == ["1.jpg", "2.jpg"])
            let albums = try await library.albums()
            #expect(albums.map(\.title) == ["Holidays 2026"] && albums[0].id == first.albumID)

            // And once a folder is named like the title again, the title means that folder: the
            // album `albums` lists under it (issue 10, item 2)
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("Trips"), withIntermediateDirectories: false)
            let third = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("3"), filename: "3.jpg"))
            #expect(third.albumID != first.albumID)
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Trips")) == ["3.jpg"])
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Holidays 2026")) == ["1.jpg", "2.jpg"])
        }
    }

    @Test func unmarkedUserFolderIsAdoptedWithAStableID() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given a folder the user made, with a photo in it
            try FolderFixture.write(
                Fixture.tinyJPEG("old"), named: "old.jpg", in: root.appendingPathComponent("Wallpapers"))
            let library = try FolderFixture.library(root)
            let listed = try await library.albums()
            #expect(listed.map(\.title) == ["Wallpapers"] && listed[0].count == 1)

            // When saving into it by title
            let saved = try await library.album(titled: "Wallpapers").save(
                .data(Fixture.tinyJPEG("new"), filename: "new.jpg"))

            // Then it is found, keeps the id it was listed with, and is now marked
            #expect(saved.albumOutcome == .found && saved.albumID == listed[0].id)
            #expect(
                FolderFixture.all(in: root.appendingPathComponent("Wallpapers")).contains(FolderAlbumMarker.fileName))
            #expect(try await library.albums().map(\.id) == [listed[0].id])
        }
    }

    @Test func idsAreStableAcrossRuns() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given an album saved by one library instance
            let saved = try await PhotoLibrary.folders(at: root).album(titled: "Trips").save(
                .data(Fixture.tinyJPEG(), filename: "a.jpg"))
            // When another instance (a later run) lists it
            let later = try FolderFixture.library(root)
            let albums = try await later.albums()
            let assets = try await later.assets(inAlbumTitled: "Trips")
            // Then the ids are the same
            #expect(albums.map(\.id) == [saved.albumID!])
            #expect(assets.map(\.id) == [saved.assetID])
        }
    }

    @Test func missingRootIsReportedAndNothingIsWritten() async throws {
        try await FolderFixture.withRoot { root, parent in
            // Given a library on a folder that does not exist (an unmounted disk)
            let missing = parent.appendingPathComponent("Unmounted/Photos")
            let library = try PhotoLibrary.folders(at: missing)
            let before = FolderFixture.all(in: parent)
            // When saving, listing or creating
            let save = await Fixture.errorCode {
                try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            }
            let list = await Fixture.errorCode { try await library.albums() }
            let create = await Fixture.errorCode { try await library.createAlbum(titled: "Trips") }
            let plain = await Fixture.errorCode {
                try await library.save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            }
            // Then each is .libraryNotFound and nothing appeared anywhere
            #expect(
                [save, list, create, plain] == [.libraryNotFound, .libraryNotFound, .libraryNotFound, .libraryNotFound])
            #expect(FolderFixture.all(in: parent) == before)
        }
    }

    @Test func rootThatIsAFileIsRefusedAtOpen() async throws {
        try await FolderFixture.withRoot { _, parent in
            let file = try FolderFixture.write(Data("x".utf8), named: "file", in: parent)
            #expect(await Fixture.errorCode { try PhotoLibrary.folders(at: file) } == .libraryNotFound)
        }
    }

    @Test func symlinkedAlbumFolderIsRefused() async throws {
        try await FolderFixture.withRoot { root, parent in
            // Given an album "Trips" that is a symlink to a folder outside the library
            let outside = parent.appendingPathComponent("Outside")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                at: root.appendingPathComponent("Trips"), withDestinationURL: outside)
            let library = try FolderFixture.library(root)

            // When saving into "Trips"
            let saved = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))

            // Then nothing is written outside; the symlink is not an album, so a real folder is made
            #expect(FolderFixture.all(in: outside).isEmpty)
            #expect(saved.albumOutcome == .created)
            #expect(FolderFixture.visible(in: root) == ["Trips", "Trips 2"])
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Trips 2")) == ["a.jpg"])
            #expect(try await library.albums().map(\.title) == ["Trips"])
        }
    }

    @Test func albumFolderSwappedForASymlinkIsRefused() async throws {
        try await FolderFixture.withRoot { root, parent in
            // Given a real album, later replaced by a symlink to a folder outside (with a copied marker)
            let library = try FolderFixture.library(root)
            _ = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("1"), filename: "1.jpg"))
            let outside = parent.appendingPathComponent("Outside")
            try FileManager.default.moveItem(at: root.appendingPathComponent("Trips"), to: outside)
            try FileManager.default.createSymbolicLink(
                at: root.appendingPathComponent("Trips"), withDestinationURL: outside)
            // When saving again
            _ = try? await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("2"), filename: "2.jpg"))
            // Then nothing new was written outside the root
            #expect(FolderFixture.visible(in: outside) == ["1.jpg"])
        }
    }

    @Test func fiftyConcurrentSavesMakeOneAlbum() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            // When 50 saves run at once into a new album
            let results = await withTaskGroup(of: Result<SavedAsset, AlbumError>.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        await library.album(titled: "Concurrent").save(
                            [.data(Fixture.tinyJPEG("\(index)"), filename: "IMG_\(index).jpg")])[0]
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            // Then there is one album folder with 50 files, and exactly one save created it
            let saved = results.compactMap { try? $0.get() }
            #expect(saved.count == 50)
            #expect(Set(saved.compactMap(\.albumID)).count == 1)
            #expect(saved.filter { $0.albumOutcome == .created }.count == 1)
            #expect(FolderFixture.visible(in: root) == ["Concurrent"])
            #expect(FolderFixture.visible(in: root.appendingPathComponent("Concurrent")).count == 50)
            FolderFixture.expectOnlyCompleteMedia(in: root.appendingPathComponent("Concurrent"))
        }
    }

    @Test func twoLibraryInstancesSavingAtOnceMakeOneAlbum() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given two instances (different identities for the in-process gate: only the flock serializes)
            let a = PhotoLibrary(backend: FolderBackend(root: root))
            let b = PhotoLibrary(backend: FolderBackend(root: URL(fileURLWithPath: root.path + "/./")))
            let results = await withTaskGroup(of: Result<SavedAsset, AlbumError>.self) { group in
                for index in 0..<20 {
                    let library = index.isMultiple(of: 2) ? a : b
                    group.addTask {
                        await library.album(titled: "Shared").save([
                            .data(Fixture.tinyJPEG("\(index)"), filename: "\(index).jpg")
                        ])[0]
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy { (try? $0.get()) != nil })
            #expect(FolderFixture.visible(in: root) == ["Shared"])
        }
    }
}
