import AlbumKitCatalog
import AlbumKitCore
import Foundation

extension Bench {
    /// 4. Durable saves per second into libraries that already hold many assets (rows synthesised
    /// in bulk, with album memberships).
    func librarySize(_ files: [URL]) async throws -> ScenarioResult {
        var result = ScenarioResult(id: "size", title: "Library size: saves/s with many assets already in the catalog")
        let sizes = size([0, 10_000, 100_000], large: [0, 100_000, 1_000_000])
        let saves = min(size(30, large: 100), files.count - 1)
        result.parameters = ["assets": sizes.map(String.init).joined(separator: ", "), "savesEach": "\(saves)"]

        var subjects: [(count: Int, url: URL, album: Album, times: [Double])] = []
        var opening: [Double] = []  // median time to open each library, catalog unchanged
        for count in sizes {
            let (url, library) = try library("size-\(count)")
            let album = library.album(titled: "Library")
            let first = try await Self.save(files[0], into: album)
            let fill = try Statistics.time {
                try SyntheticCatalog(library: url).addAssets(count, alsoIn: first.albumID ?? "", linking: files)
            }
            if count > 0 { result.add("synthesising \(count) assets", fill, "s") }
            // Opening checks the catalog for damaged pages when the file changed since it last
            // passed (here: just filled), then only compares the file's identity.
            let checked = try Statistics.time { _ = try CatalogBackend.open(at: url) }
            let unchanged = try (0..<5).map { _ in try Statistics.time { _ = try CatalogBackend.open(at: url) } }
            result.add("\(count) assets: open with integrity check", checked * 1000, "ms")
            result.add("\(count) assets: open, catalog unchanged", Statistics.median(unchanged) * 1000, "ms")
            opening.append(Statistics.median(unchanged))
            // The page checksums' cost: every page read (`quick_check`), verified or not.
            let catalog = url.appendingPathComponent("catalog.sqlite").path
            let plain = try Self.readEveryPage(catalog, verifying: false)
            let verified = try Self.readEveryPage(catalog, verifying: true)
            result.add("\(count) assets: read every page, checksums not verified", plain * 1000, "ms")
            result.add("\(count) assets: read every page, checksums verified", verified * 1000, "ms")
            subjects.append((count, url, album, []))
        }
        Statistics.flushAllFileSystems()
        for round in 1...saves {
            for offset in subjects.indices {
                let index = (offset + round) % subjects.count
                let album = subjects[index].album
                subjects[index].times.append(
                    try await Statistics.time { _ = try await Self.save(files[round], into: album) })
            }
        }
        for subject in subjects {
            result.add("\(subject.count) assets: AlbumKit", 1 / Statistics.median(subject.times), "saves/s")
        }
        let base = 1 / Statistics.median(subjects[0].times)
        let last = subjects[subjects.count - 1]
        let ratio = (1 / Statistics.median(last.times)) / base
        result.ratio("saves/s at \(last.count) / at 0 assets", ratio, target: "≥ 0.8", met: ratio >= 0.8)
        // Every `album` command opens its library: that must not grow with the photos it holds
        // (it listed every folder of photos until 2026-12-01: +130 ms at 100 000). A fixed 5 ms of
        // slack: opening takes a few milliseconds, where a ratio alone would be noise.
        let openingGrowth = (opening[opening.count - 1] - opening[0]) * 1000
        result.check(
            "opening at \(last.count) assets minus at 0", openingGrowth, unit: "ms", target: "≤ 5 ms",
            met: openingGrowth <= 5)
        for subject in subjects { discard(subject.url) }
        return result
    }

    /// The fastest of three reads of every page of the catalog (`PRAGMA quick_check`), in seconds.
    static func readEveryPage(_ path: String, verifying: Bool) throws -> Double {
        try (0..<3).map { _ in
            try Statistics.time {
                let database = try Database(path: path, mode: .readOnly, verifyingPages: verifying)
                _ = try database.rows("PRAGMA quick_check")
            }
        }.min() ?? 0
    }
}
