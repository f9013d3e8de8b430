import Foundation

#if os(Linux) || os(Android)
    internal import CShims
#endif

extension Blocking {
    /// Set for work nobody waits for (thumbnails made after a save): every ``run(_:)`` inside it
    /// runs on a thread of its own at the lowest priority (nice 19, that thread only), so it yields
    /// the cores to saves and requests and never holds a thread of the shared blocking queue.
    ///
    /// ```swift
    /// await Blocking.$isBackground.withValue(true) {
    ///     _ = try? await keeping.preview(ofAssetWithID: id, size: .thumbnail)   // made at nice 19
    /// }
    /// ```
    @TaskLocal package static var isBackground = false

    /// Runs `body` on a new thread that lowers its own priority first, and resumes the caller with
    /// its result: ``run(_:)`` inside ``isBackground``. The thread ends with the work, so its
    /// priority is never lent to anything else.
    static func runInBackground<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            detach {
                lowerThisThreadsPriority()
                continuation.resume(with: Result { try body() })
            }
        }
    }

    /// Gives the calling thread the lowest priority (where the system can: Linux; elsewhere it
    /// keeps its priority, the work is only off the shared queue).
    private static func lowerThisThreadsPriority() {
        #if os(Linux) || os(Android)
            // A thread left at its priority still does the work, only sooner: nothing to report.
            _ = albumkit_lower_thread_priority()
        #endif
    }

    /// The calling thread's nice value (19 inside ``isBackground`` work), `nil` where it cannot be
    /// read: for tests.
    package static func currentThreadPriority() -> Int? {
        #if os(Linux) || os(Android)
            let nice = albumkit_thread_priority()
            return nice == -100 ? nil : Int(nice)
        #else
            return nil
        #endif
    }
}
