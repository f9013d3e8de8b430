import Foundation

extension Bench {
    /// Rows "reimport" (issue 28): a camera card of 2 000 small JPEGs (four `DCIM/1xxCANON`
    /// folders) already imported, imported again: `album import` against `rsync -a` of the same
    /// card into a copy already in sync (nothing to do for either; goal ≤ 3×), and `album import
    /// --checksum` against reading and hashing the same files with `sha256sum` (goal ≤ 1.2×). The
    /// library and the copy are made once, before the rounds, and kept between them. A catalog and a
    /// folder library each.
    func reimport() throws -> ScenarioResult {
        var result = ScenarioResult(id: "reimport", title: "Re-import of a card already imported vs rsync / sha256sum")
        guard Shell.has("rsync"), Shell.has("sha256sum") else {
            result.skipped = "rsync and sha256sum are needed"
            return result
        }
        let count = 2_000
        let album = try Spawn.albumExecutable()
        let output = try directory("reimport")
        let card = output.appendingPathComponent("card")
        let files = try Corpus.jpegs(count: count, kilobytes: 20, in: output.appendingPathComponent("made"))
        for (index, file) in files.enumerated() {
            let folder = card.appendingPathComponent(String(format: "DCIM/%03dCANON", 100 + index % 4))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: file, to: folder.appendingPathComponent(file.lastPathComponent))
        }
        let sources = try FileManager.default.subpathsOfDirectory(atPath: card.path).sorted()
            .filter { $0.hasSuffix(".jpg") }.map { card.path + "/" + $0 }
        result.parameters = [
            "files": "\(sources.count)",
            "megabytes": String(
                format: "%.0f", Bench.megabytes(Corpus.byteCount(sources.map { URL(fileURLWithPath: $0) }))),
            "rounds": "\(rounds)",
        ]
        let mirror = output.appendingPathComponent("mirror")
        _ = try Spawn.timed("rsync", ["-a", card.path + "/", mirror.path + "/"])
        let libraries = [
            ("catalog", ["--library", output.appendingPathComponent("Card.albumlibrary").path]),
            ("folders", ["--folders", "--library", output.appendingPathComponent("Pictures").path]),
        ]
        for (kind, library) in libraries {
            let first = try Spawn.timed(album, library + ["import", "--album", "Card", card.path])
            result.add("\(kind): first import", first * 1000, "ms")
            let times = try Rounds.run(
                rounds,
                [
                    { _ in try Spawn.timed(album, library + ["import", "--album", "Card", card.path]) },
                    { _ in try Spawn.timed("rsync", ["-a", card.path + "/", mirror.path + "/"]) },
                    { _ in try Spawn.timed(album, library + ["import", "--checksum", "--album", "Card", card.path]) },
                    { _ in try Spawn.timed("sha256sum", sources) },
                ])
            result.add("\(kind): re-import", Statistics.median(times[0]) * 1000, "ms")
            result.add("rsync -a, nothing to do", Statistics.median(times[1]) * 1000, "ms")
            result.add("\(kind): re-import --checksum", Statistics.median(times[2]) * 1000, "ms")
            result.add("sha256sum", Statistics.median(times[3]) * 1000, "ms")
            result.paired(
                "\(kind), \(sources.count) files: re-import / rsync -a", ours: times[0], baseline: times[1],
                faster: false, goal: .atMost(3))
            // A folder library records no hashes: --checksum reads its files of the same size too.
            result.paired(
                "\(kind), \(sources.count) files: re-import --checksum / sha256sum", ours: times[2],
                baseline: times[3], faster: false, goal: kind == "catalog" ? .atMost(1.2) : nil)
        }
        result.notes.append(
            "A folder library records no hashes of its own: --checksum reads its copies of the same size as well (no target)."
        )
        discard(output)
        return result
    }
}
