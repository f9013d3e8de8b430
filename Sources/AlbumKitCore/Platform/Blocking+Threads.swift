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
        fileprivate let done = Milestone()

        fileprivate init(_ body: @escaping @Sendable () throws -> Void) {
            let done = self.done
            DispatchQueue(label: "AlbumKit.background").async { done.reach(Result { try body() }) }
        }

        private init(ended: Void) {
            done.reach()
        }

        fileprivate init(pending: Void) {}

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

    /// Starts `body` as ``start(_:)`` does, except on a thread running an item of
    /// ``forEach(_:_:)``: that thread then does it itself, as soon as it has resumed the caller of
    /// the `forEach` (when its last item ends), where a thread of its own would first have to be
    /// woken. A lone save names and flushes its file this way while its commit begins.
    ///
    /// ```swift
    /// let naming = Blocking.startOnceResumed { try name(file) }   // inside a forEach item
    /// ```
    package static func startOnceResumed(_ body: @escaping @Sendable () throws -> Void) -> Work {
        let work = Work(pending: ())
        let run: @Sendable () -> Void = { work.done.reach(Result { try body() }) }
        let thread = currentThread
        let kept = deferred.withLock { lists -> Bool in
            guard lists[thread] != nil else { return false }
            lists[thread]?.append(run)
            return true
        }
        if !kept { DispatchQueue(label: "AlbumKit.background").async(execute: run) }
        return work
    }

    /// The work each thread running items of ``forEach(_:_:)`` does once it has resumed its caller
    /// (``startOnceResumed(_:)``), by thread.
    private static let deferred = Locked<[UInt: [@Sendable () -> Void]]>([:])

    private static var currentThread: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    /// Called by a thread of ``forEach(_:_:)`` before its first item: work started with
    /// ``startOnceResumed(_:)`` from now on waits for ``runDeferredWork()``.
    static func deferWork() {
        let thread = currentThread
        deferred.withLock { $0[thread] = [] }
    }

    /// Runs, in order, what this thread's items started with ``startOnceResumed(_:)``: called by a
    /// thread of ``forEach(_:_:)`` after its last item (and, on the last thread, after resuming
    /// the caller).
    static func runDeferredWork() {
        let thread = currentThread
        for run in deferred.withLock({ $0.removeValue(forKey: thread) }) ?? [] { run() }
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
