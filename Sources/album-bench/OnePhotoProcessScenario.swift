import Foundation

extension Bench {
    /// One `album save` process saving one photo into an existing catalog (start-up, opening the
    /// catalog, the save and exit) vs `cp PHOTO DIR` then `sync DIR/PHOTO DIR`, as one would copy a
    /// photo by hand and make it and its name durable; paired, a new photo each time.
    func onePhotoProcess(_ files: [URL]) throws -> ScenarioResult {
        var result = ScenarioResult(id: "onephoto", title: "One-photo album save process vs cp + sync FILE DIR")
        let album = try Spawn.albumExecutable()
        let perRound = 5
        result.parameters = ["rounds": "\(rounds)", "savesPerRound": "\(perRound)"]
        let library = try directory("onephoto").appendingPathComponent("Photos.albumlibrary").path
        let copies = try directory("onephoto-cp")
        // Creates the library and the album: not what is measured.
        try Spawn.timed(album, ["--library", library, "save", "--album", "One", files[0].path])
        var ours: [Double] = []
        var copiesTimed: [Double] = []
        var next = 1
        let times = try Rounds.run(
            rounds,
            [
                { _ in
                    var runs: [Double] = []
                    for _ in 0..<perRound {
                        let file = files[next % files.count]
                        next += 1
                        runs.append(
                            try Spawn.timed(album, ["--library", library, "save", "--album", "One", file.path]))
                    }
                    ours += runs
                    return Statistics.median(runs)
                },
                { round in
                    var runs: [Double] = []
                    for index in 0..<perRound {
                        let file = files[(round * perRound + index) % files.count]
                        let folder = copies.appendingPathComponent("\(round)-\(index)")
                        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
                        let copy = folder.appendingPathComponent(file.lastPathComponent)
                        runs.append(
                            try Spawn.timed("cp", [file.path, folder.path])
                                + Spawn.timed("sync", [copy.path, folder.path]))
                    }
                    copiesTimed += runs
                    return Statistics.median(runs)
                },
            ])
        result.add("album save process median", Statistics.median(ours) * 1000, "ms")
        result.add("cp + sync FILE DIR median", Statistics.median(copiesTimed) * 1000, "ms")
        result.measured(
            "process − (cp + sync), ms", zip(times[0], times[1]).map { ($0 - $1) * 1000 }, unit: "ms", goal: nil)
        result.paired(
            "one-photo process / cp + sync FILE DIR", ours: times[0], baseline: times[1], faster: false,
            goal: .atMost(2.0))
        result.notes.append(
            "a round is \(perRound) saves, each its own process into the same library, and \(perRound) copies into new folders, the disks flushed before each side; the spread is the rounds' median ratios"
        )
        discard(copies)
        return result
    }
}
