import Dispatch

/// `fsync`s files on another thread while the caller prepares work that must not be committed
/// before they are durable: ``wait()`` returns once they are, or throws the first failure.
///
/// A catalog save flushes the folders of its new names this way while transaction B runs its
/// statements; B commits only after ``wait()`` returned, so the order on disk is unchanged.
///
/// ```swift
/// let names = BackgroundFlush([shardFolder])
/// defer { names.finish() }
/// try prepareTheCommit()
/// try names.wait()  // the names are durable: now the commit may happen
/// ```
package final class BackgroundFlush: Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// The outcome once ``wait()`` has taken it: `nil` before, `.success` or the first failure.
    private let outcome = Locked<Result<Void, SystemError>?>(nil)
    private let failure = Locked<SystemError?>(nil)

    /// Starts flushing `files` (in order, through ``FileSystem/fsync(_:)``), then closes `closing`
    /// on the same thread, as soon as the flush no longer needs them.
    ///
    /// Each flush gets a serial queue of its own, which Dispatch runs on a thread of its own
    /// ("overcommit"): it never waits for one of the pool's threads, which may all be blocked in
    /// ``wait()`` (on a global queue, 48 concurrent saves into 16 albums stalled for 47 s on two
    /// cores), nor behind another library's flush on a slower disk.
    package init(_ files: [FileSystem.Descriptor], closing: [FileSystem.Descriptor] = []) {
        let queue = DispatchQueue(label: "AlbumKit.flush", qos: .userInitiated)
        queue.async { [done, failure] in
            do throws(SystemError) {
                for file in files { try FileSystem.fsync(file) }
            } catch {
                failure.withLock { $0 = error }
            }
            for file in closing { FileSystem.close(file) }
            done.signal()
        }
    }

    /// Waits until every file is flushed; throws the first failure. Safe to call again.
    package func wait() throws(SystemError) {
        let result: Result<Void, SystemError> = outcome.withLock { outcome in
            if let outcome { return outcome }
            done.wait()
            let result: Result<Void, SystemError> = failure.withLock { $0 }.map { .failure($0) } ?? .success(())
            outcome = result
            return result
        }
        try result.get()
    }

    /// Waits for the flush to end; its failure, if any, was or will be reported by ``wait()``. The
    /// caller must not close the flushed descriptors before this returns.
    package func finish() {
        _ = try? wait()
    }
}
