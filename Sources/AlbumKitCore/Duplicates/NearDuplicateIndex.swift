import CNearDuplicates

/// 64-bit hashes indexed to find, fast, those within a few bits of each other (multi-index hashing).
///
/// Each hash is cut into four 16-bit bands and every band is indexed by its value (a counting sort:
/// one table of 65 536 bucket starts, then the hashes themselves and their numbers in bucket order,
/// each in one contiguous array). Two hashes at most `radius` bits apart differ by at most
/// `radius / 4` bits in one band at least (four bands cannot each hold more), so two such hashes
/// share a bucket, or sit in buckets whose values are within `radius / 4` bits (1, 17 or 137 values
/// for 0, 1 or 2 bits), in at least one band.
///
/// ``pairs(within:)`` joins the index with itself: in each band, each bucket's hashes are compared
/// with the later hashes of the same bucket and with every hash of each neighbouring bucket of a
/// higher value, so each pair of buckets is read once. A pair close in several bands is reported
/// only from the first of them (its earlier bands' bits are counted before it is kept), so every
/// pair within the radius comes out exactly once, with no set to remove repeats.
///
/// Over 1 000 000 random hashes a bucket holds about 15 hashes: all pairs within 7 bits take about
/// 520 million comparisons of two hashes (in each of 4 bands, 65 536 buckets joined with themselves
/// and 8 of their 16 neighbours), each an exclusive or and a bit count over memory read in order
/// (`album-bench`'s near-duplicate row). That loop is C (`CNearDuplicates`), where the bit count is
/// the processor's one instruction: about 1 ns a comparison, half the time of Swift's shifts and masks. Within 8 to 11 bits, 68 of the 136 neighbours: 8 times
/// the work. Five or more bands would be slower: 13-bit bands hold 8 times as many hashes a bucket.
///
/// ```swift
/// let index = NearDuplicateIndex(hashes)
/// index.neighbours(of: hashes[0], within: 8)          // numbers of the hashes within 8 bits
/// let pairs = await index.pairs(within: 8)              // every (i, j), i < j, within 8 bits
/// ```
package struct NearDuplicateIndex: Sendable {
    /// The hashes indexed, by number.
    package let hashes: [UInt64]
    /// The four bands, lowest bits first.
    private let bands: [Band]

    /// One band's buckets, each in one piece of ``values`` and ``numbers``.
    private struct Band: Sendable {
        /// Where each band value's bucket starts in ``values`` and ``numbers`` (65 537 entries, the
        /// last the number of hashes).
        var starts: [Int32]
        /// The hashes, in order of their band value.
        var values: [UInt64]
        /// The number of each hash of ``values``.
        var numbers: [Int32]
    }

    /// The largest radius searched: two bits in a band (137 values a band).
    package static let largestRadius = 11

    /// Buckets of one band searched as one piece of work in ``pairs(within:)``: 64 pieces a band,
    /// 256 in all, so the cores finish together though buckets differ in size.
    private static let bucketsPerPiece = 1024

    /// Indexes `hashes` (at most 2³¹ − 1 of them).
    package init(_ hashes: [UInt64]) {
        precondition(hashes.count < Int(Int32.max), "at most 2^31 - 1 hashes")
        self.hashes = hashes
        bands = (0..<4).map { Self.band($0, indexing: hashes) }
    }

    /// The counting sort of `hashes` by their band `band`.
    private static func band(_ band: Int, indexing hashes: [UInt64]) -> Band {
        let shift = UInt64(16 * band)
        var starts = [Int32](repeating: 0, count: 65_537)
        var values = [UInt64](repeating: 0, count: hashes.count)
        var numbers = [Int32](repeating: 0, count: hashes.count)
        hashes.withUnsafeBufferPointer { hashes in
            starts.withUnsafeMutableBufferPointer { starts in
                for hash in hashes { starts[Int(truncatingIfNeeded: (hash >> shift) & 0xFFFF) + 1] += 1 }
                for value in 0..<65_536 { starts[value + 1] += starts[value] }
            }
            var next = Array(starts.dropLast())
            next.withUnsafeMutableBufferPointer { next in
                values.withUnsafeMutableBufferPointer { values in
                    numbers.withUnsafeMutableBufferPointer { numbers in
                        for (number, hash) in hashes.enumerated() {
                            let value = Int(truncatingIfNeeded: (hash >> shift) & 0xFFFF)
                            let slot = Int(next[value])
                            values[slot] = hash
                            numbers[slot] = Int32(truncatingIfNeeded: number)
                            next[value] += 1
                        }
                    }
                }
            }
        }
        return Band(starts: starts, values: values, numbers: numbers)
    }

    /// The numbers of every indexed hash within `radius` bits of `hash` (itself included when indexed).
    package func neighbours(of hash: UInt64, within radius: Int) -> [Int] {
        Self.checkRadius(radius)
        let bandRadius = radius / 4
        let probes = [0] + Self.masks(within: bandRadius)
        var found: [Int] = []
        for (band, table) in bands.enumerated() {
            let value = Int(truncatingIfNeeded: (hash >> UInt64(16 * band)) & 0xFFFF)
            for mask in probes {
                let bucket = value ^ mask
                for slot in Int(table.starts[bucket])..<Int(table.starts[bucket + 1]) {
                    let other = table.values[slot]
                    if (other ^ hash).nonzeroBitCount <= radius,
                        !Self.closeInEarlierBand(other ^ hash, before: band, within: bandRadius)
                    {
                        found.append(Int(table.numbers[slot]))
                    }
                }
            }
        }
        return found.sorted()
    }

    /// Every pair of indexed hashes at most `radius` bits apart, `(i, j)` with `i < j`, each once,
    /// in no order, searched on one thread per core; `portable` compares without the processor's
    /// bit-count instruction even where it has one (tests compare both).
    package func pairs(within radius: Int, portable: Bool = false) async -> [(Int, Int)] {
        Self.checkRadius(radius)
        let piecesPerBand = 65_536 / Self.bucketsPerPiece
        let found = Locked([[(Int, Int)]](repeating: [], count: bands.count * piecesPerBand))
        await Blocking.forEach(bands.count * piecesPerBand) { piece in
            let first = (piece % piecesPerBand) * Self.bucketsPerPiece
            let pairs = pairs(
                inBand: piece / piecesPerBand, buckets: first..<(first + Self.bucketsPerPiece), within: radius,
                portable: portable)
            found.withLock { $0[piece] = pairs }
        }
        return found.withLock { $0.flatMap { $0 } }
    }

    /// The pairs within `radius` bits found first in band `band` with one hash in `buckets`: each
    /// bucket joined with itself and with its neighbours of higher value, in C
    /// (`albumkit_near_pairs`, where the bit count is one instruction), into a buffer made larger
    /// and filled again in the rare piece that finds more pairs than it holds.
    private func pairs(inBand band: Int, buckets: Range<Int>, within radius: Int, portable: Bool) -> [(Int, Int)] {
        let table = bands[band]
        var capacity = 1024
        while true {
            var numbers = [Int32](repeating: 0, count: 2 * capacity)
            let count = table.starts.withUnsafeBufferPointer { starts in
                table.values.withUnsafeBufferPointer { values in
                    table.numbers.withUnsafeBufferPointer { members in
                        numbers.withUnsafeMutableBufferPointer { out in
                            albumkit_near_pairs(
                                albumkit_near_band(
                                    starts: starts.baseAddress, values: values.baseAddress,
                                    numbers: members.baseAddress, band: Int32(band)),
                                Int32(buckets.lowerBound), Int32(buckets.upperBound), Int32(radius), out.baseAddress,
                                capacity, portable ? 1 : 0)
                        }
                    }
                }
            }
            if count <= capacity { return (0..<count).map { (Int(numbers[2 * $0]), Int(numbers[2 * $0 + 1])) } }
            capacity = count
        }
    }

    /// Whether the two hashes whose bits differ as `difference` are within `bandRadius` bits in a
    /// band before `band`: then that band found them.
    @inline(__always)
    private static func closeInEarlierBand(_ difference: UInt64, before band: Int, within bandRadius: Int) -> Bool {
        var previous = 0
        while previous < band {
            if ((difference >> UInt64(16 * previous)) & 0xFFFF).nonzeroBitCount <= bandRadius { return true }
            previous += 1
        }
        return false
    }

    private static func checkRadius(_ radius: Int) {
        precondition((0...largestRadius).contains(radius), "a radius of 0 to 11 bits")
    }

    /// Every 16-bit value of 1 to `radius` bits set: what a bucket's value is changed by to name
    /// its neighbours (16 masks for one bit, 136 for two).
    private static func masks(within radius: Int) -> [Int] {
        guard radius >= 1 else { return [] }
        var masks: [Int] = []
        for first in 0..<16 {
            masks.append(1 << first)
            guard radius >= 2 else { continue }
            for second in (first + 1)..<16 { masks.append(1 << first | 1 << second) }
        }
        return masks
    }
}
