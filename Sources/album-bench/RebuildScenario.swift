import AlbumKitCatalog
import AlbumKitCore
import Foundation

extension Bench {
    /// The journal-first catalog at scale: rebuilding the index of a large library from its journal
    /// alone, from its snapshot, opening it with the index current, and opening it right after
    /// another process recorded 1 000 saves (the index catches up with the journal's tail).
    func rebuild(_ files: [URL]) async throws -> ScenarioResult {
        var result = ScenarioResult(id: "rebuild", title: "Catalog index: rebuild, snapshot, catch-up at scale")
        let sizes = size([10_000, 50_000], large: [50_000, 1_000_000])
        result.parameters = ["assets": sizes.map(String.init).joined(separator: ", ")]
        var openings: [Double] = []
        for count in sizes {
            let (url, library) = try library("rebuild-\(count)")
            let first = try await Self.save(files[0], into: library.album(titled: "Rebuild"))
            let synthetic = try SyntheticCatalog(library: url)
            try synthetic.addAlbums(100)
            let albums = (0..<100).map { "synthetic-album-\($0)" } + [first.albumID ?? ""]
            let fill = try Statistics.time { try SyntheticCatalog.appendSaves(count, to: url, albums: albums) }
            result.add("\(count) assets: appending their records", fill, "s")
            let catalog = url.path + "/catalog.sqlite"
            func removeIndex() {
                for suffix in ["", "-journal"] { try? FileManager.default.removeItem(atPath: catalog + suffix) }
            }
            // From the journal alone (no snapshot yet): every record replayed.
            try? FileManager.default.removeItem(atPath: url.path + "/snapshots")
            removeIndex()
            let scratch = try Statistics.time { try CatalogBackend.open(at: url).takeSnapshot() }
            result.measured(
                "\(count) assets: rebuild from the journal alone (and snapshot)", [scratch], unit: "s",
                goal: count == 50_000 ? .atMost(4) : nil)
            // From the snapshot just taken: a copy, then the (empty) tail.
            removeIndex()
            let fromSnapshot = try Statistics.time { _ = try CatalogBackend.open(at: url) }
            result.add("\(count) assets: rebuild from the snapshot", fromSnapshot * 1000, "ms")
            let current = try (0..<5).map { _ in try Statistics.time { _ = try CatalogBackend.open(at: url) } }
            result.add("\(count) assets: open, index current", Statistics.median(current) * 1000, "ms")
            openings.append(Statistics.median(current))
            // Another process's 1 000 saves (each applied to the index by the process that made it),
            // then an opening: the index is current, nothing to replay.
            let other = PhotoLibrary(backend: try CatalogBackend.open(at: url)).album(titled: "Rebuild")
            let jpeg = try Data(contentsOf: files[0])
            let sources = try directory("rebuild-sources-\(count)")
            var afterSaves: [Double] = []
            for round in 0..<3 {
                for n in 0..<1_000 {
                    var bytes = jpeg
                    bytes.append(contentsOf: Array("distinct \(count) \(round) \(n)".utf8))  // after EOI
                    let file = sources.appendingPathComponent("\(round)-\(n).jpg")
                    try bytes.write(to: file)
                    _ = try await other.save(.file(file))
                }
                afterSaves.append(try Statistics.time { _ = try CatalogBackend.open(at: url) })
            }
            discard(sources)
            result.measured(
                "\(count) assets: open after another process's 1 000 saves", afterSaves.map { $0 * 1000 }, unit: "ms",
                goal: .atMost(20))
            // The worst case: 1 000 records another program appended without updating the index
            // (every one replayed by this opening; no target).
            var catchUps: [Double] = []
            for round in 0..<3 {
                try SyntheticCatalog.appendSaves(
                    1_000, to: url, albums: albums, firstNumber: count + 1 + round * 1_000)
                catchUps.append(try Statistics.time { _ = try CatalogBackend.open(at: url) })
            }
            result.measured(
                "\(count) assets: open replaying 1 000 records no index holds", catchUps.map { $0 * 1000 }, unit: "ms",
                goal: nil)
            let journalSize =
                (try? FileManager.default.attributesOfItem(atPath: url.path + "/journal/library.journal"))?[
                    .size] as? Int ?? 0
            result.add("\(count) assets: journal size", Double(journalSize) / 1e6, "MB")
            discard(url)
        }
        let growth = (openings[openings.count - 1] - openings[0]) * 1000
        result.check(
            "opening, index current: at \(sizes[sizes.count - 1]) minus at \(sizes[0]) assets", growth, unit: "ms",
            target: "≤ 5 ms", met: growth <= 5)
        return result
    }
}
