#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value guarded by a lock, for every target of the package.
///
/// `Synchronization.Mutex` needs macOS 15 / iOS 18, and AlbumKit supports macOS 13 / iOS 16.
/// It lives in AlbumKitMedia, the target everything else depends on, and uses a POSIX mutex,
/// so the media parsers stay free of Foundation.
///
/// ```swift
/// let counter = Locked(0)
/// counter.withLock { $0 += 1 }
/// ```
// @unchecked Sendable is safe: `value` is private and only read or written inside `withLock`,
// which holds `mutex` for the whole access, so no two threads touch it at once. The mutex is
// heap-allocated once and never moves, as pthread requires. `Value` need not be Sendable (as
// for `Synchronization.Mutex`): guarding state that is not, such as a catalog's SQLite
// connection, is what the lock is for; a closure must not let such state escape `withLock`.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
