import Dispatch

/// The one owner of a SQLite connection: every use of it runs on this serial queue, one at a time,
/// as GRDB's `DatabaseQueue` does. Callers are already off the cooperative pool (``Blocking``).
///
/// ```swift
/// let queue = DatabaseQueue(try Database(path: path, create: true))
/// let count = try queue.run { try $0.row("SELECT count(*) FROM asset")?.integer(0) }
/// ```
// @unchecked Sendable is safe: `database` is private and only used inside `queue.sync`, which runs
// its blocks one at a time on one serial queue, so no two threads use the connection at once.
final class DatabaseQueue: @unchecked Sendable {
    private let queue = DispatchQueue(label: "AlbumKit.catalog", qos: .userInitiated)
    private let database: Database

    init(_ database: Database) { self.database = database }

    /// Runs `body` with the connection on the queue and returns its result. Not reentrant: `body`
    /// must not call `run` again.
    func run<T>(_ body: (Database) throws -> T) rethrows -> T {
        try queue.sync { try body(database) }
    }
}
