import AlbumKitCore
import Foundation

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
        var ours: [Double] = []
        var copyFsync: [Double] = []
        var roundRatios: [Double] = []
        for round in 0..<rounds {
            Statistics.settle()
            var roundOurs: [Double] = []
            var roundCopies: [Double] = []
            for index in 0..<perRound {
                let file = files[1 + (round * perRound + index) % (files.count - 1)]
                roundOurs.append(try await Statistics.time { _ = try await Self.save(file, into: album) })
                let copy = copies.appendingPathComponent("\(round)-\(index).jpg")
                roundCopies.append(
                    try Statistics.time { try Baseline.copyAndFsync(file, to: copy, syncingDirectory: false) })
            }
            ours += roundOurs
            copyFsync += roundCopies
            roundRatios.append(Statistics.median(roundOurs) / Statistics.median(roundCopies))
        }
        result.add("album.save median", Statistics.median(ours) * 1000, "ms")
        result.add("album.save p99", Statistics.percentile(ours, 99) * 1000, "ms")
        result.add("copy + fsync median", Statistics.median(copyFsync) * 1000, "ms")
        result.ratios.append(
            Ratio(
                name: "median latency album / copy+fsync",
                value: Statistics.median(ours) / Statistics.median(copyFsync),
                rounds: roundRatios, goal: .atMost(2.0)))
        result.notes.append(
            "a round is \(perRound) saves alternating with \(perRound) copies; the spread is the rounds' median ratios")
        discard(url)
        discard(copies)
        return result
    }
}
