import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Bench {
    /// Row 5: one durable save at a time into an open catalog (`album.save` returning means the
    /// file and its row are on disk) vs copying one file and `fsync`ing it, alternating save by save.
    func single(_ files: [URL]) async throws -> ScenarioResult {
        var result = ScenarioResult(id: "single", title: "Single durable save vs copy + fsync of one file")
        let perRound = 10
        result.parameters = ["rounds": "\(rounds)", "savesPerRound": "\(perRound)"]
        let (url, library) = try library("single")
        let album = library.album(titled: "Single")
        _ = try await Self.save(files[0], into: album)  // creates the album: not what is measured
        let copies = try directory("single-cp")
        let log = try Baseline.openLog(copies.appendingPathComponent("records.log"))
        defer { close(log) }
        // The baseline, then what any save that names its file durably, or records it in a catalog,
        // must at least do (Baseline.Durability): measured beside the saves, so the target's reach
        // on this disk is read in the same run.
        let floors: [(name: String, durability: Baseline.Durability, hashing: Bool)] = [
            ("copy + fsync + folder fsync", .fileAndName, false),
            ("ordered commit: file, folder, record", .orderedCommit(log: log), false),
            ("one barrier: file + record, syncfs", .oneBarrier(log: log), false),
            // What a library that recognises the same bytes as one asset must add: their SHA-256.
            ("ordered commit, SHA-256 while copying", .orderedCommit(log: log), true),
        ]
        var ours: [Double] = []
        var copyFsync: [Double] = []
        var roundRatios: [Double] = []
        var roundMedians: (ours: [Double], copy: [Double]) = ([], [])
        var floorMedians = [[Double]](repeating: [], count: floors.count)
        for round in 0..<rounds {
            Statistics.flushAllFileSystems()
            var roundOurs: [Double] = []
            var roundCopies: [Double] = []
            var roundFloors = [[Double]](repeating: [], count: floors.count)
            for index in 0..<perRound {
                let file = files[1 + (round * perRound + index) % (files.count - 1)]
                roundOurs.append(try await Statistics.time { _ = try await Self.save(file, into: album) })
                // The save returned at its acknowledgement; its index commit ends before the
                // copies are timed, so it never slows them (untimed).
                await Blocking.acknowledgedWorkFinished()
                let copy = copies.appendingPathComponent("\(round)-\(index).jpg")
                roundCopies.append(
                    try Statistics.time { try Baseline.copy(file, to: copy, durably: .file) })
                for floor in floors.indices {
                    let target = copies.appendingPathComponent("\(round)-\(index)-\(floor).jpg")
                    roundFloors[floor].append(
                        try Statistics.time {
                            try Baseline.copy(
                                file, to: target, durably: floors[floor].durability, hashing: floors[floor].hashing)
                        })
                }
            }
            ours += roundOurs
            copyFsync += roundCopies
            roundRatios.append(Statistics.median(roundOurs) / Statistics.median(roundCopies))
            roundMedians.ours.append(Statistics.median(roundOurs))
            roundMedians.copy.append(Statistics.median(roundCopies))
            for floor in floors.indices { floorMedians[floor].append(Statistics.median(roundFloors[floor])) }
        }
        result.add("album.save median", Statistics.median(ours) * 1000, "ms")
        result.add("album.save p99", Statistics.percentile(ours, 99) * 1000, "ms")
        result.add("copy + fsync median", Statistics.median(copyFsync) * 1000, "ms")
        result.ratios.append(
            Ratio(
                name: "median latency album / copy+fsync",
                value: Statistics.median(ours) / Statistics.median(copyFsync),
                rounds: roundRatios, goal: .atMost(2.0)))
        for floor in floors.indices {
            result.add("\(floors[floor].name) median", Statistics.median(floorMedians[floor]) * 1000, "ms")
            result.paired(
                "floor: \(floors[floor].name) / copy+fsync", ours: floorMedians[floor], baseline: roundMedians.copy,
                faster: false, goal: nil)
        }
        result.paired(
            "album / ordered-commit floor", ours: roundMedians.ours, baseline: floorMedians[1], faster: false,
            goal: .atMost(1.3))
        result.paired(
            "album / ordered commit with SHA-256", ours: roundMedians.ours, baseline: floorMedians[3], faster: false,
            goal: nil)
        result.notes.append(
            "a round is \(perRound) saves alternating with \(perRound) copies made durable each way; the spread is the rounds' median ratios"
        )
        result.notes.append(
            "the floors are what any save must at least do on this disk: name the file durably; record it in a catalog only once the file and its name are durable; or make file and record durable in one barrier"
        )
        discard(url)
        discard(copies)
        return result
    }
}
