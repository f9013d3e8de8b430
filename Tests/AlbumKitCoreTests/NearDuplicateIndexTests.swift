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

    /// 20 000 hashes: random ones, a planted neighbour of one in ten at every distance from 0 to 12
    /// bits (flipped bits chosen at random, so some neighbours are close in several bands and some
    /// in one only), and a crowd of 400 variants of one hash (up to 6 bits flipped each) and 400 of
    /// another sharing its low 32 bits, so some buckets hold hundreds of hashes.
    static let crowded: [UInt64] = {
        var generator = SeededGenerator(seed: 2026)
        var hashes: [UInt64] = []
        func flipped(_ hash: UInt64, bits: Int) -> UInt64 {
            var copy = hash
            while (copy ^ hash).nonzeroBitCount < bits { copy ^= 1 << UInt64.random(in: 0..<64, using: &generator) }
            return copy
        }
        let crowd = UInt64.random(in: .min ... .max, using: &generator)
        for _ in 0..<400 { hashes.append(flipped(crowd, bits: Int.random(in: 0...6, using: &generator))) }
        let lowBits = UInt64.random(in: .min ... .max, using: &generator) & 0xFFFF_FFFF
        for _ in 0..<400 { hashes.append(UInt64.random(in: .min ... .max, using: &generator) << 32 | lowBits) }
        var distance = 0
        while hashes.count < 20_000 {
            let hash = UInt64.random(in: .min ... .max, using: &generator)
            hashes.append(hash)
            if hashes.count % 10 == 0 {
                hashes.append(flipped(hash, bits: distance))
                distance = (distance + 1) % 13
            }
        }
        return hashes
    }()

    /// Every pair of ``crowded`` within 12 bits, with its distance, found by comparing every pair.
    static let crowdedPairsByBruteForce: [(pair: [Int], distance: Int)] = {
        var pairs: [(pair: [Int], distance: Int)] = []
        crowded.withUnsafeBufferPointer { hashes in
            for i in hashes.indices {
                for j in (i + 1)..<hashes.count {
                    let distance = (hashes[i] ^ hashes[j]).nonzeroBitCount
                    if distance <= 12 { pairs.append(([i, j], distance)) }
                }
            }
        }
        return pairs
    }()

    @Test(arguments: 0...NearDuplicateIndex.largestRadius)
    func pairsAmongCrowdedBucketsAreExactlyThoseABruteForceSearchFinds(radius: Int) async {
        let expected = Set(Self.crowdedPairsByBruteForce.filter { $0.distance <= radius }.map(\.pair))
        let index = NearDuplicateIndex(Self.crowded)
        // With the processor's bit-count instruction where it has one, and without.
        for portable in [false, true] {
            let found = await index.pairs(within: radius, portable: portable)
            #expect(found.allSatisfy { $0.0 < $0.1 })
            #expect(found.count == expected.count, "each pair once")
            #expect(Set(found.map { [$0.0, $0.1] }) == expected, "portable: \(portable)")
        }
        let planted = Self.crowdedPairsByBruteForce.filter { $0.pair[0] >= 800 && $0.pair[1] == $0.pair[0] + 1 }
        #expect(Set(planted.map(\.distance)) == Set(0...12), "a neighbour planted at every distance")
        #expect(planted.filter { $0.distance == radius }.count > 100, "neighbours right at the radius")
        #expect(planted.filter { $0.distance == radius + 1 }.count > 100, "neighbours just beyond it")
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
