/// 64-bit hashes indexed to find, fast, those within a few bits of each other (multi-index hashing).
///
/// Each hash is cut into four 16-bit bands and every band is indexed by its value (a counting sort:
/// one table of 65 536 starts and one list of hash numbers per band). Two hashes at most `radius` bits
/// apart differ by at most `radius / 4` bits in one band at least (four bands cannot each hold more),
/// so a search looks up, in each band, the values within `radius / 4` bits of the query's band (1,
/// 17 or 137 of them for 0, 1 or 2 bits) and checks the whole hash of each hash found there.
///
/// Over 1 000 000 random hashes a bucket holds about 15 hashes: for all pairs within 7 bits each hash
/// is compared with about 1 000 others (17 buckets in 4 bands; `album-bench`'s near-duplicate row),
/// within 8 to 11 bits with about 8 000 (137 buckets), 8 times the work.
///
/// ```swift
/// let index = NearDuplicateIndex(hashes)
/// index.neighbours(of: hashes[0], within: 8)          // numbers of the hashes within 8 bits
/// let pairs = await index.pairs(within: 8)              // every (i, j), i < j, within 8 bits
/// ```
package struct NearDuplicateIndex: Sendable {
    /// The hashes indexed, by number.
    package let hashes: [UInt64]
    /// For each band, where each band value's hash numbers start in ``members`` (65 537 entries).
    private let starts: [[Int32]]
    /// For each band, the hash numbers in order of their band value.
    private let members: [[Int32]]
    /// For each band, the hashes themselves in the order of ``members``, so a bucket's hashes are
    /// compared reading memory in order.
    private let bucketHashes: [[UInt64]]

    /// The largest radius searched: two bits in a band (137 values a band).
    package static let largestRadius = 11

    /// Indexes `hashes` (at most 2³¹ − 1 of them).
    package init(_ hashes: [UInt64]) {
        precondition(hashes.count < Int(Int32.max), "at most 2^31 - 1 hashes")
        self.hashes = hashes
        var starts: [[Int32]] = []
        var members: [[Int32]] = []
        var bucketHashes: [[UInt64]] = []
        for band in 0..<4 {
            var counts = [Int32](repeating: 0, count: 65_537)
            for hash in hashes { counts[Int(Self.band(band, of: hash)) + 1] += 1 }
            for value in 0..<65_536 { counts[value + 1] += counts[value] }
            var next = counts
            var list = [Int32](repeating: 0, count: hashes.count)
            var values = [UInt64](repeating: 0, count: hashes.count)
            for (number, hash) in hashes.enumerated() {
                let value = Int(Self.band(band, of: hash))
                list[Int(next[value])] = Int32(number)
                values[Int(next[value])] = hash
                next[value] += 1
            }
            starts.append(counts)
            members.append(list)
            bucketHashes.append(values)
        }
        self.starts = starts
        self.members = members
        self.bucketHashes = bucketHashes
    }

    /// The numbers of every indexed hash within `radius` bits of `hash` (itself included when indexed).
    package func neighbours(of hash: UInt64, within radius: Int) -> [Int] {
        var found: [Int] = []
        search(hash, within: radius) { number, _ in found.append(number) }
        return found.sorted()
    }

    /// Every pair of indexed hashes at most `radius` bits apart, `(i, j)` with `i < j`, in no order,
    /// searched on one thread per core.
    package func pairs(within radius: Int) async -> [(Int, Int)] {
        let chunk = 4096
        let chunks = (hashes.count + chunk - 1) / chunk
        let found = Locked([[(Int, Int)]](repeating: [], count: chunks))
        await Blocking.forEach(chunks) { part in
            var pairs: [(Int, Int)] = []
            for number in part * chunk..<min(hashes.count, (part + 1) * chunk) {
                search(hashes[number], within: radius) { other, _ in
                    if other > number { pairs.append((number, other)) }
                }
            }
            found.withLock { $0[part] = pairs }
        }
        return found.withLock { $0.flatMap { $0 } }
    }

    /// Calls `visit` once for each indexed hash within `radius` bits of `hash`, with its distance.
    private func search(_ hash: UInt64, within radius: Int, _ visit: (Int, Int) -> Void) {
        precondition((0...Self.largestRadius).contains(radius), "a radius of 0 to 11 bits")
        let bandRadius = radius / 4
        for band in 0..<4 {
            let value = Self.band(band, of: hash)
            // Read through buffer pointers: the arrays are not retained and bounds-checked per hash.
            starts[band].withUnsafeBufferPointer { bandStarts in
                bucketHashes[band].withUnsafeBufferPointer { bandHashes in
                    members[band].withUnsafeBufferPointer { bandMembers in
                        Self.forEachValue(near: value, within: bandRadius) { probe in
                            let bucketStart = Int(bandStarts[Int(probe)])
                            let bucketEnd = Int(bandStarts[Int(probe) + 1])
                            for slot in bucketStart..<bucketEnd {
                                let other = bandHashes[slot]
                                let distance = (other ^ hash).nonzeroBitCount
                                guard distance <= radius else { continue }
                                // Found once: in the first band where it is within the band radius.
                                var earlier = false
                                for previous in 0..<band
                                where (Self.band(previous, of: other) ^ Self.band(previous, of: hash))
                                    .nonzeroBitCount <= bandRadius
                                {
                                    earlier = true
                                    break
                                }
                                if !earlier { visit(Int(bandMembers[slot]), distance) }
                            }
                        }
                    }
                }
            }
        }
    }

    private static func band(_ band: Int, of hash: UInt64) -> UInt16 { UInt16(truncatingIfNeeded: hash >> (16 * band)) }

    /// `value`, then every 16-bit value one bit from it, then two bits, up to `radius` bits.
    private static func forEachValue(near value: UInt16, within radius: Int, _ body: (UInt16) -> Void) {
        body(value)
        guard radius >= 1 else { return }
        for first in 0..<16 {
            let once = value ^ (1 << first)
            body(once)
            guard radius >= 2 else { continue }
            for second in (first + 1)..<16 { body(once ^ (1 << second)) }
        }
    }
}
