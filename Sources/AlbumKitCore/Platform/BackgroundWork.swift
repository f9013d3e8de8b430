import Dispatch

/// Blocking work started on a thread of its own while the caller goes on, and waited for later:
/// a save flushes its files while its commit is decided.
///
/// ```swift
/// let flushing = BackgroundWork { try FileSystem.fsync(file) }
/// let decision = try decide()      // meanwhile
/// try flushing.wait()              // rethrows the flush's error
/// ```
///
/// The work runs on a serial queue of its own, which Dispatch always gives a thread: never
/// starved by callers blocked on the shared blocking queue's threads (``Blocking``).
package final class BackgroundWork: Sendable {
    private let done = Milestone()

    package init(_ body: @escaping @Sendable () throws -> Void) {
        let done = self.done
        DispatchQueue(label: "AlbumKit.background").async { done.reach(Result { try body() }) }
    }

    /// Waits until the work has ended, and rethrows its error. Waiting again returns (or throws)
    /// the same at once.
    package func wait() throws { try done.wait() }

    /// Waits until the work has ended, whatever it gave: before undoing what it works on.
    package func finish() { done.finish() }
}
