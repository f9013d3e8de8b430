import Foundation

extension Bench {
    /// Rows 3 and 7: one 1 GiB video (not sparse) saved by `album save` into a new catalog vs
    /// `cp` + `sync`, and vs the physical limit: `dd oflag=direct` + `fsync` of the same bytes.
    func video(_ video: URL) throws -> ScenarioResult {
        var result = ScenarioResult(id: "video", title: "1 GiB video vs cp + sync and vs the disk's limit")
        let album = try Spawn.albumExecutable()
        let bytes = Corpus.byteCount([video])
        result.parameters = ["fileBytes": "\(bytes)", "rounds": "\(rounds)"]
        let output = try directory("video")
        let times = try Rounds.run(
            rounds,
            [
                { round in
                    let library = output.appendingPathComponent("album-\(round).albumlibrary").path
                    return try Spawn.timed(album, ["--library", library, "save", "--album", "Video", video.path])
                },
                { round in try Baseline.copyThenSync([video.path], into: output.appendingPathComponent("cp-\(round)"))
                },
                { round in
                    try Baseline.directWrite(video.path, to: output.appendingPathComponent("dd-\(round).mp4").path)
                },
            ])
        for (name, values) in zip(["album save", "cp + sync", "dd oflag=direct + fsync"], times) {
            result.add(name, Self.megabytes(bytes) / Statistics.median(values), "MB/s")
        }
        result.paired(
            "1 GiB: cp+sync time / album", ours: times[0], baseline: times[1], faster: true, goal: .atLeast(0.8))
        result.paired("1 GiB: dd direct time / album", ours: times[0], baseline: times[2], faster: true, goal: nil)
        result.paired("1 GiB: dd direct time / cp+sync", ours: times[1], baseline: times[2], faster: true, goal: nil)
        result.notes.append(
            "dd oflag=direct conv=fsync writes the same bytes past the page cache: what the disk itself takes")
        discard(output, now: true)
        return result
    }
}
