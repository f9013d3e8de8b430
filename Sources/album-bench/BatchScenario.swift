import AlbumKitCore
import Foundation

extension Bench {
    /// 1. Many photos into one album of a catalog (durable at the end) vs `cp` + `sync`.
    func batch(_ files: [URL]) async throws -> ScenarioResult {
        var result = ScenarioResult(id: "batch", title: "Batch save into one album vs cp + sync")
        let bytes = Corpus.byteCount(files)
        let rounds = size(9, large: 5)
        result.parameters = [
            "files": "\(files.count)", "averageKB": "\(bytes / Int64(files.count) / 1024)", "rounds": "\(rounds)",
        ]
        var ours: [Double] = []
        var copies: [Double] = []
        for round in 0..<rounds {
            // Alternate the order so neither side always runs on a warmer or busier disk.
            for side in round % 2 == 0 ? [0, 1] : [1, 0] {
                Statistics.settle()
                if side == 0 {
                    let destination = scratch.appendingPathComponent("cp-\(round)")
                    copies.append(try Statistics.time { try Baseline.copyThenSync(files, into: destination) })
                    discard(destination)
                } else {
                    let (url, library) = try library("batch-\(round)")
                    let album = library.album(titled: "Batch")
                    var results: [Result<SavedAsset, AlbumError>] = []
                    ours.append(await Statistics.time { results = await album.save(files.map { .file($0) }) })
                    let failures = results.filter { if case .failure = $0 { true } else { false } }
                    guard failures.isEmpty else { throw BenchFailure("batch save failed: \(failures[0])") }
                    discard(url)
                }
            }
        }
        let oursTime = Statistics.median(ours)
        let cpTime = Statistics.median(copies)
        result.add("AlbumKit batch", Double(files.count) / oursTime, "files/s")
        result.add("AlbumKit batch", Self.megabytes(bytes) / oursTime, "MB/s")
        result.add("cp + sync", Double(files.count) / cpTime, "files/s")
        result.add("cp + sync", Self.megabytes(bytes) / cpTime, "MB/s")
        // Paired: each round's cp and AlbumKit ran back to back, so disk noise mostly cancels.
        let ratios = zip(copies, ours).map { $0 / $1 }
        let ratio = Statistics.median(ratios)
        result.ratio("AlbumKit throughput / cp+sync", ratio, target: "≥ 0.8", met: ratio >= 0.8)
        result.notes.append(
            String(
                format: "per-round ratios %.2f–%.2f (median of %d paired rounds)", ratios.min() ?? 0,
                ratios.max() ?? 0, rounds))
        result.notes.append(
            "rounds alternate which side runs first; AlbumKit commits in chunks of 128 with one syncfs each, "
                + "and also hashes (SHA-256), validates and catalogs every file")
        return result
    }
}
