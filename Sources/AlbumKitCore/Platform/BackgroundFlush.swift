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
    private let closing: [FileSystem.Descriptor]

    /// Serial, so Dispatch runs it on a thread of its own ("overcommit"), never waiting for one of
    /// the pool threads that may all be blocked in ``wait()`` (a concurrent queue, or a global
    /// one, shares a pool of one thread per core with the blocking work and with Swift's tasks).
    /// Flushes from several commits go one after another, as the disk takes them anyway.
    private static let queue = DispatchQueue(label: "AlbumKit.flush", qos: .userInitiated)

    /// Starts flushing `files` (in order, through ``FileSystem/fsync(_:)``); `closing` are closed
    /// by ``finish()``, after the flush is over.
    package init(_ files: [FileSystem.Descriptor], closing: [FileSystem.Descriptor] = []) {
        self.closing = closing
        Self.queue.async { [done, failure] in
            do throws(SystemError) {
                for file in files { try FileSystem.fsync(file) }
            } catch {
                failure.withLock { $0 = error }
            }
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

    /// Waits for the flush (its failure, if any, was or will be reported by ``wait()``), then
    /// closes the descriptors given to close: none is closed while another thread still flushes it.
    package func finish() {
        _ = try? wait()
        for file in closing { FileSystem.close(file) }
    }
}
