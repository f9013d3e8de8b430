import AlbumKitMedia
import AlbumTestSupport
import Foundation
import Testing

/// `album watch` on a catalog follows its journal, on a folder library the kernel's notifications:
/// with `--interval 60` (a reading a minute, were it reading on a timer) another process's changes
/// still arrive within seconds. The bounds are loose sanity checks, not performance targets
/// (album-bench measures those).
@Suite(.onThreadsOfTheirOwn) struct WatchCLITests {
    /// `album watch --json` running in its own process, its lines collected as they arrive.
    final class Watch: Sendable {
        let process: Process
        let lines = Locked<[(line: String, at: ContinuousClock.Instant)]>([])

        init(_ args: [String]) throws {
            process = try CLI.start(args + ["watch", "--json", "--interval", "60"])
            let output = (process.standardOutput as! Pipe).fileHandleForReading
            let lines = self.lines
            Thread {
                var buffer = Data()
                while case let data = output.availableData, !data.isEmpty {
                    buffer.append(data)
                    while let newline = buffer.firstIndex(of: 10) {
                        let line = String(decoding: buffer[..<newline], as: UTF8.self)
                        lines.withLock { $0.append((line, .now)) }
                        buffer.removeSubrange(...newline)
                    }
                }
            }.start()
            // It is watching once an album another process creates now is reported: one made
            // before its first reading would not be, so try again until one is.
            for attempt in 1...40 {
                let asked = ContinuousClock.now
                let created = try CLI.run(args + ["create", "--json", "Probe \(attempt)"]).json() as? [String: Any]
                guard let id = created?["id"] as? String else { break }
                if wait(since: asked, limit: .seconds(2), WatchCLITests.contains("insertedAlbums", id)) != nil {
                    return
                }
            }
            Issue.record("album watch never reported a probe album: \(printed)")
        }

        /// How long after `since` a line that `matches` arrived; `nil` when none did within `limit`.
        func wait(
            since: ContinuousClock.Instant, limit: Duration = .seconds(40), _ matches: ([String: Any]) -> Bool
        ) -> Duration? {
            while ContinuousClock.now - since < limit {
                for (line, at) in lines.withLock({ $0 }) where at >= since {
                    let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
                    if let object, matches(object) { return at - since }
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return nil
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }

        var printed: [String] { lines.withLock { $0.map(\.line) } }
    }

    /// A change counts as arriving as it happens when it comes well before the 60 s interval
    /// (half of it: a loaded machine can hold a process for seconds, never for the interval).
    static let wellBeforeTheInterval = Duration.seconds(30)

    static func contains(_ key: String, _ id: String) -> ([String: Any]) -> Bool {
        { ($0[key] as? [String])?.contains(id) == true }
    }

    @Test(arguments: ["catalog", "folders"])
    func anotherProcesssChangesArriveWithinSecondsNotAtTheInterval(_ kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let args =
                ["--library", dir.appendingPathComponent(kind == "catalog" ? "W.albumlibrary" : "Pictures").path]
                + (kind == "folders" ? ["--folders"] : [])
            #expect(try CLI.run(args + ["create", "Before"]).status == 0)
            let watch = try Watch(args)
            defer { watch.stop() }

            var started = ContinuousClock.now
            let saved = try CLI.run(
                args + ["save", "--json", "--album", "Trips", CLI.examples.appendingPathComponent("harbour.jpg").path])
            let line = try #require(saved.jsonLines().first)
            let asset = try #require(line["asset"] as? String)
            let album = try #require(line["album"] as? String)
            let inserted = watch.wait(since: started, Self.contains("insertedAssets", asset))
            #expect(inserted != nil, "\(watch.printed)")
            #expect(
                (inserted ?? .seconds(99)) < Self.wellBeforeTheInterval,
                "a save arrived after \(String(describing: inserted))")
            #expect(watch.wait(since: started, Self.contains("insertedAlbums", album)) != nil, "\(watch.printed)")

            started = .now
            #expect(try CLI.run(args + ["rename", "Trips", "Holidays"]).status == 0)
            let renamed = watch.wait(since: started, Self.contains("changedAlbums", album))
            #expect((renamed ?? .seconds(99)) < Self.wellBeforeTheInterval, "\(watch.printed)")

            started = .now
            #expect(try CLI.run(args + ["delete-asset", asset]).status == 0)
            let removed = watch.wait(since: started, Self.contains("removedAssets", asset))
            #expect((removed ?? .seconds(99)) < Self.wellBeforeTheInterval, "\(watch.printed)")
            #expect(watch.process.isRunning)
        }
    }

    @Test func aFileCopiedIntoAnAlbumFolderByAnotherProgramArrives() throws {
        try CLI.withTemporaryDirectory { dir in
            let root = dir.appendingPathComponent("Pictures")
            let args = ["--library", root.path, "--folders"]
            #expect(try CLI.run(args + ["create", "Trips"]).status == 0)
            let watch = try Watch(args)
            defer { watch.stop() }
            let started = ContinuousClock.now
            // Not AlbumKit: cp writes the file into the album's folder.
            let copy = Process()
            copy.executableURL = URL(fileURLWithPath: "/bin/cp")
            copy.arguments = [
                CLI.examples.appendingPathComponent("harbour.jpg").path,
                root.appendingPathComponent("Trips/IMG_7.jpg").path,
            ]
            try copy.run()
            copy.waitUntilExit()
            #expect(copy.terminationStatus == 0)
            let arrived = watch.wait(since: started) { object in
                (object["insertedAssets"] as? [String])?.contains { $0.hasSuffix("/IMG_7.jpg") } == true
            }
            #expect((arrived ?? .seconds(99)) < Self.wellBeforeTheInterval, "\(watch.printed)")
        }
    }

    @Test func aCatalogsRestoreAndPurgeArrive() throws {
        try CLI.withTemporaryDirectory { dir in
            let args = ["--library", dir.appendingPathComponent("R.albumlibrary").path]
            let saved = try CLI.run(
                args + ["save", "--json", "--album", "Trips", CLI.examples.appendingPathComponent("harbour.jpg").path])
            let asset = try #require(saved.jsonLines().first?["asset"] as? String)
            #expect(try CLI.run(args + ["delete-asset", asset]).status == 0)
            let watch = try Watch(args)
            defer { watch.stop() }
            var started = ContinuousClock.now
            #expect(try CLI.run(args + ["restore", asset]).status == 0)
            #expect(watch.wait(since: started, Self.contains("insertedAssets", asset)) != nil, "\(watch.printed)")
            #expect(watch.wait(since: started) { ($0["changedAlbums"] as? [String])?.count == 1 } != nil)
            started = .now
            #expect(try CLI.run(args + ["delete-asset", "--permanently", asset]).status == 0)
            #expect(watch.wait(since: started, Self.contains("removedAssets", asset)) != nil, "\(watch.printed)")
        }
    }
}
