import Foundation

extension Bench {
    /// Row `slowdisk`: the catalog batch of 300 on a slow disk (``ThrottledDisk``: 20 MiB/s and
    /// 200 writes a second, as a USB stick or memory card) against `cp` + `sync` and the crash-safe
    /// batch floor on the same disk. The target is the floor's: on a disk slow in bytes `cp` +
    /// `sync` is at the device's limit already and no batch that orders its flushes can pass it
    /// (Docs/performance.md, "A slow disk and a busy one"), so that ratio is shown, not checked.
    func slowDisk(_ files: [URL]) throws -> ScenarioResult {
        var result = ScenarioResult(
            id: "slowdisk", title: "Batch into a catalog on a slow disk (20 MiB/s, 200 writes/s) vs cp + sync")
        let disk: ThrottledDisk
        do {
            disk = try ThrottledDisk(in: try directory("slowdisk"), bytesPerSecond: 20 << 20, writesPerSecond: 200)
        } catch {
            result.skipped = "no slow disk: \(error)"
            return result
        }
        defer { disk.remove() }
        let album = try Spawn.albumExecutable()
        let batch = files.map(\.path)
        let output = disk.mountPoint
        let times = try Rounds.run(
            rounds,
            [
                { round in try Self.savingIntoNewLibrary(album, batch, at: output, "album-\(round)") },
                { round in try Baseline.copyThenSync(batch, into: output.appendingPathComponent("cp-\(round)")) },
                { round in try BatchFloor.timed(batch, into: output.appendingPathComponent("floor-\(round)")) },
            ])
        result.parameters = [
            "files": "\(files.count)", "rounds": "\(rounds)", "bytesPerSecond": "\(20 << 20)",
            "writesPerSecond": "200", "averageKB": "\(Corpus.byteCount(files) / Int64(max(1, files.count)) / 1024)",
        ]
        result.add("album save, \(files.count) files", Statistics.median(times[0]) * 1000, "ms")
        result.add("cp + sync, \(files.count) files", Statistics.median(times[1]) * 1000, "ms")
        result.add("crash-safe batch floor, \(files.count) files", Statistics.median(times[2]) * 1000, "ms")
        result.paired(
            "\(files.count) files, slow disk: cp+sync time / album", ours: times[0], baseline: times[1], faster: true,
            goal: nil)
        result.paired(
            "\(files.count) files, slow disk: album / crash-safe batch floor", ours: times[0], baseline: times[2],
            faster: false, goal: .atMost(1.15))
        result.notes.append(
            "a loop device's writes held by cgroup v1's block I/O throttle (the writer's, the kernel's writeback and the journal's alike); each round writes new folders on it"
        )
        return result
    }

    /// Row `busydisk`: the catalog batch of 300 and `cp` + `sync`, each alone and with another
    /// process writing to the same disk (``BusyNeighbour``), in paired rounds, and the crash-safe
    /// floor the same way. Checked: the batch under load against the floor under load. Shown: each
    /// round's slowdown of the batch over that of `cp` + `sync`, and the floor's, since every
    /// ordered flush waits behind the neighbour and `cp` + `sync` has one.
    func busyDisk(_ files: [URL]) throws -> ScenarioResult {
        var result = ScenarioResult(
            id: "busydisk", title: "Batch into a catalog while another process writes to the disk, vs cp + sync")
        let album = try Spawn.albumExecutable()
        let batch = files.map(\.path)
        let output = try directory("busydisk")
        func busy(_ measure: () throws -> Double) throws -> Double {
            let neighbour = try BusyNeighbour(writingIn: output)
            defer { neighbour.stop() }
            return try measure()
        }
        let times = try Rounds.run(
            rounds,
            [
                { round in try Self.savingIntoNewLibrary(album, batch, at: output, "album-quiet-\(round)") },
                { round in try Baseline.copyThenSync(batch, into: output.appendingPathComponent("cp-quiet-\(round)")) },
                { round in try Self.savingIntoNewLibrary(album, batch, at: output, "album-busy-\(round)", busy) },
                { round in
                    try busy {
                        try Baseline.copyThenSync(batch, into: output.appendingPathComponent("cp-busy-\(round)"))
                    }
                },
                { round in try BatchFloor.timed(batch, into: output.appendingPathComponent("floor-quiet-\(round)")) },
                { round in
                    try busy { try BatchFloor.timed(batch, into: output.appendingPathComponent("floor-busy-\(round)")) }
                },
            ])
        result.parameters = ["files": "\(files.count)", "rounds": "\(rounds)"]
        let sides = [
            "album save", "cp + sync", "album save, disk busy", "cp + sync, disk busy", "crash-safe batch floor",
            "crash-safe batch floor, disk busy",
        ]
        for (side, name) in sides.enumerated() {
            result.add("\(name), \(files.count) files", Statistics.median(times[side]) * 1000, "ms")
        }
        result.paired(
            "\(files.count) files, quiet disk: cp+sync time / album", ours: times[0], baseline: times[1],
            faster: true, goal: nil)
        result.paired(
            "\(files.count) files, busy disk: cp+sync time / album", ours: times[2], baseline: times[3],
            faster: true, goal: nil)
        // Each round's slowdown of the batch over that of cp + sync: ≤ 1 when it loses no more.
        let lost = (0..<times[0].count).map { round in
            (times[2][round] / times[0][round]) / (times[3][round] / times[1][round])
        }
        result.measured(
            "\(files.count) files: album's slowdown from the neighbour / cp+sync's", lost, unit: "×",
            goal: nil)
        // The same for the floor: what any batch that orders its flushes loses.
        let floorLost = (0..<times[0].count).map { round in
            (times[5][round] / times[4][round]) / (times[3][round] / times[1][round])
        }
        result.measured(
            "\(files.count) files: the floor's slowdown from the neighbour / cp+sync's", floorLost, unit: "×",
            goal: nil)
        result.paired(
            "\(files.count) files, busy disk: album / crash-safe batch floor", ours: times[2], baseline: times[5],
            faster: false, goal: .atMost(1.15))
        result.notes.append(
            "the neighbour: dd rewriting 256 MiB through the page cache, then fsync, over and over; started 0.3 s before the measured side and killed after it"
        )
        discard(output)
        return result
    }

    /// Times `album save --album Batch FILES…` into a library made just before with its album
    /// (`album create Batch`, not timed), as a user's second import would find it: the batch alone,
    /// without what making a library costs once (its journal and folders made durable). `timing`
    /// wraps the measured part (``busyDisk(_:)``'s neighbour).
    static func savingIntoNewLibrary(
        _ album: String, _ batch: [String], at folder: URL, _ name: String,
        _ timing: (_ measure: () throws -> Double) throws -> Double = { try $0() }
    ) throws -> Double {
        let library = folder.appendingPathComponent("\(name).albumlibrary").path
        try Spawn.timed(album, ["--library", library, "create", "Batch"])
        return try timing { try Spawn.timed(album, ["--library", library, "save", "--album", "Batch"] + batch) }
    }
}
