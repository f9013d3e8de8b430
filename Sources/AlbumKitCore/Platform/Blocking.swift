import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs blocking work (SQLite, `fsync`, file copies) on a Dispatch queue instead of the
/// cooperative thread pool, and resumes the caller with its result.
package enum Blocking {
    private static let queue = DispatchQueue(
        label: "AlbumKit.blocking", qos: .userInitiated, attributes: .concurrent)

    /// Threads that do blocking work at once when a batch is split: one per core.
    package static let width = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))

    /// Runs `body` for every index of `0..<count` on ``width`` threads of the blocking queue, each
    /// taking the next index until none is left, and resumes when all are done: one hop to the
    /// queue for a whole batch instead of one per item.
    package static func forEach(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
        guard count > 0 else { return }
        let next = Locked(0)
        let group = DispatchGroup()
        for _ in 0..<min(width, count) {
            queue.async(group: group) {
                while true {
                    let index = next.withLock { next -> Int in
                        defer { next += 1 }
                        return next
                    }
                    guard index < count else { return }
                    body(index)
                }
            }
        }
        await withCheckedContinuation { continuation in group.notify(queue: queue) { continuation.resume() } }
    }

    package static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
