/// Paired rounds: every side runs once per round, back to back, so what slows the machine for a
/// moment slows all sides alike; the order rotates each round so no side always goes first.
enum Rounds {
    /// Runs `sides` for `count` rounds, flushing the disks before each measurement unless told
    /// not to (rows that only compute, on a warm page cache); returns each side's times, in seconds,
    /// in round order. A side gets the round's number, so it can write into a new folder every
    /// round (outputs are kept: deleting them between rounds slows the file system's allocator for
    /// whoever runs next).
    static func run(_ count: Int, flushing: Bool = true, _ sides: [(Int) throws -> Double]) throws -> [[Double]] {
        var times = Array(repeating: [Double](), count: sides.count)
        for round in 0..<count {
            for offset in 0..<sides.count {
                let side = (round + offset) % sides.count
                if flushing { Statistics.flushAllFileSystems() }
                times[side].append(try sides[side](round))
            }
        }
        return times
    }
}
