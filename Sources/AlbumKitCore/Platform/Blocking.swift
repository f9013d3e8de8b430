import Dispatch

/// Runs blocking work (SQLite, `fsync`, file copies) on a Dispatch queue instead of the
/// cooperative thread pool, and resumes the caller with its result.
package enum Blocking {
    private static let queue = DispatchQueue(
        label: "AlbumKit.blocking", qos: .userInitiated, attributes: .concurrent)

    package static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
