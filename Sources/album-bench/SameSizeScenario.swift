import Foundation

extension Bench {
    /// Row "samesize": 5 000 different JPEGs that all have one size into a folder-library album,
    /// against 5 000 of distinct sizes (issue 10: a folder library tells same-size files apart by
    /// their head digest, so this must not grow with the square of the count). Goal: at most 1.5×.
    func folderSameSize() throws -> ScenarioResult {
        var result = ScenarioResult(
            id: "samesize", title: "Same-size files into a folder-library album vs distinct sizes")
        let count = size(5_000, large: 5_000)
        let album = try Spawn.albumExecutable()
        let media = try directory("samesize-media")
        let distinct = try Corpus.jpegs(count: count, kilobytes: 8, in: media.appendingPathComponent("distinct"))
        // The same files with tags padded to one length: one size, different bytes.
        let sameDirectory = media.appendingPathComponent("same")
        try FileManager.default.createDirectory(at: sameDirectory, withIntermediateDirectories: true)
        let base = Array(try Data(contentsOf: distinct[0]))
        let skip = 6 + Int(base[4]) << 8 + Int(base[5]) - 2  // SOI + comment segment of the first file
        let image = [0xFF, 0xD8] + Array(base[skip...])
        let same = try (0..<count).map { index in
            let url = sameDirectory.appendingPathComponent(String(format: "IMG_%05d.jpg", index))
            try Data(Corpus.uniqueJPEG(image, tag: String(format: "album-bench same size %08d", index))).write(to: url)
            return url
        }
        result.parameters = ["files": "\(count)", "rounds": "\(rounds)"]
        let output = try directory("samesize")
        let times = try Rounds.run(
            rounds,
            [
                { round in
                    let root = output.appendingPathComponent("same-\(round)")
                    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
                    return try Spawn.timed(
                        album, ["--library", root.path, "save", "--album", "Raw"] + same.map(\.path))
                },
                { round in
                    let root = output.appendingPathComponent("distinct-\(round)")
                    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
                    return try Spawn.timed(
                        album, ["--library", root.path, "save", "--album", "Raw"] + distinct.map(\.path))
                },
            ])
        result.add("same size", Statistics.median(times[0]) * 1000, "ms")
        result.add("distinct sizes", Statistics.median(times[1]) * 1000, "ms")
        result.paired(
            "\(count) files: same-size time / distinct", ours: times[0], baseline: times[1], faster: false,
            goal: .atMost(1.5))
        discard(output)
        discard(media)
        return result
    }
}
