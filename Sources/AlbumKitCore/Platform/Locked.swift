import Foundation

/// A value guarded by a lock.
///
/// `Synchronization.Mutex` needs macOS 15 / iOS 18; this works on every platform AlbumKit supports.
// @unchecked Sendable is safe: `value` is private and only read or written inside `withLock`,
// which holds `lock` for the whole access, so no two threads touch it at once.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
