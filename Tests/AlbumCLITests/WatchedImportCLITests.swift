import AlbumKitConformance
import AlbumTestSupport
import AlbumKitMedia
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `album import --watch DIR`: a watched folder imported as files arrive, each once and whole, a
/// late sidecar attached to its photo, a restart quiet. The watcher runs as its own process, as a
/// user runs it, and is stopped with Ctrl-C (SIGINT) or killed.
@Suite(.onThreadsOfTheirOwn) struct WatchedImportCLITests {
    /// `album import --watch` in its own process, its output collected as it arrives.
    final class Watcher: Sendable {
        let process: Process
        let out = Locked(Data())
        let err = Locked(Data())

        init(_ args: [String], startsWhen started: (Watcher) -> Bool = { $0.stderr.contains("album: watching") })
            throws
        {
            process = try CLI.start(args)
            for (pipe, into) in [(process.standardOutput as! Pipe, out), (process.standardError as! Pipe, err)] {
                let handle = pipe.fileHandleForReading
                Thread {
                    while case let data = handle.availableData, !data.isEmpty { into.withLock { $0.append(data) } }
                }.start()
            }
            let began = wait(started)
            #expect(began, "never started: \(stderr)")
        }

        var stdout: String { String(decoding: out.withLock { $0 }, as: UTF8.self) }
        var stderr: String { String(decoding: err.withLock { $0 }, as: UTF8.self) }

