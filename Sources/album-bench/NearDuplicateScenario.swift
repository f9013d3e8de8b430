import AlbumKitCore
import Foundation

extension Bench {
    /// The near-duplicate row: every pair of 1 000 000 stored 64-bit hashes within the duplicate
    /// search's radius (7 bits, `album duplicates`'s similar pictures), index built and searched in
    /// each round on every core, against the target of 5 s on 2 cores. One hash in ten has a copy
    /// 1 to 8 bits away, as a library with copies would; the row checks every copy is found.
    func nearDuplicates() async throws -> ScenarioResult {
        var result = ScenarioResult(
            id: "nearduplicates", title: "near-duplicate search: all pairs among 1 000 000 stored hashes")
        let count = 1_000_000
        var generator = SplitMix(state: 44)
        var hashes: [UInt64] = []
        var planted: [(Int, Int, Int)] = []
        hashes.reserveCapacity(count)
        while hashes.count < count {
            let hash = generator.next()
            hashes.append(hash)
            if hashes.count % 10 == 0, hashes.count < count {
                var copy = hash
                let bits = Int(generator.next() % 8) + 1
                while (copy ^ hash).nonzeroBitCount < bits { copy ^= 1 << (generator.next() % 64) }
                planted.append((hashes.count - 1, hashes.count, (copy ^ hash).nonzeroBitCount))
                hashes.append(copy)
            }
        }
        let runs = max(rounds, 10)
        result.parameters = ["hashes": "\(count)", "rounds": "\(runs)", "cores": "\(Blocking.width)"]
        for radius in [7] {
            var times: [Double] = []
            var found = 0
            var plantedFound = 0
            for _ in 0..<runs {
                var pairs: [(Int, Int)] = []
                times.append(
                    await Statistics.time {
                        pairs = await NearDuplicateIndex(hashes).pairs(within: radius)
                    })
                found = pairs.count
                let set = Set(pairs.map { $0.0 * count + $0.1 })
                plantedFound = planted.filter { $0.2 <= radius && set.contains($0.0 * count + $0.1) }.count
            }
            let expected = planted.filter { $0.2 <= radius }.count
            result.measured(
                "index + all pairs within \(radius) bits", times, unit: "s", goal: .atMost(5))
            result.add("pairs within \(radius) bits", Double(found), "pairs")
            result.check(
                "planted copies within \(radius) bits found", Double(plantedFound), unit: "of \(expected)",
                target: "all", met: plantedFound == expected)
        }
        result.notes.append(
            "random hashes spread evenly over the index's buckets; a real library's cluster more, so its buckets are uneven"
        )
        return result
    }
}

/// SplitMix64: the same synthetic hashes every run.
private struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
