import Foundation

extension Bench {
    /// Rows 1–2: `album save --album Batch FILES…` into a new catalog (one process, durable when it
    /// exits) vs `cp FILES… DIR` + `sync`, and vs the crash-safe batch floor (``BatchFloor``), for
    /// each batch size.
    func catalogBatch(_ files: [URL], counts: [Int]) throws -> ScenarioResult {
        var result = ScenarioResult(id: "catalog", title: "Batch into a catalog album vs cp + sync (whole processes)")
        let album = try Spawn.albumExecutable()
        result.parameters = [
            "files": counts.map(String.init).joined(separator: ","), "rounds": "\(rounds)",
            "averageKB": "\(Corpus.byteCount(files) / Int64(files.count) / 1024)",
        ]
        for count in counts {
            let batch = files.prefix(count).map(\.path)
            let output = try directory("catalog-\(count)")
            let times = try Rounds.run(
                rounds,
                [
                    { round in
                        let library = output.appendingPathComponent("album-\(round).albumlibrary").path
                        return try Spawn.timed(album, ["--library", library, "save", "--album", "Batch"] + batch)
                    },
                    { round in try Baseline.copyThenSync(batch, into: output.appendingPathComponent("cp-\(round)")) },
                    { round in try BatchFloor.timed(batch, into: output.appendingPathComponent("floor-\(round)")) },
                ])
            result.add("album save, \(count) files", Statistics.median(times[0]) * 1000, "ms")
            result.add("cp + sync, \(count) files", Statistics.median(times[1]) * 1000, "ms")
            result.add("crash-safe batch floor, \(count) files", Statistics.median(times[2]) * 1000, "ms")
            result.paired(
                "\(count) files: cp+sync time / album", ours: times[0], baseline: times[1], faster: true,
                goal: .atLeast(1.0))
            result.paired(
                "\(count) files: album / crash-safe batch floor", ours: times[0], baseline: times[2], faster: false,
                goal: .atMost(1.15))
            discard(output)
        }
        result.notes.append(
            "each round saves into a new library and copies into a new folder; outputs are kept until the row ends")
        return result
    }
}
