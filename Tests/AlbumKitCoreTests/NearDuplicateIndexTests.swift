import Foundation
import Testing

@testable import AlbumKitCore

/// The multi-index search against a brute-force comparison of every pair.
@Suite struct NearDuplicateIndexTests {
    /// `count` random hashes, and for one in ten of them a copy with 1 to `flips` bits changed.
    static func hashes(count: Int, flips: Int, seed: UInt64) -> [UInt64] {
        var generator = SeededGenerator(seed: seed)
        var hashes: [UInt64] = []
        while hashes.count < count {
            let hash = UInt64.random(in: .min ... .max, using: &generator)
            hashes.append(hash)
            if hashes.count % 10 == 0 {
                var copy = hash
                for _ in 0..<Int.random(in: 1...flips, using: &generator) {
                    copy ^= 1 << UInt64.random(in: 0..<64, using: &generator)
                }
                hashes.append(copy)
            }
        }
        return hashes
    }

    @Test(arguments: [0, 3, 4, 7, 8, 11])
    func pairsAreExactlyThoseABruteForceSearchFinds(radius: Int) async {
        let hashes = Self.hashes(count: 4000, flips: 14, seed: UInt64(radius) + 7)
        var expected: Set<[Int]> = []
        for i in hashes.indices {
            for j in (i + 1)..<hashes.count where (hashes[i] ^ hashes[j]).nonzeroBitCount <= radius {
                expected.insert([i, j])
            }
        }
        let found = await NearDuplicateIndex(hashes).pairs(within: radius)
        #expect(found.count == expected.count, "each pair once")
        #expect(Set(found.map { [$0.0, $0.1] }) == expected)
        #expect(radius < 3 || expected.count > 50, "the planted copies are found")
    }

    @Test func neighboursIncludeTheHashItselfAndNothingFarther() {
        let hashes: [UInt64] = [0, 0b1, 0b111, 0xFFFF, 0xFFFF_0000_0000_0000, .max]
        let index = NearDuplicateIndex(hashes)
        #expect(index.neighbours(of: 0, within: 0) == [0])
        #expect(index.neighbours(of: 0, within: 3) == [0, 1, 2])
        #expect(index.neighbours(of: 0b11, within: 1) == [1, 2])
        #expect(index.neighbours(of: .max, within: 11) == [5])
    }
}

/// A small deterministic generator (SplitMix64), so a failing case can be run again.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
