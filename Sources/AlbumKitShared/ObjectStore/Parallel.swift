#if os(Linux)
    import AlbumKitCore
    import Foundation

    /// Runs blocking work (uploads waiting on the network) on a few threads of its own.
    enum Parallel {
        /// Calls `body` for every item on up to `workers` threads; returns when all are done, throwing
        /// the first error (the items not started yet are skipped).
        static func forEach<T: Sendable>(
            _ items: [T], workers: Int, _ body: @escaping @Sendable (T) throws -> Void
        ) throws {
            guard items.count > 1, workers > 1 else {
                for item in items { try body(item) }
                return
            }
            let next = Locked(0)
            let failure = Locked<(any Error)?>(nil)
            let group = DispatchGroup()
            for _ in 0..<min(workers, items.count) {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    while true {
                        let index = next.withLock { value -> Int in
                            defer { value += 1 }
                            return value
                        }
                        guard index < items.count, failure.withLock({ $0 == nil }) else { return }
                        do { try body(items[index]) } catch {
                            failure.withLock { if $0 == nil { $0 = error } }
                        }
                    }
                }
            }
            group.wait()
            if let error = failure.withLock({ $0 }) { throw error }
        }
    }
#endif
