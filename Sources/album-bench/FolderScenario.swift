import Foundation

extension Bench {
    /// Row 4: `album --library ROOT save --album Batch FILES…` into a folder library (the album is a
    /// sub-folder) vs `cp FILES… ROOT/Batch` + `sync`.
    func folderBatch(_ files: [URL]) throws -> ScenarioResult {
        var result = ScenarioResult(id: "folders", title: "Batch into a folder-library album vs cp + sync")
        let album = try Spawn.albumExecutable()
        let batch = files.map(\.path)
        result.parameters = ["files": "\(files.count)", "rounds": "\(rounds)"]
        let output = try directory("folders")
        let times = try Rounds.run(
            rounds,
            [
                { round in
                    let root = output.appendingPathComponent("album-\(round)")
                    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
                    return try Spawn.timed(album, ["--library", root.path, "save", "--album", "Batch"] + batch)
                },
                { round in try Baseline.copyThenSync(batch, into: output.appendingPathComponent("cp-\(round)/Batch")) },
            ])
        result.add("album save", Statistics.median(times[0]) * 1000, "ms")
        result.add("cp + sync", Statistics.median(times[1]) * 1000, "ms")
        result.paired(
            "\(files.count) files: cp+sync time / album", ours: times[0], baseline: times[1], faster: true,
            goal: .atLeast(0.9))
        discard(output)
        return result
    }
}