        /// Whether `condition` came true within `limit`.
        func wait(limit: Duration = .seconds(20), _ condition: (Watcher) -> Bool) -> Bool {
            let start = ContinuousClock.now
            while ContinuousClock.now - start < limit {
                if condition(self) { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return condition(self)
        }

        /// Ctrl-C, and the exit status.
        func interrupt() -> Int32 {
            process.interrupt()
            process.waitUntilExit()
            // The reading threads end at end of file; give them the last bytes.
            _ = wait(limit: .seconds(2)) { $0.stderr.contains("stopped watching") }
            return process.terminationStatus
        }

        func kill() {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// About 12 s: three watcher processes, a writer pausing two seconds in the middle of a file,
    /// and each watch waiting for files to settle.
    @Test func aWatchedFolderImportsCompleteFilesOnceAcrossRestartsSlowWriterTakesSeconds() throws {
        try CLI.withTemporaryDirectory { dir in
            let library = ["--library", dir.appendingPathComponent("W.albumlibrary").path]
            let card = dir.appendingPathComponent("card")
            try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
            let watch = library + ["import", "--watch", card.path, "--album", "Trip", "--settle", "0.5"]

            let first = try Watcher(watch)
            try Fixture.uniqueJPEG("A").write(to: card.appendingPathComponent("A.JPG"))
            // B is written in two halves with a pause four times the settle interval between them,
            // held open all along: its size and time stand still, but it is not complete.
            let whole = Fixture.uniqueJPEG("B")
            let b = card.appendingPathComponent("B.JPG")
            // Close-on-exec: a process another test starts meanwhile must not inherit the writer
            // (it would hold B open for writing as long as it lives, and B would never settle).
            let writer = open(b.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            #expect(writer >= 0)
            func write(_ part: Data) { part.withUnsafeBytes { _ = Glibc.write(writer, $0.baseAddress, $0.count) } }
            write(whole.prefix(whole.count / 2))
            Thread.sleep(forTimeInterval: 2)
            #expect(!first.stdout.contains("B.JPG"), "imported half-written: \(first.stdout)")
            #expect(!first.stderr.contains("B.JPG"), "imported half-written: \(first.stderr)")
            write(whole.suffix(from: whole.count / 2))
            close(writer)
            #expect(first.wait { $0.stdout.contains("saved \(b.path)") }, "\(first.stdout)\n\(first.stderr)")
            #expect(first.stdout.contains("saved \(card.appendingPathComponent("A.JPG").path)"))
            // A sidecar written after its photo was imported is attached to it.
            try Data("<x:xmpmeta xmlns:x='adobe:ns:meta/'/>".utf8).write(to: card.appendingPathComponent("A.xmp"))
            #expect(first.wait { $0.stdout.contains("updated: A.xmp") }, "\(first.stdout)\n\(first.stderr)")
            #expect(first.interrupt() == 0, "\(first.stderr)")
            #expect(first.stderr.contains("album: stopped watching"), "\(first.stderr)")
            // Each file once: B not again once whole, A once more only to take its sidecar.
            #expect(
                first.stderr.contains("2 saved, 1 already in the library (1 with sidecars updated)"), "\(first.stderr)")
            #expect(!first.stderr.contains("sidecar without"), "\(first.stderr)")

            // Written while no watch runs: imported by the next one, which is then killed.
            try Fixture.uniqueJPEG("C").write(to: card.appendingPathComponent("C.JPG"))
            let second = try Watcher(watch)
            #expect(second.wait { $0.stdout.contains("saved \(card.appendingPathComponent("C.JPG").path)") })
            #expect(!second.stdout.contains("A.JPG") && !second.stdout.contains("B.JPG"), "\(second.stdout)")
            second.kill()

            // A third start finds everything in the library: nothing listed, counted when stopped.
            let third = try Watcher(watch)
            Thread.sleep(forTimeInterval: 2)
            #expect(third.interrupt() == 0, "\(third.stderr)")
            #expect(third.stdout.isEmpty, "\(third.stdout)")
            #expect(third.stderr.contains("0 saved, 3 already in the library"), "\(third.stderr)")

            let shown = try CLI.run(library + ["show", "--json", "Trip"])
            let assets = (shown.json() as? [[String: Any]]) ?? []
            #expect(assets.compactMap { $0["file"] as? String }.sorted() == ["A.JPG", "B.JPG", "C.JPG"])
            let bSize = assets.first { $0["file"] as? String == "B.JPG" }?["size"] as? Int
            #expect(bSize == whole.count, "B.JPG stored with \(bSize ?? -1) of \(whole.count) bytes")
            let sidecars = assets.first { $0["file"] as? String == "A.JPG" }?["companions"] as? [[String: Any]]
            #expect(sidecars?.compactMap { $0["file"] as? String } == ["A.xmp"])
        }
    }

    /// `album watch` names what changed: album titles and file names, ids only with -v.
    @Test(arguments: [false, true])
    func watchPrintsNamesAndTitles(verbose: Bool) throws {
        try CLI.withTemporaryDirectory { dir in
            let library = ["--library", dir.appendingPathComponent("N.albumlibrary").path]
            #expect(try CLI.run(library + ["create", "Before"]).status == 0)
            // Watching once an album created now is reported (one made before its first reading is not).
            var attempt = 0
            let watch = try Watcher(library + ["watch"] + (verbose ? ["-v"] : [])) { watcher in
                if watcher.stdout.contains("added album \"Probe") { return true }
                attempt += 1
                _ = try? CLI.run(library + ["create", "Probe \(attempt)"])
                return watcher.wait(limit: .seconds(1)) { $0.stdout.contains("added album \"Probe") }
            }
            defer { watch.kill() }
            let photo = dir.appendingPathComponent("IMG_0042.JPG")
            try Fixture.uniqueJPEG("named").write(to: photo)
            let saved = try CLI.run(library + ["save", "--json", "--album", "Holiday", photo.path])
            #expect(saved.status == 0, "\(saved.stderr)")
            let asset = saved.jsonLines().first?["asset"] as? String ?? "?"
            let album = saved.jsonLines().first?["album"] as? String ?? "?"
            #expect(watch.wait { $0.stdout.contains("added photo IMG_0042.JPG") }, "\(watch.stdout)")
            #expect(watch.stdout.contains("added album \"Holiday\""), "\(watch.stdout)")
            #expect(watch.stdout.contains(asset) == verbose, "\(watch.stdout)")
            #expect(watch.stdout.contains(album) == verbose, "\(watch.stdout)")
            #expect(try CLI.run(library + ["delete", "Before"]).status == 0)
            #expect(watch.wait { $0.stdout.contains("removed album \"Before\"") }, "\(watch.stdout)")
        }
    }

    @Test func watchTakesNoFolderAndNoDryRun() throws {
        try CLI.withTemporaryDirectory { dir in
            let library = ["--library", dir.appendingPathComponent("W.albumlibrary").path]
            let both = try CLI.run(library + ["import", "--watch", dir.path, dir.path])
            #expect(both.status == 2)
            #expect(both.stderr.contains("give no FOLDER"), "\(both.stderr)")
            let dry = try CLI.run(library + ["import", "--watch", dir.path, "--dry-run"])
            #expect(dry.status == 2)
            let missing = try CLI.run(library + ["import", "--watch", dir.appendingPathComponent("nope").path])
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("Cannot watch"), "\(missing.stderr)")
            let none = try CLI.run(library + ["import"])
            #expect(none.status == 2)
            #expect(none.stderr.contains("--watch DIR"), "\(none.stderr)")
        }
    }
}
