import Foundation

extension Bench {
    /// Row 6: process start, `album --help` vs `cp --help` (each run to exit, output discarded).
    func start() throws -> ScenarioResult {
        var result = ScenarioResult(id: "start", title: "Process start: album --help vs cp --help")
        let album = try Spawn.albumExecutable()
        let perRound = 10
        result.parameters = ["rounds": "\(rounds)", "runsPerRound": "\(perRound)"]
        var ours: [[Double]] = []
        var copies: [[Double]] = []
        var ourFaults: [Double] = []
        var copyFaults: [Double] = []
        for _ in 0..<rounds {
            var roundOurs: [Double] = []
            var roundCopies: [Double] = []
            for run in 0..<perRound {
                // Alternating, without flushing: nothing is written.
                let sides = [
                    {
                        let run = try Spawn.run(album, ["--help"])
                        roundOurs.append(run.seconds * 1000)
                        ourFaults.append(Double(run.pageFaults))
                    },
                    {
                        let run = try Spawn.run("cp", ["--help"])
                        roundCopies.append(run.seconds * 1000)
                        copyFaults.append(Double(run.pageFaults))
                    },
                ]
                for side in run % 2 == 0 ? sides : sides.reversed() { try side() }
            }
            ours.append(roundOurs)
            copies.append(roundCopies)
        }
        result.add("cp --help median", Statistics.median(copies.flatMap { $0 }), "ms")
        // Page faults are most of a start's kernel time on a virtual machine, and do not vary between
        // runs: a start-up regression shows here even on a noisy day.
        result.add("album --help, page faults", Statistics.median(ourFaults), "faults")
        result.add("cp --help, page faults", Statistics.median(copyFaults), "faults")
        // One value per round (its median), so the spread is the rounds', not a single run's hiccup.
        result.measured("album --help, ms", ours.map(Statistics.median), unit: "ms", goal: .atMost(3))
        result.paired(
            "album --help / cp --help", ours: ours.map(Statistics.median), baseline: copies.map(Statistics.median),
            faster: false, goal: nil)
        return result
    }
}
