import Foundation

extension Bench {
    /// Rows "sidecars" (issue 28): a first import of a card of 2 000 small JPEGs, each with an
    /// `.xmp` sidecar, against the same card without them (goal ≤ 1.15×), into a new library each
    /// round (catalog and folders); every library is kept until the scenario ends.
    func sidecars() throws -> ScenarioResult {
        var result = ScenarioResult(id: "sidecars", title: "First import of a card with sidecars vs without")
        let count = 2_000
        let album = try Spawn.albumExecutable()
        let output = try directory("sidecars")
        let plain = output.appendingPathComponent("plain")
        let paired = output.appendingPathComponent("paired")
        let files = try Corpus.jpegs(count: count, kilobytes: 20, in: output.appendingPathComponent("made"))
        for (index, file) in files.enumerated() {
            let folder = String(format: "DCIM/%03dCANON", 100 + index % 4)
            for card in [plain, paired] {
                try FileManager.default.createDirectory(
                    at: card.appendingPathComponent(folder), withIntermediateDirectories: true)
                try FileManager.default.copyItem(
                    at: file, to: card.appendingPathComponent(folder).appendingPathComponent(file.lastPathComponent))
            }
            let stem = (file.lastPathComponent as NSString).deletingPathExtension
            // A Lightroom-sized sidecar: rating, label and a few develop settings.
            let xmp = """
                <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="\(index % 6)" xmp:Label="Blue"
                 xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/" crs:Exposure2012="+0.\(index % 10)0"
                 crs:Contrast2012="+\(index % 30)" crs:Highlights2012="-\(index % 40)"/></rdf:RDF></x:xmpmeta>
                """ + String(repeating: " ", count: 1_500)
            try Data(xmp.utf8).write(
                to: paired.appendingPathComponent(folder).appendingPathComponent(stem + ".xmp"))
        }
        result.parameters = ["files": "\(count)", "sidecars": "\(count)", "rounds": "\(rounds)"]
        for kind in ["catalog", "folders"] {
            func library(_ name: String) -> [String] {
                let path = output.appendingPathComponent(name).path
                return kind == "catalog" ? ["--library", path + ".albumlibrary"] : ["--folders", "--library", path]
            }
            let times = try Rounds.run(
                rounds,
                [
                    { round in
                        try Spawn.timed(
                            album, library("\(kind)-with-\(round)") + ["import", "--album", "Card", paired.path])
                    },
                    { round in
                        try Spawn.timed(
                            album, library("\(kind)-without-\(round)") + ["import", "--album", "Card", plain.path])
                    },
                ])
            result.add("\(kind): import with sidecars", Statistics.median(times[0]) * 1000, "ms")
            result.add("\(kind): import without", Statistics.median(times[1]) * 1000, "ms")
            result.paired(
                "\(kind), \(count) photos: with sidecars / without", ours: times[0], baseline: times[1], faster: false,
                goal: .atMost(1.15))
        }
        // The floor: copying the same cards durably with cp + sync, into new folders each round.
        let copies = try Rounds.run(
            rounds,
            [
                { round in
                    try Spawn.timed(
                        "sh",
                        [
                            "-c", "cp -a \"$0\" \"$1\" && sync", paired.path,
                            output.appendingPathComponent("cp-with-\(round)").path,
                        ])
                },
                { round in
                    try Spawn.timed(
                        "sh",
                        [
                            "-c", "cp -a \"$0\" \"$1\" && sync", plain.path,
                            output.appendingPathComponent("cp-without-\(round)").path,
                        ])
                },
            ])
        result.add("cp -a + sync, with sidecars", Statistics.median(copies[0]) * 1000, "ms")
        result.add("cp -a + sync, without", Statistics.median(copies[1]) * 1000, "ms")
        result.paired(
            "cp -a + sync (the floor), \(count) photos: with sidecars / without", ours: copies[0], baseline: copies[1],
            faster: false, goal: nil)
        result.notes.append(
            "Each sidecar is a file of its own, copied, hashed and flushed with its photo in the same commit: twice the files. The cp + sync row is what the same doubling costs a plain copy on this disk."
        )
        discard(output)
        return result
    }
}
