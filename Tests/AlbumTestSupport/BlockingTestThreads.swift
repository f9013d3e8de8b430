#if canImport(Testing)
    import Dispatch
    import Foundation
    import Synchronization
    import Testing

    /// Threads of their own for tests that block: a suite marked `.onThreadsOfTheirOwn` runs its
    /// tests, synchronous ones included, on these instead of the concurrency runtime's pool.
    ///
    /// Swift Testing runs every test on that pool, which has one thread per core. A synchronous test
    /// that waits for `album` processes holds one of its two threads on a 2-core machine, and the
    /// command-line suites hold both for minutes at a time: an awaiting test (a change feed's, a
    /// server's) then does not resume for as long — CI saw 500 s at a loaded machine, and change-feed
    /// tests failed their time limits without any change being late. These threads are as many as
    /// the cores, so the suites that block run no more processes at once than before, and the pool
    /// stays free for the tests that await.
    ///
    /// ```swift
    /// @Suite(.onThreadsOfTheirOwn) struct SaveCLITests { … }
    /// ```
    public final class BlockingTestThreads: TaskExecutor {
        /// The one set of threads of the test run.
        public static let shared = BlockingTestThreads(width: max(2, ProcessInfo.processInfo.activeProcessorCount))

        /// The key these threads carry in their thread dictionary.
        static let marker = "AlbumKit tests that block"

        /// Whether the caller runs on one of these threads.
        public static var isCurrentThread: Bool { Thread.current.threadDictionary[marker] != nil }

        /// Jobs waiting for a thread, oldest first.
        private let waiting = Mutex<[UnownedJob]>([])
        /// Signalled once per job enqueued.
        private let ready = DispatchSemaphore(value: 0)

        private init(width: Int) {
            for _ in 0..<width {
                Thread.detachNewThread { [self] in
                    Thread.current.threadDictionary[Self.marker] = true
                    work()
                }
            }
        }

        public func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            waiting.withLock { $0.append(job) }
            ready.signal()
        }

        /// Runs jobs as they come, for as long as the test process lives.
        private func work() {
            while true {
                ready.wait()
                // One job per signal: the list holds at least the one this signal was for.
                let job = waiting.withLock { $0.removeFirst() }
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }

    /// The trait that runs a suite's tests on ``BlockingTestThreads``.
    public struct OnThreadsOfTheirOwn: SuiteTrait, TestTrait, TestScoping {
        public var isRecursive: Bool { true }

        public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            // A child task started on those threads (task-local values, the current test's among
            // them, go with it); `withTaskExecutorPreference` alone leaves the caller where it runs.
            // The group is awaited before this returns, so `function` does not outlive the call.
            try await withoutActuallyEscaping(function) { function in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask(executorPreference: BlockingTestThreads.shared) { try await function() }
                    try await group.waitForAll()
                }
            }
        }
    }

    extension Trait where Self == OnThreadsOfTheirOwn {
        /// Runs the suite's tests on threads of their own (``BlockingTestThreads``), not on the
        /// concurrency runtime's pool: for suites whose tests block while child processes run.
        public static var onThreadsOfTheirOwn: Self { OnThreadsOfTheirOwn() }
    }
#endif
