import AlbumKitCatalog
import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Bench {
    /// `album serve`'s album grid in headless Chromium (`Scripts/serve/bench-serve.py grid-runs`):
    /// one album of 100 000 photos (and of 1 000 000 with `--large`) opened `rounds` times (at
    /// least 10), each in a fresh browser: the first screen of thumbnails, a jump to the middle and
    /// to the end, the long tasks (over 50 ms); then 100 places (the first, the last, evenly spaced
    /// ones) scrolled to through the scroll bar's mapping, a screen on from each: the share drawn with
    /// their photo, whether every row has scroll positions of its own, and the long tasks. Also the albums
    /// list (`/api/albums`, with the albums' date ranges). The libraries are synthetic: the journal
    /// records a save writes (``SyntheticCatalog/appendSaves(_:to:albums:firstNumber:)``) for files
    /// that are hard links to one photo with an embedded thumbnail, the index built from them as a
    /// library's first opening builds it; kept in `--libraries DIR` for later runs.
    func grid() async throws -> ScenarioResult {
        var result = ScenarioResult(
            id: "grid", title: "album serve: the album grid at 100 000 (1 000 000 with --large) in Chromium")
        let album = try Spawn.albumExecutable()
        let sizes = size([100_000], large: [100_000, 1_000_000])
        let kept = options.libraries.map { URL(fileURLWithPath: $0) } ?? scratch.appendingPathComponent("grid")
        let runs = max(10, rounds)
        result.parameters = [
            "photos": sizes.map(String.init).joined(separator: ", "), "runs": "\(runs)", "libraries": kept.path,
        ]
        let template = packageRoot.appendingPathComponent("Tests/AlbumKitMediaTests/Fixtures/corpus/jpeg-thumbnail.jpg")
        for count in sizes {
            let (library, seconds) = try await Self.gridLibrary(count, in: kept, linking: template)
            if let seconds { result.add("\(count) photos: building (journal records, then the index)", seconds, "s") }
            let outcome = try Shell.run(
                "python3",
                [
                    packageRoot.appendingPathComponent("Scripts/serve/bench-serve.py").path, "grid-runs", album,
                    library.path, "Grid", "IMG_\(count).JPG", "\(runs)",
                    scratch.appendingPathComponent("grid-state-\(count)").path,
                    // Places sampled for the sweep (the first and the last among them).
                    "100",
                ])
            let lines = outcome.stdout.split(separator: "\n").map(String.init)
            func numbers(_ line: String, after label: String) -> Double? {
                guard let range = line.range(of: label) else { return nil }
                let rest = line[range.upperBound...].drop { $0 == " " }
                return Double(rest.prefix { $0.isNumber || $0 == "." })
            }
            let perRun = lines.filter { $0.hasPrefix("run ") }
            guard outcome.status == 0, perRun.count == runs else {
                result.skipped =
                    "bench-serve.py grid-runs did not finish: \(outcome.stderr.split(separator: "\n").last ?? "")"
                return result
            }
            let timedOut = perRun.filter { $0.contains("timed out") }
            result.check(
                "\(count): runs whose grid never drew (a wait of 30 s)", Double(timedOut.count), unit: "", target: "0",
                met: timedOut.isEmpty)
            let first = perRun.compactMap { numbers($0, after: "first screen") }
            let middle = perRun.compactMap { numbers($0, after: "middle") }
            let end = perRun.compactMap { numbers($0, after: "end") }
            let longTasks = perRun.compactMap { numbers($0, after: "long tasks") }
            result.measured("\(count): first screen of thumbnails", first, unit: "ms", goal: .atMost(300))
            result.measured("\(count): jump to the middle, thumbnails", middle, unit: "ms", goal: nil)
            result.measured("\(count): jump to the end, thumbnails", end, unit: "ms", goal: nil)
            result.measured("\(count): tasks over 50 ms per run", longTasks, unit: "", goal: .atMost(0))
            if let line = lines.first(where: { $0.hasPrefix("server start:") }) {
                if let cpu = numbers(line, after: "cpu") {
                    result.add("\(count): server start, CPU before any request (its change feed)", cpu * 1000, "ms")
                }
                if let resident = numbers(line, after: "resident") {
                    result.add("\(count): server start, resident memory", resident, "MB")
                }
            }
            for (label, name) in [
                ("albums list, first:", "albums list with date ranges (/api/albums), the server's first answer"),
                ("albums list:", "albums list with date ranges (/api/albums)"),
            ] {
                if let line = lines.first(where: { $0.hasPrefix(label) }), let ms = numbers(line, after: label) {
                    result.add("\(count): \(name)", ms, "ms")
                }
            }
            if let sweep = lines.first(where: { $0.hasPrefix("sweep") }) {
                if let share = sweep.range(of: #"\(([0-9.]+) %\)"#, options: .regularExpression) {
                    let value = Double(sweep[share].dropFirst().prefix { $0.isNumber || $0 == "." }) ?? 0
                    let whole =
                        value >= 100 && sweep.contains("the first and the last reached")
                        && sweep.contains("every row has its own")
                    result.check(
                        "\(count): places reached (100 sampled through the scroll bar, the first and the last among them)",
                        value, unit: "%", target: "100 %", met: whole)
                }
                if let tasks = numbers(sweep, after: "long tasks") {
                    result.check(
                        "\(count): tasks over 50 ms jumping to the sampled places", tasks, unit: "", target: "0",
                        met: tasks == 0)
                }
                result.notes.append("\(count): \(sweep)")
            }
            result.notes += perRun.map { "\(count): \($0)" }
        }
        return result
    }

    /// The library of `count` photos in one album titled "Grid" under `folder`, made once (a
    /// marker file says it is whole); the seconds it took when it was made now.
    static func gridLibrary(_ count: Int, in folder: URL, linking template: URL) async throws -> (URL, Double?) {
        let library = folder.appendingPathComponent("grid-\(count).albumlibrary")
        let marker = folder.appendingPathComponent("grid-\(count).built")
        if FileManager.default.fileExists(atPath: marker.path) { return (library, nil) }
        if FileManager.default.fileExists(atPath: library.path) { try FileManager.default.removeItem(at: library) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let seconds = try await Statistics.time {
            _ = try CatalogBackend.open(at: library)
            // Copies of the photo to link to: ext4 allows 65 000 names per inode.
            let copies = try (0..<(count / 60_000 + 1)).map { n -> URL in
                let copy = folder.appendingPathComponent("grid-\(count)-photo-\(n).jpg")
                if !FileManager.default.fileExists(atPath: copy.path) {
                    try FileManager.default.copyItem(at: template, to: copy)
                }
                return copy
            }
            let originals = library.appendingPathComponent("originals/synthetic")
            try FileManager.default.createDirectory(at: originals, withIntermediateDirectories: true)
            for n in 1...count {
                let name = originals.path + "/\(n).jpg"
                guard link(copies[n % copies.count].path, name) == 0 || errno == EEXIST else {
                    throw BenchFailure("cannot link \(name): \(String(cString: strerror(errno)))")
                }
            }
            try LibraryJournal(libraryRoot: library.path).append([
                .createAlbum(id: "grid-album", title: "Grid", createdAt: Date().timeIntervalSince1970 - 200_000)
            ])
            try SyntheticCatalog.appendSaves(count, to: library, albums: ["grid-album"])
            // The index made from the records, as the first command on the library makes it.
            _ = try await PhotoLibrary(backend: try CatalogBackend.open(at: library)).albums()
            for copy in copies { try FileManager.default.removeItem(at: copy) }
        }
        try Data().write(to: marker)
        return (library, seconds)
    }
}
