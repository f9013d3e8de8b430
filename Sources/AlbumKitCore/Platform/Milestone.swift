import AlbumKitMedia
import Dispatch

/// A point that work on one thread reaches once, well or with an error, and that other threads
/// wait for: a save decides while another thread publishes its files, and waits for them to be
/// published before it removes a duplicate copy.
///
/// ```swift
/// let published = Milestone()
/// // on the publishing thread:
/// published.reach(Result { try publish() })
/// // on any other, any number of times:
/// try published.wait()   // rethrows what publishing threw
/// ```
package final class Milestone: Sendable {
    private let reached = DispatchSemaphore(value: 0)
    private let outcome = Locked<Result<Void, any Error>?>(nil)

    package init() {}

    /// Marks the milestone reached with `result`; only the first call counts.
    package func reach(_ result: Result<Void, any Error> = .success(())) {
        let first = outcome.withLock { outcome -> Bool in
            guard outcome == nil else { return false }
            outcome = result
            return true
        }
        if first { reached.signal() }
    }

    /// Waits until the milestone is reached, and rethrows its error. Waiting again, on any
    /// thread, returns (or throws) the same at once.
    package func wait() throws {
        if outcome.withLock({ $0 }) == nil {
            reached.wait()
            reached.signal()  // for any other waiter
        }
        try outcome.withLock { $0 }!.get()
    }

    /// Waits until the milestone is reached, whatever the outcome.
    package func finish() {
        // Only the end matters here: the caller is already failing with an error of its own.
        try? wait()
    }
}
