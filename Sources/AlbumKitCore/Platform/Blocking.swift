import AlbumKitMedia
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way AlbumKit runs blocking work (SQLite, `fsync`, file copies, uploads) off the
/// cooperative thread pool: ``run(_:)`` awaits one piece of work on the blocking queue,
/// ``forEach(_:_:)`` a batch split over one thread per core, ``start(_:)`` begins work on a thread
/// of its own that the caller waits for later, ``forEach(_:threads:_:)`` runs items on threads
/// of their own (network waits), and ``detach(_:)`` starts a worker nothing waits for.
///
/// ```swift
/// let rows = try await Blocking.run { try index.rows() }
/// ```
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
                    deferWork()
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
                    // What the items started to go on with once the caller is on its way.
                    runDeferredWork()
                }
            }
        }
    }

    /// Runs `body` on the blocking queue and resumes the caller with its result or error (inside
    /// ``isBackground``: on a thread of its own at the lowest priority).
    package static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        if isBackground { return try await runInBackground(body) }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Runs `body` as ``run(_:)`` does, but resumes the caller as soon as `body` acknowledges its
    /// result: what `body` does after that (bookkeeping that nothing the caller is told depends
    /// on) goes on on this thread. A later error of `body` is not the caller's: once acknowledged,
    /// the result stands.
    ///
    /// ```swift
    /// let receipt = try await Blocking.run { acknowledge in
    ///     let receipt = try commit()   // durable here
    ///     acknowledge(receipt)          // the caller goes on now
    ///     tidyUp()
    ///     return receipt
    /// }
    /// ```
    ///
    /// A command finishes such work before it exits (``acknowledgedWorkFinished()``).
    package static func run<T: Sendable>(
        _ body: @escaping @Sendable (_ acknowledge: @escaping @Sendable (T) -> Void) throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let resumed = Locked(false)
            let resume: @Sendable (Result<T, any Error>) -> Void = { result in
                let first = resumed.withLock { resumed -> Bool in
                    defer { resumed = true }
                    return !resumed
                }
                if first { continuation.resume(with: result) }
            }
            acknowledged.enter()
            queue.async {
                defer { acknowledged.leave() }
                resume(Result { try body { resume(.success($0)) } })
            }
        }
    }

    /// Resumes once the work of every ``run(_:)`` that acknowledged early has ended, without
    /// holding a thread meanwhile (one of the cooperative pool held there could be the one a
    /// caller of that work needs to go on): a command awaits it before it exits, so it leaves no
    /// index transaction half-written for the next one.
    package static func acknowledgedWorkFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            acknowledged.notify(queue: queue) { continuation.resume() }
        }
    }

    private static let acknowledged = DispatchGroup()
}
