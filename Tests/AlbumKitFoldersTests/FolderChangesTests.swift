import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@testable import AlbumKitCore
@testable import AlbumKitFolders

/// A folder library's changes: told by inotify (``DirectoryWatch``), so a file another program puts
/// into a folder, even one created after watching started, arrives long before the interval; read
/// on a timer when inotify cannot watch.
@Suite("Folder library: changes")
struct FolderChangesTests {
    /// Another program (`cp`, `mkdir`) acting on the library's folder.
    static func run(_ tool: String, _ arguments: String...) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        #expect((try? process.run()) != nil, "\(tool) did not start")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool) \(arguments)")
    }

    /// Copies the test photo into the top folder under new names until the watcher reports one:
    /// from then on it is watching and has done its first reading, however loaded the machine is.
    static func waitUntilWatching(_ collector: ChangeCollector, root: URL, photo: URL) async throws {
        for attempt in 1...40 {
            let name = "probe-\(attempt).jpg"
            run("/bin/cp", photo.path, root.appendingPathComponent(name).path)
            if await collector.wait(limit: .seconds(1), { $0.insertedAssetIDs.contains(name) }) != nil { return }
        }
        Issue.record("the watcher never reported a probe")
    }

    @Test func filesAnotherProgramWritesArriveLongBeforeTheInterval() async throws {
        try await FolderFixture.withRoot { root, parent in
            let library = try FolderFixture.library(root)
            let albumID = try await library.createAlbum(titled: "Trips").id
            let photo = parent.appendingPathComponent("photo.jpg")
            try Fixture.tinyJPEG("watched").write(to: photo)
            let collector = ChangeCollector(library.changes(interval: .seconds(60)))
            defer { collector.stop() }
            try await Self.waitUntilWatching(collector, root: root, photo: photo)

            var started = ContinuousClock.now
            Self.run("/bin/cp", photo.path, root.appendingPathComponent("Trips/IMG_1.jpg").path)
            let inserted = await collector.wait(limit: .seconds(40)) { change in
                change.insertedAssetIDs.contains { $0.hasSuffix("/IMG_1.jpg") }
            }
            #expect(inserted?.changedAlbumIDs == [albumID])
            #expect(ContinuousClock.now - started < .seconds(30))  // well before the 60 s interval

            // A folder made after watching started is watched too: a file put in it arrives.
            started = .now
            Self.run("/bin/mkdir", root.appendingPathComponent("Trips/Day 2").path)
            Self.run("/bin/cp", photo.path, root.appendingPathComponent("Trips/Day 2/IMG_2.jpg").path)
            let nested = await collector.wait(limit: .seconds(40)) { change in
                change.insertedAssetIDs.contains { $0.hasSuffix("/IMG_2.jpg") }
            }
            #expect(nested != nil)
            #expect(ContinuousClock.now - started < .seconds(30))  // well before the 60 s interval

            started = .now
            Self.run("/bin/rm", root.appendingPathComponent("Trips/IMG_1.jpg").path)
            let removed = await collector.wait(limit: .seconds(40)) { change in
                change.removedAssetIDs.contains { $0.hasSuffix("/IMG_1.jpg") }
            }
            #expect(removed != nil)
            #expect(ContinuousClock.now - started < .seconds(30))  // well before the 60 s interval
        }
    }

    @Test func withoutInotifyTheLibraryIsReadOnATimer() async throws {
        try await FolderFixture.withRoot { root, parent in
            let library = try FolderFixture.library(root)
            _ = try await library.createAlbum(titled: "Trips")
            // The watch cannot be opened (as when fs.inotify.max_user_watches is reached).
            let rule = FaultInjector.inject(.watch, under: root.path, errno: ENOSPC)
            let photo = parent.appendingPathComponent("photo.jpg")
            try Fixture.tinyJPEG("timer").write(to: photo)
            let collector = ChangeCollector(library.changes(interval: .milliseconds(200)))
            defer { collector.stop() }
            try await Self.waitUntilWatching(collector, root: root, photo: photo)
            Self.run("/bin/cp", photo.path, root.appendingPathComponent("Trips/IMG_1.jpg").path)
            let inserted = await collector.wait(limit: .seconds(10)) { change in
                change.insertedAssetIDs.contains { $0.hasSuffix("/IMG_1.jpg") }
            }
            #expect(inserted != nil)
            #expect(FaultInjector.hits(rule) >= 1)
        }
    }

    @Test func theWatchRefusesNothingLocalAndSeesOnlyVisibleNames() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            // Scratch space of this test only.
            try? FileManager.default.removeItem(at: folder)
        }
        let watch = try DirectoryWatch(root: folder.path)
        #expect(try !watch.takeEvents())
        // AlbumKit's hidden state and staging files are not changes.
        try Data("x".utf8).write(to: folder.appendingPathComponent(".staging"))
        #expect(try !watch.takeEvents())
        try Data("x".utf8).write(to: folder.appendingPathComponent("IMG_1.jpg"))
        #expect(try watch.takeEvents())
        #expect(try !watch.takeEvents())
    }
}
