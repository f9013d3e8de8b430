import AlbumKitMedia
import Foundation
import Testing

@testable import AlbumKitCore

#if canImport(Glibc)
    import Glibc
#endif

/// A FIFO named like an album marker or like `.albumkit/albums.json` is never waited on: it is
/// no marker (and is kept), and the remembered albums are empty.
@Suite("Folder library: FIFOs in place of AlbumKit's own files")
struct FolderFIFOBookkeepingTests {
    /// Runs `body` while a watchdog, from `grace` seconds on, opens the FIFOs at `fifos` for
    /// writing and closes them again: that succeeds only while someone has a FIFO open for
    /// reading, which then reads its end and stops waiting. Returns how often that rescued a
    /// reader (0 when nothing waited on a FIFO).
    static func countingWaitsOnFIFOs(
        _ fifos: [String], grace: Double = 1, _ body: () async throws -> Void
    ) async throws -> Int {
        let state = Locked((done: false, rescued: 0))
        let watchdog = Thread {
            Thread.sleep(forTimeInterval: grace)
            while !state.withLock({ $0.done }) {
                for fifo in fifos {
                    let fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                    if fd >= 0 {
                        state.withLock { $0.rescued += 1 }
                        close(fd)
                    }
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        watchdog.start()
        defer { state.withLock { $0.done = true } }
        try await body()
        return state.withLock { $0.rescued }
    }

    @Test func readingASmallFileThatIsAFIFOFailsAtOnce() async throws {
        try await FolderFixture.withRoot { root, _ in
            let fifo = root.appendingPathComponent(FolderAlbumMarker.fileName).path
            #expect(mkfifo(fifo, 0o644) == 0)
            let folder = try FileSystem.openRoot(root.path)
            defer { FileSystem.close(folder) }
            let waits = try await Self.countingWaitsOnFIFOs([fifo]) {
                #expect(throws: SystemError.self) {
                    try FileSystem.readSmallFile(FolderAlbumMarker.fileName, in: folder)
                }
                let marker = try FolderAlbumMarker.read(in: folder)
                #expect(marker == nil)
            }
            #expect(waits == 0)
        }
    }

    @Test func aFIFOMarkerIsNoMarkerAndIsKept() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            // Given an album T, and a folder U with a photo and a FIFO named like a marker
            _ = try await library.album(titled: "T").save(.data(FolderFixture.jpeg("t"), filename: "t.jpg"))
            let folder = root.appendingPathComponent("U")
            try FolderFixture.write(FolderFixture.jpeg("u"), named: "u.jpg", in: folder)
            let fifo = folder.appendingPathComponent(FolderAlbumMarker.fileName).path
            #expect(mkfifo(fifo, 0o644) == 0)
            // When albums are listed, a new album is saved into, U is saved into, verified and deleted
            let waits = try await Self.countingWaitsOnFIFOs([fifo]) {
                #expect(Set(try await library.albums().map(\.title)) == ["T", "U"])
                _ = try await library.album(titled: "New").save(.data(FolderFixture.jpeg("n"), filename: "n.jpg"))
                let saved = try await library.album(titled: "U").save(
                    .data(FolderFixture.jpeg("u2"), filename: "u2.jpg"))
                #expect(saved.albumOutcome == .found)
                _ = try await library.verify()
                try await library.deleteAlbum(titled: "T", force: true)
                #expect(Set(try await library.albums().map(\.title)) == ["New", "U"])
            }
            // Then nothing waited on the FIFO, and it is still there, still a FIFO
            #expect(waits == 0)
            var info = stat()
            #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
            #expect(FolderFixture.visible(in: folder) == ["u.jpg", "u2.jpg"])
        }
    }

    @Test func aFIFOInPlaceOfTheRememberedAlbumsIsNeverWaitedOn() async throws {
        try await FolderFixture.withRoot { root, _ in
            let library = try FolderFixture.library(root)
            _ = try await library.album(titled: "T").save(.data(FolderFixture.jpeg("t"), filename: "t.jpg"))
            let remembered = root.appendingPathComponent(".albumkit/albums.json").path
            try FileManager.default.removeItem(atPath: remembered)
            #expect(mkfifo(remembered, 0o644) == 0)
            let waits = try await Self.countingWaitsOnFIFOs([remembered]) {
                #expect(try await library.albums().map(\.title) == ["T"])
                _ = try await library.album(titled: "T").save(.data(FolderFixture.jpeg("t2"), filename: "t2.jpg"))
                _ = try await library.verify()
            }
            #expect(waits == 0)
        }
    }
}
