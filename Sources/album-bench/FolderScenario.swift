import AlbumKitCore
import Foundation

extension Bench {
    /// 6. A batch saved into an album of a folder library (album = sub-folder) vs
    /// `exiftool -o DIR` (which copies, rewriting each file) + `sync` and `cp` + `sync`.
    func folders(_ files: [URL]) async throws -> ScenarioResult {
        var result = ScenarioResult(id: "folders", title: "Folder library: batch save vs exiftool -o DIR and cp")
        let bytes = Corpus.byteCount(files)
        let rounds = size(7, large: 5)
        let hasExiftool = Shell.has("exiftool")
        result.parameters = ["files": "\(files.count)", "rounds": "\(rounds)"]
        var ours: [Double] = []
        var copies: [Double] = []
        var exiftool: [Double] = []
        for round in 0..<rounds {
            var sides = hasExiftool ? [0, 1, 2] : [0, 1]
            if round % 2 == 1 { sides.reverse() }
            for side in sides {
                Statistics.settle()
                let root = try directory("folders-\(round)-\(side)")
                switch side {
                case 0:
                    copies.append(
                        try Statistics.time {
                            try Baseline.copyThenSync(files, into: root.appendingPathComponent("Batch"))
                        }
                    )
                case 1:
                    let library = try PhotoLibrary.folders(at: root)
                    let album = library.album(titled: "Batch")
                    var results: [Result<SavedAsset, AlbumError>] = []
                    ours.append(await Statistics.time { results = await album.save(files.map { .file($0) }) })
                    if let failure = results.first(where: { if case .failure = $0 { true } else { false } }) {
                        throw BenchFailure("folder save failed: \(failure)")
                    }
                default:
                    let target = root.appendingPathComponent("Batch")
                    exiftool.append(
                        try Statistics.time {
                            let run = try Shell.run("exiftool", ["-q", "-o", target.path + "/"] + files.map(\.path))
                            guard run.status == 0 else { throw BenchFailure("exiftool -o failed: \(run.stderr)") }
                            try Shell.run("sync", [])
                        })
                }
                discard(root)
            }
        }
        let oursTime = Statistics.median(ours)
        let cpTime = Statistics.median(copies)
        result.add("AlbumKit folder library", Double(files.count) / oursTime, "files/s")
        result.add("AlbumKit folder library", Self.megabytes(bytes) / oursTime, "MB/s")
        result.add("cp + sync", Double(files.count) / cpTime, "files/s")
        let ratios = zip(copies, ours).map { $0 / $1 }
        let ratio = Statistics.median(ratios)
        result.ratio("AlbumKit / cp+sync throughput", ratio, target: "≥ 0.8", met: ratio >= 0.8)
        result.notes.append(
            String(format: "per-round ratios vs cp+sync %.2f–%.2f", ratios.min() ?? 0, ratios.max() ?? 0))
        if hasExiftool {
            let exifTime = Statistics.median(exiftool)
            result.add("exiftool -o DIR + sync", Double(files.count) / exifTime, "files/s")
            result.ratio("AlbumKit / exiftool -o throughput", Statistics.median(zip(exiftool, ours).map { $0 / $1 }))
        } else {
            result.notes.append("exiftool is not installed: install libimage-exiftool-perl for that column")
        }
        return result
    }
}
