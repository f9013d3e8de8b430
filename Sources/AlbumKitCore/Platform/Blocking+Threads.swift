import AlbumKitMedia
import Dispatch
import Foundation

extension Blocking {
    /// Blocking work started on a thread of its own while the caller goes on, and waited for later:
    /// a save flushes its files while its commit is decided.
    ///
    /// ```swift
    /// let flushing = Blocking.start { try FileSystem.fsync(file) }
    /// let decision = try decide()      // meanwhile
    /// try flushing.wait()              // rethrows the flush's error
    /// ```
    ///
    /// The work runs on a serial queue of its own, which Dispatch always gives a thread: never
    /// starved by callers blocked on the shared blocking queue's threads.
    package final class Work: Sendable {
        private let done = Milestone()

        fileprivate init(_ body: @escaping @Sendable () throws -> Void) {
            let done = self.done
            DispatchQueue(label: "AlbumKit.background").async { done.reach(Result { try body() }) }
        }

        private init(ended: Void) {
            done.reach()
        }

        /// Work that has already ended well: what waits for it goes on at once, on no other thread.
        ///
        /// ```swift
        /// let listing = name.isListed ? Blocking.Work.ended : Blocking.start { try list(name) }
        /// ```
        package static var ended: Work { Work(ended: ()) }

        /// Waits until the work has ended, and rethrows its error. Waiting again returns (or throws)
        /// the same at once.
        package func wait() throws { try done.wait() }

        /// Waits until the work has ended, whatever it gave: before undoing what it works on.
        package func finish() { done.finish() }
    }

    /// Starts `body` on a thread of its own and returns at once; ``Work/wait()`` waits for it.
    package static func start(_ body: @escaping @Sendable () throws -> Void) -> Work {
        Work(body)
    }

    /// Runs `body` on a new thread of its own that nothing waits for: a worker that ends when its
    /// queue of work is empty (the shared library's upload pipeline).
    ///
    /// ```swift
    /// Blocking.detach { uploadWhileWaiting() }
    /// ```
    package static func detach(_ body: @escaping @Sendable () -> Void) {
        Thread.detachNewThread(body)
    }

    /// Calls `body` for every item on up to `threads` threads of their own (work that waits on the
    /// network, such as uploads, where one thread per core would be too few); returns when all are
    /// done, throwing the first error (the items not started by then are skipped). One item, or one
    /// thread, runs on the caller's thread.
    ///
    /// ```swift
    /// try Blocking.forEach(parts, threads: 4) { part in try upload(part) }
    /// ```
    package static func forEach<T: Sendable>(
        _ items: [T], threads: Int, _ body: @escaping @Sendable (T) throws -> Void
    ) throws {
        guard items.count > 1, threads > 1 else {
            for item in items { try body(item) }
            return
        }
        let next = Locked(0)
        let failure = Locked<(any Error)?>(nil)
        let group = DispatchGroup()
        for _ in 0..<min(threads, items.count) {
            group.enter()
            detach {
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
