import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitFolders

#if canImport(Glibc)
    import Glibc
#endif

/// Cases a review of the batch staging and naming changes found.
@Suite("Folder library: slashes with combining marks, staging removed mid-batch")
struct FolderRedTeamTests {
    @Test func aSlashFollowedByACombiningMarkNeverLeavesANameOrTheLibrary() async throws {
        // Given titles and file names where "/" and a combining accent form one Character
        let slashAccent = "/\u{301}"
        #expect(FolderAlbumPath.levels(of: "x\(slashAccent)y") == ["x", "\u{301}y"])
        #expect(!FolderNaming.safeComponent("a\(slashAccent)b", fallback: "X").unicodeScalars.contains("/"))
        #expect(!FolderNaming.fileName(original: "\(slashAccent)etc.jpg", format: .jpeg).unicodeScalars.contains("/"))
        try await FolderFixture.withRoot { root, parent in
            // When an album is created whose title starts with such a slash
            let library = try FolderFixture.library(root)
            let probe = "albumkit-probe-\(UUID().uuidString)"
            let saved = try await library.album(titled: "\(slashAccent)\(probe)").save(
                .data(Fixture.tinyJPEG(), filename: "\(slashAccent)\(probe).jpg"))
            // Then its folder and file are inside the library, not at the file system's root
            #expect(saved.albumOutcome == .created)
            #expect(!FileManager.default.fileExists(atPath: "/\u{301}\(probe)"))
            #expect(FolderFixture.visible(in: root) == ["\u{301}\(probe)"])
            #expect(FolderFixture.visible(in: parent).sorted() == ["Pictures"])
        }
    }

    @Test func aStemOfZeroWidthSpacesGetsADatedName() {
        let name = FolderNaming.fileName(
            original: "\u{200B}\u{200B}.jpg", format: .jpeg, date: Date(timeIntervalSince1970: 0))
        #expect(name.hasPrefix("IMG_1970"))
    }

    @Test func stagingRemovedMidBatchIsRecreatedForTheRest() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given a folder library and a batch of 24 photos
            let backend = FolderBackend(root: root, trash: FolderFixture.trash(root))
            let media = (0..<24).map { Media.data(Fixture.tinyJPEG("batch \($0)"), filename: "IMG_\($0).jpg") }
            let staging = root.appendingPathComponent(".albumkit/staging")
            let removed = Locked(false)
            // When `.albumkit/staging/` is removed as soon as the first photo is staged
            let results = await backend.stage(media) {
                let first = removed.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { try? FileManager.default.removeItem(at: staging) }
            }
            for case .success(let item) in results { await backend.discard(item) }
            // Then the folder is made again and the rest are staged (one photo staged at that very
            // moment on the other thread may fail; before, every later photo of the batch failed)
            #expect(removed.withLock { $0 })
            let failed = results.filter { if case .failure = $0 { true } else { false } }.count
            #expect(failed <= 1, "\(failed) of 24 failed")
            #expect(FileManager.default.fileExists(atPath: staging.path))
        }
    }
}

