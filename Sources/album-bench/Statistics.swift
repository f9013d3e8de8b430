import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Timing and summary statistics.
enum Statistics {
    /// Seconds since an arbitrary fixed point (monotonic).
    static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    /// Runs `body` and returns how long it took, in seconds.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return now() - start
    }

    /// Runs `body` and returns how long it took, in seconds.
    static func time(_ body: () async throws -> Void) async rethrows -> Double {
        let start = now()
        try await body()
        return now() - start
    }

    /// The `p`-th percentile (0…100) by nearest rank.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Flushes every file system, so one measurement does not pay for the last one's dirty pages.
    static func flushAllFileSystems() {
        sync()
    }
}
