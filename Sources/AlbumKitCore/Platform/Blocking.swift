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
    /// queue for a whole batch instead of one per item, and the last thread to finish resumes the
    /// caller itself (a `DispatchGroup` notification was one more thread to wake, for every save).
    package static func forEach(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
        guard count > 0 else { return }
        let workers = min(width, count)
        let progress = Locked((next: 0, running: workers))
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for _ in 0..<workers {
                queue.async {
                    while true {
                        let index = progress.withLock { progress -> Int in
                            defer { progress.next += 1 }
                            return progress.next
                        }
                        guard index < count else { break }
                        body(index)
                    }
                    let last = progress.withLock { progress -> Bool in
                        progress.running -= 1
                        return progress.running == 0
                    }
                    if last { continuation.resume() }
                }
            }
        }
    }

    package static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
