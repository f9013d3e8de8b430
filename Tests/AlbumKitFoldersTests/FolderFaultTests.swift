import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@testable import AlbumKitCore
@testable import AlbumKitFolders

/// Failures injected into the system calls (debug builds): after any of them the album folder
/// holds only complete media files and no hidden leftover.
@Suite("Folder library: faults")
struct FolderFaultTests {
    /// A library whose album "Trips" already holds `first.jpg`.
    private func withExistingAlbum(
        _ body: (_ root: URL, _ folder: URL, _ library: PhotoLibrary) async throws -> Void
    ) async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            _ = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("first"), filename: "first.jpg"))
            try await body(root, root.appendingPathComponent("Trips"), library)
        }
    }

    private func stagingLeftovers(_ root: URL) -> [String] {
        FolderFixture.all(in: root.appendingPathComponent(".albumkit/staging"))
    }

    @Test func noSpaceWhileWriting() async throws {
        try await withExistingAlbum { root, folder, library in
            // Given the disk fills up while the photo is copied
            FaultInjector.inject(.write, under: root.path + "/.albumkit", errno: ENOSPC)
            // When saving
            let code = await Fixture.errorCode {
                try await library.album(titled: "Trips").save(
                    .data(Fixture.tinyJPEG("second"), filename: "second.jpg"))
            }
            // Then .notEnoughSpace, and the album is as before
            #expect(code == .notEnoughSpace)
            #expect(FolderFixture.visible(in: folder) == ["first.jpg"])
            FolderFixture.expectOnlyCompleteMedia(in: folder, sources: [Fixture.tinyJPEG("first")])
            #expect(stagingLeftovers(root).isEmpty)
        }
    }

    @Test func noSpaceWhileCreatingTheAlbumFolder() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given mkdir fails for lack of space
            FaultInjector.inject(.mkdir, under: root.path + "/.albumkit/staging/", errno: ENOSPC)
            let library = try FolderFixture.library(root)
            // When saving into a new album
            let code = await Fixture.errorCode {
                try await library.album(titled: "New").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            }
            // Then nothing visible appeared
            #expect(code == .notEnoughSpace)
            #expect(FolderFixture.visible(in: root).isEmpty)
        }
    }

    @Test func nameTakenAtPublishTakesTheNextName() async throws {
        try await withExistingAlbum { root, folder, library in
            // Given another program grabs the name at the moment of publishing (EEXIST once)
            FaultInjector.inject(.publish, under: folder.path + "/", errno: EEXIST, times: 1)
            // When saving
            let saved = try await library.album(titled: "Trips").save(
                .data(Fixture.tinyJPEG("second"), filename: "second.jpg"))
            // Then the file is published under the next free name, never over another file
            #expect(saved.assetID.hasSuffix("/second 2.jpg"))
            #expect(FolderFixture.visible(in: folder) == ["first.jpg", "second 2.jpg"])
            FolderFixture.expectOnlyCompleteMedia(
                in: folder, sources: [Fixture.tinyJPEG("first"), Fixture.tinyJPEG("second")])
        }
    }

    @Test func folderMissingAtPublishIsRetried() async throws {
        try await withExistingAlbum { root, folder, library in
            // Given publishing fails once with ENOENT (the folder seemed gone)
            FaultInjector.inject(.publish, under: folder.path + "/", errno: ENOENT, times: 1)
            // When saving
            let saved = try await library.album(titled: "Trips").save(
                .data(Fixture.tinyJPEG("second"), filename: "second.jpg"))
            // Then the saver re-resolved and retried; the file is there once
            #expect(FolderFixture.visible(in: folder) == ["first.jpg", "second.jpg"])
            #expect(saved.albumOutcome == .found || saved.albumOutcome == .recreated)
            FolderFixture.expectOnlyCompleteMedia(
                in: folder, sources: [Fixture.tinyJPEG("first"), Fixture.tinyJPEG("second")])
        }
    }

    @Test func folderDeletedMidSaveIsRecreated() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given a library where the user deletes the album folder right before the first publish
            let folder = root.appendingPathComponent("Trips")
            let deleted = Locked(false)
            let backend = FolderBackend(root: root) { _ in
                let first = deleted.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { try? FileManager.default.removeItem(at: folder) }
            }
            let library = PhotoLibrary(backend: backend)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            _ = try await library.createAlbum(titled: "Trips")

            // When saving
            let saved = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("x"), filename: "x.jpg"))

            // Then the folder was recreated and holds the complete file
            #expect(saved.albumOutcome == .recreated)
            #expect(FolderFixture.visible(in: folder) == ["x.jpg"])
            FolderFixture.expectOnlyCompleteMedia(in: folder, sources: [Fixture.tinyJPEG("x")])
        }
    }

    @Test func ioErrorFlushingThePhoto() async throws {
        try await withExistingAlbum { root, folder, library in
            // Given fsync of the staged photo fails
            FaultInjector.inject(.fsync, under: root.path + "/.albumkit/staging", errno: EIO)
            // When saving
            let code = await Fixture.errorCode {
                try await library.album(titled: "Trips").save(
                    .data(Fixture.tinyJPEG("second"), filename: "second.jpg"))
            }
            // Then the save fails and nothing was published
            #expect(code == .ioFailure)
            #expect(FolderFixture.visible(in: folder) == ["first.jpg"])
            FolderFixture.expectOnlyCompleteMedia(in: folder, sources: [Fixture.tinyJPEG("first")])
            #expect(stagingLeftovers(root).isEmpty)
        }
    }

    @Test func ioErrorFlushingTheAlbumFolderRollsBack() async throws {
        try await withExistingAlbum { root, folder, library in
            // Given fsync of the album folder fails after the files were published
            FaultInjector.inject(.fsync, under: folder.path, errno: EIO)
            // When saving a batch
            let results = await library.album(titled: "Trips").save([
                .data(Fixture.tinyJPEG("2"), filename: "2.jpg"), .data(Fixture.tinyJPEG("3"), filename: "3.jpg"),
            ])
            // Then the whole batch failed and its published files were removed again
            #expect(results.allSatisfy { (try? $0.get()) == nil })
            #expect(FolderFixture.visible(in: folder) == ["first.jpg"])
            FolderFixture.expectOnlyCompleteMedia(in: folder, sources: [Fixture.tinyJPEG("first")])
        }
    }

    @Test func failedSaveIntoANewAlbumLeavesNoFolder() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given fsync of every album folder fails (the new album's folder included)
            FaultInjector.inject(.fsync, under: root.path + "/New", errno: EIO)
            let library = try FolderFixture.library(root)
            // When saving into a new album
            let code = await Fixture.errorCode {
                try await library.album(titled: "New").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            }
            // Then no half-made album is left visible
            #expect(code == .ioFailure)
            #expect(FolderFixture.visible(in: root).isEmpty)
        }
    }

    @Test func openSweepsLeftoversOfDeadProcesses() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given staging leftovers of a process that is gone, and one of this process
            let library = try FolderFixture.library(root)
            _ = try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            let staging = root.appendingPathComponent(".albumkit/staging")
            try FolderFixture.write(
                Fixture.tinyJPEG("half").prefix(20), named: ".p999999-00000000000000ff.dead.partial", in: staging)
            try FileManager.default.createDirectory(
                at: staging.appendingPathComponent(".p999999-00000000000000ff.dead.album"),
                withIntermediateDirectories: true)
            let mine = FolderLibraryState.stagingName(kind: "partial")
            try FolderFixture.write(Data([1]), named: mine, in: staging)

            // Then verify reports the dead ones
            let report = try await library.verify()
            #expect(report.problems.count == 2)

            // When the library is opened again
            let reopened = try FolderFixture.library(root)

            // Then they are gone, this process's own file stays, and the library is healthy
            #expect(FolderFixture.all(in: staging) == [mine])
            #expect(try await reopened.verify().isHealthy)
        }
    }
    @Test func verifySaysWhenLeftoversCannotBeChecked() async throws {
        try await withExistingAlbum { root, _, library in
            // Given the staging folder cannot be read
            FaultInjector.inject(.open, under: root.path + "/.albumkit/staging", errno: EIO)
            // When verifying
            let report = try await library.verify()
            // Then the report says so instead of claiming there are no leftovers
            #expect(!report.isHealthy)
            #expect(
                report.problems.contains {
                    $0.hasPrefix(".albumkit/staging cannot be checked") && $0.contains("staging")
                })
        }
    }

    @Test func verifySaysWhenNamesCannotBeSearched() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given a library folder that cannot be opened for the search of names
            FaultInjector.inject(.open, under: root.path, errno: EIO)
            // When looking for names that are not UTF-8
            let problems = FolderBackend.namesNotUTF8(under: root)
            // Then that is a problem, not an all-clear
            #expect(problems.count == 1)
            #expect(problems.first?.contains("cannot be searched for names that are not UTF-8") == true)
        }
    }
}