/// Cases a red-team pass on the folder library found (2026-12-01): photos whose names are not
/// UTF-8 were not seen by `delete`, and a copy of a renamed album took its identifier.
@Suite("Folder library: names that are not UTF-8, copies of renamed albums")
struct FolderIdentityRedTeamTests {
    @Test func anAlbumHoldingOnlyPhotosWhoseNamesAreNotUTF8IsNotEmpty() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            _ = try await library.album(titled: "U").save(.data(Fixture.tinyJPEG("a"), filename: "a.jpg"))
            let folder = root.appendingPathComponent("U")
            try FileManager.default.removeItem(at: folder.appendingPathComponent("a.jpg"))
            // A photo named with the byte FF (Latin-1 archives, old cameras).
            let odd = Array(folder.path.utf8) + Array("/q".utf8) + [0xFF] + Array(".jpg".utf8)
            let fd = open(odd.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_EXCL, 0o644)
            #expect(fd >= 0)
            close(fd)
            let marker = try Data(contentsOf: folder.appendingPathComponent(FolderAlbumMarker.fileName))
            // verify says where such a photo is (the library cannot list it under its name).
            let problems = try await library.verify().problems
            #expect(
                problems.count == 1 && problems[0].contains("U/q\u{FFFD}.jpg: its name is not valid UTF-8"),
                "\(problems)")
            // Neither delete goes on without force; the album keeps its marker, so its identity.
            for permanently in [false, true] {
                let code = await Fixture.errorCode {
                    try await library.deleteAlbum(titled: "U", permanently: permanently)
                }
                #expect(code == .albumNotEmpty)
            }
            #expect(FileManager.default.fileExists(atPath: String(decoding: odd, as: UTF8.self)) == false)  // U+FFFD
            #expect(access(odd.map { CChar(bitPattern: $0) } + [0], F_OK) == 0)
            #expect(try Data(contentsOf: folder.appendingPathComponent(FolderAlbumMarker.fileName)) == marker)
            #expect(FolderFixture.all(in: URL(fileURLWithPath: FolderFixture.trash(root).homeTrash)).isEmpty)
            // verify also names them where no album is listed at all: a folder holding only such a
            // photo, and a folder whose own name is not UTF-8 (once, not for each photo in it).
            func create(_ bytes: [UInt8], folder: Bool = false) {
                let path = bytes.map { CChar(bitPattern: $0) } + [0]
                if folder { #expect(mkdir(path, 0o755) == 0) } else { close(open(path, O_WRONLY | O_CREAT, 0o644)) }
            }
            let base = Array(root.path.utf8)
            create(base + Array("/Only".utf8), folder: true)
            create(base + Array("/Only/".utf8) + [0xFE, 0xFE] + Array(".jpg".utf8))
            create(base + Array("/Bad".utf8) + [0xFF] + Array("Dir".utf8), folder: true)
            create(base + Array("/Bad".utf8) + [0xFF] + Array("Dir/a.jpg".utf8))
            create(base + Array("/Bad".utf8) + [0xFF] + Array("Dir/b.jpg".utf8))
            let all = try await library.verify().problems
            #expect(all.count == 3, "\(all)")
            #expect(all.contains { $0.hasPrefix("Only/\u{FFFD}\u{FFFD}.jpg: its name is not valid UTF-8") })
            #expect(
                all.contains {
                    $0.hasPrefix(
                        "Bad\u{FFFD}Dir: its name is not valid UTF-8, so the library does not list it or what it holds")
                })
            // (Names FileManager cannot remove: removed here.)
            #expect(FolderFixture.run("/bin/rm", "-rf", root.path) == 0)
        }
    }

    @Test func aRenamedAlbumKeepsItsIdentifierOverACopyOfIt() async throws {
        for copyFirst in [false, true] {
            try await FolderFixture.withRoot { root, _ in
                let library = try FolderFixture.library(root)
                let saved = try await library.album(titled: "Trips").save(
                    .data(Fixture.tinyJPEG("t"), filename: "t.jpg"))
                let id = try #require(saved.albumID)
                let original = root.appendingPathComponent("Trips")
                let renamed = root.appendingPathComponent("Trips2023")
                // The copy sorts first by name ("Backup" < "Trips2023"), as it did when it won.
                let copy = root.appendingPathComponent("Backup")
                if copyFirst {
                    #expect(FolderFixture.run("/bin/cp", "-a", original.path, copy.path) == 0)
                    try FileManager.default.moveItem(at: original, to: renamed)
                } else {
                    try FileManager.default.moveItem(at: original, to: renamed)
                    #expect(FolderFixture.run("/bin/cp", "-a", renamed.path, copy.path) == 0)
                }
                let albums = try await library.albums()
                #expect(albums.first { $0.id == id }?.title == "Trips2023", "copy first: \(copyFirst)")
                // A save by the old id lands in the renamed folder, not in the copy.
                _ = try await library.album(withID: id, accessPolicy: .requireAlbum).save(
                    .data(Fixture.tinyJPEG("u"), filename: "u.jpg"))
                #expect(FolderFixture.visible(in: renamed).contains("u.jpg"))
                #expect(!FolderFixture.visible(in: copy).contains("u.jpg"))
            }
        }
    }
}
