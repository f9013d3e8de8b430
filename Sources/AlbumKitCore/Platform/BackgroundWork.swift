import AlbumKitMedia
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
    private let done = DispatchSemaphore(value: 0)
    private let outcome = Locked<Result<Void, any Error>?>(nil)

    package init(_ body: @escaping @Sendable () throws -> Void) {
        let outcome = self.outcome
        let done = self.done
        DispatchQueue(label: "AlbumKit.background").async {
            let result = Result { try body() }
            outcome.withLock { $0 = result }
            done.signal()
        }
    }

    /// Waits until the work has ended, and rethrows its error. Waiting again returns (or throws)
    /// the same at once.
    package func wait() throws {
        let result: Result<Void, any Error>
        if let ended = outcome.withLock({ $0 }) {
            result = ended
        } else {
            done.wait()
            result = outcome.withLock { $0 }!
        }
        try result.get()
    }

    /// Waits until the work has ended, whatever it gave: before undoing what it works on.
    package func finish() {
        // Only the end matters here: the caller is already failing with an error of its own.
        try? wait()
    }
}
