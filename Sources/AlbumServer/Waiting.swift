import AlbumKitMedia
import Dispatch

/// Runs async library work from a connection's own thread (not one of Swift's cooperative threads)
/// and waits for its result: the server answers each connection on a thread of its own, so
/// blocking it holds up that connection alone.
///
/// ```swift
/// let albums = try Waiting.result { try await library.albums() }
/// ```
enum Waiting {
    static func result<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }
}
