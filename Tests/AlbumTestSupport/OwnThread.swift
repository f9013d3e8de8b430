import Foundation

/// Blocking work moved off the threads that run the tests' tasks. Swift Testing runs every test,
/// synchronous ones included, on the concurrency runtime's pool, which has one thread per core: a
/// test that waits minutes for a child process (a browser, a server's checks) holds one of two
/// threads on a 2-core machine, and every other test waiting to resume gets what is left.
///
/// ```
/// let output = try await OwnThread.run { try runChecks() }   // the pool's thread is free meanwhile
/// ```
public enum OwnThread {
    /// Runs `body` on a new thread and returns what it returned (or throws what it threw).
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.start()
        }
    }

    /// Runs `body` on a new thread and returns what it returned.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.start()
        }
    }
}
