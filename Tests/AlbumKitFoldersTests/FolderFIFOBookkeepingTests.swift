import AlbumKitConformance
import AlbumKitFoldersTestSupport
import AlbumKitMedia
import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitFolders

#if canImport(Glibc)
    import Glibc
#endif

/// A FIFO named like an album marker or like `.albumkit/albums.json` is never waited on: it is
/// no marker (and is kept), and the remembered albums are empty.
/// Serialized: a watchdog sees every thread of the process blocked on a FIFO, so the self-test's
/// deliberate wait must not run beside the others.
@Suite("Folder library: FIFOs in place of AlbumKit's own files", .serialized)
struct FolderFIFOBookkeepingTests {
    /// Runs `body` while a watchdog looks, every 50 ms, for a thread of this process blocked
    /// opening a FIFO (its `/proc` `wchan` is the kernel's `wait_for_partner`); it counts such a
    /// wait and frees the reader by opening the FIFOs at `fifos` for writing and closing them again.
    /// Returns how many waits it saw (0 when nothing waited on a FIFO). Only a thread that is
    /// blocked counts: an open that does not wait (`O_NONBLOCK`) is never mistaken for one, however
    /// slow the machine.
    static func countingWaitsOnFIFOs(_ fifos: [String], _ body: () async throws -> Void) async throws -> Int {
        let state = Locked((done: false, waits: 0))
        let watchdog = Thread {
            while !state.withLock({ $0.done }) {
                if Self.threadsWaitingOnAFIFO() > 0 {
                    state.withLock { $0.waits += 1 }
                    for fifo in fifos {
                        let fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                        if fd >= 0 { close(fd) }
                    }
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        watchdog.start()
        defer { state.withLock { $0.done = true } }
        try await body()
        return state.withLock { $0.waits }
    }

    /// The threads of this process blocked in the kernel opening a FIFO that has no writer.
    static func threadsWaitingOnAFIFO() -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let wchan = try? String(contentsOfFile: "/proc/self/task/\(task)/wchan", encoding: .utf8)
            return wchan?.hasPrefix("wait_for_partner") == true
        }.count
    }

    @Test func theWatchdogSeesAThreadBlockedOnAFIFO() async throws {
        try await FolderFixture.withRoot { root, _ in
            let fifo = root.appendingPathComponent("pipe").path
            #expect(mkfifo(fifo, 0o644) == 0)
            let opened = Locked(false)
            let waits = try await Self.countingWaitsOnFIFOs([fifo]) {
                let reader = Thread {
                    let fd = open(fifo, O_RDONLY | O_CLOEXEC)  // blocks until the watchdog opens it
                    if fd >= 0 { close(fd) }
                    opened.withLock { $0 = true }
                }
                reader.start()
                for _ in 0..<500 where !opened.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(opened.withLock { $0 })
            #expect(waits >= 1)
        }
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
            _ = try await library.album(titled: "T").save(.data(Fixture.tinyJPEG("t"), filename: "t.jpg"))
            let folder = root.appendingPathComponent("U")
            try FolderFixture.write(Fixture.tinyJPEG("u"), named: "u.jpg", in: folder)
            let fifo = folder.appendingPathComponent(FolderAlbumMarker.fileName).path
            #expect(mkfifo(fifo, 0o644) == 0)
            // When albums are listed, a new album is saved into, U is saved into, verified and deleted
            let waits = try await Self.countingWaitsOnFIFOs([fifo]) {
                #expect(Set(try await library.albums().map(\.title)) == ["T", "U"])
                _ = try await library.album(titled: "New").save(.data(Fixture.tinyJPEG("n"), filename: "n.jpg"))
                let saved = try await library.album(titled: "U").save(
                    .data(Fixture.tinyJPEG("u2"), filename: "u2.jpg"))
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
            _ = try await library.album(titled: "T").save(.data(Fixture.tinyJPEG("t"), filename: "t.jpg"))
            let remembered = root.appendingPathComponent(".albumkit/albums.json").path
            try FileManager.default.removeItem(atPath: remembered)
            #expect(mkfifo(remembered, 0o644) == 0)
            let waits = try await Self.countingWaitsOnFIFOs([remembered]) {
                #expect(try await library.albums().map(\.title) == ["T"])
                _ = try await library.album(titled: "T").save(.data(Fixture.tinyJPEG("t2"), filename: "t2.jpg"))
                _ = try await library.verify()
            }
            #expect(waits == 0)
        }
    }
}
