import AlbumKitCore
import Foundation

internal import CSQLite
internal import CChecksumVFS

/// One SQLite connection. Not thread-safe: the catalog confines it to a ``DatabaseQueue``.
package final class Database {
    private let handle: OpaquePointer
    package let path: String
    private var statements: [String: Statement] = [:]

    /// How to open a database file.
    package enum OpenMode: Sendable {
        /// Read and write, creating the file when asked.
        case readWrite(create: Bool)
        /// Read only (the file and its WAL may not be writable).
        case readOnly
        /// Read only, trusting that nothing changes the file (no locks, no WAL): for read-only media.
        case immutable
    }

    /// Opens the database at `path` through the page-checksum VFS: a whole page read from a file
    /// whose pages carry checksums fails with `SQLITE_IOERR_DATA` when its bytes do not match,
    /// unless `verifyingPages` is off (salvaging what is readable from a damaged catalog).
    package init(path: String, mode: OpenMode = .readWrite(create: false), verifyingPages: Bool = true) throws {
        try Self.loadSQLite(toOpen: path)
        try Self.registerChecksumVFS()
        var db: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX
        var name = path
        switch mode {
        case .readWrite(let create):
            flags |= SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
            // Made private first: SQLite keeps an existing file's mode, and gives its journal and
            // WAL the same. One that cannot be made here fails the open below, which says why.
            if create && path != ":memory:" { try? FileSystem.createPrivateFile(atPath: path) }
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .immutable:
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
            name = "file:\(escaped)?immutable=1"
        }
        let vfs = verifyingPages ? albumkit_checksum_vfs_verifying() : albumkit_checksum_vfs_unverified()
        let rc = albumkit_sqlite3_open_v2(name, &db, flags, vfs)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: albumkit_sqlite3_errmsg($0)) } ?? "out of memory"
            albumkit_sqlite3_close_v2(db)
            throw SQLiteError(code: rc, message: message, sql: nil)
        }
        albumkit_sqlite3_extended_result_codes(db, 1)
        handle = db
        self.path = path
    }

    /// Opens (creating if asked) the database at `path` for reading and writing.
    package convenience init(path: String, create: Bool) throws {
        try self.init(path: path, mode: .readWrite(create: create))
    }

    deinit {
        statements.removeAll()
        albumkit_sqlite3_close_v2(handle)
    }

    /// Runs one or more statements without results.
    package func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = albumkit_sqlite3_exec(handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: albumkit_sqlite3_errmsg(handle))
            albumkit_sqlite3_free(message)
            throw SQLiteError(
                code: albumkit_sqlite3_extended_errcode(handle), message: text, sql: sql,
                systemErrno: albumkit_sqlite3_system_errno(handle))
        }
    }

    /// A cached prepared statement, reset and with bindings cleared.
    package func statement(_ sql: String) throws -> Statement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var raw: OpaquePointer?
        let rc = albumkit_sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard rc == SQLITE_OK, let raw else { throw error(rc, sql: sql) }
        let statement = Statement(raw, database: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs `sql` with `arguments`, returning every row.
    @discardableResult
    package func rows(_ sql: String, _ arguments: [SQLValue] = []) throws -> [Row] {
        let statement = try statement(sql)
        try statement.bind(arguments)
        var rows: [Row] = []
        while let row = try statement.step() { rows.append(row) }
        statement.reset()
        return rows
    }

    /// Runs `sql` with `arguments`, handing each row to `body` as it is read: memory for one row,
    /// whatever the result's size. `body` must not run this same `sql` (its statement is in use).
    package func forEachRow(_ sql: String, _ arguments: [SQLValue] = [], _ body: (Row) throws -> Void) throws {
        let statement = try statement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        while let row = try statement.step() { try body(row) }
    }

    /// Runs `sql` with `arguments`, returning the first row.
    package func row(_ sql: String, _ arguments: [SQLValue] = []) throws -> Row? {
        try rows(sql, arguments).first
    }

    /// Runs `sql` for its side effects; returns the number of rows changed.
    @discardableResult
    package func run(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int {
        let statement = try statement(sql)
        try statement.bind(arguments)
        while try statement.step() != nil {}
        statement.reset()
        return Int(albumkit_sqlite3_changes(handle))
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction: committed if it returns, rolled back if it throws.
    @discardableResult
    package func immediateTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction("BEGIN IMMEDIATE", body)
    }

    /// Runs the reads of `body` in one read transaction: SQLite takes its shared lock and checks
    /// for a hot journal once (about eight system calls) instead of once per statement, and every
    /// read sees the same state of the file.
    ///
    /// ```swift
    /// let (position, digest) = try db.readTransaction { (try position(), try journalDigest()) }
    /// ```
    @discardableResult
    package func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction("BEGIN DEFERRED", body)
    }

    /// Runs `body` between `begin` and `COMMIT`, rolled back if it throws.
    private func transaction<T>(_ begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            // The error thrown is what matters; a failed rollback leaves SQLite to roll back on close.
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Leaves the WAL as it is when the connection closes (no checkpoint on close), so the catalog
    /// file changes only when a checkpoint runs while saving.
    package func keepWALOnClose() {
        _ = albumkit_sqlite3_keep_wal_on_close(handle)
    }

    /// Flushes the main database file (not its WAL) to stable storage, through SQLite's own handle.
    ///
    /// ```swift
    /// try database.syncMainFile()  // after writing it with `PRAGMA synchronous = OFF`
    /// ```
    package func syncMainFile() throws {
        let rc = albumkit_sqlite3_sync_file(handle, SQLITE_FCNTL_FILE_POINTER, SQLITE_SYNC_FULL)
        guard rc == SQLITE_OK else { throw error(rc, sql: "flush the catalog file") }
    }

    /// Flushes the write-ahead log to stable storage, through SQLite's own handle: what commits
    /// made with `PRAGMA synchronous = NORMAL` wrote becomes durable.
    ///
    /// ```swift
    /// try database.syncWAL()  // transaction A, committed without a flush, is now durable
    /// ```
    package func syncWAL() throws {
        let rc = albumkit_sqlite3_sync_file(handle, SQLITE_FCNTL_JOURNAL_POINTER, SQLITE_SYNC_NORMAL)
        guard rc == SQLITE_OK else { throw error(rc, sql: "flush the catalog's log") }
    }

    /// The number of bytes reserved at the end of each page of the main database (8 when its pages
    /// carry checksums), or nil when SQLite cannot tell.
    package var reservedBytesPerPage: Int? {
        let reserve = albumkit_checksum_reserve(UnsafeMutableRawPointer(handle), "main")
        return reserve < 0 ? nil : Int(reserve)
    }

    /// Reserves `count` bytes at the end of each page of the main database (by default room for
    /// the page checksums): effective at once for a database with no pages yet, otherwise at its
    /// next `VACUUM`.
    package func reserveBytesPerPage(_ count: Int32 = Database.checksumBytes) throws {
        let rc = albumkit_checksum_set_reserve(UnsafeMutableRawPointer(handle), "main", count)
        guard rc == SQLITE_OK else { throw error(rc, sql: "reserve \(count) bytes per page") }
    }

    /// The reserved bytes per page that hold a page's checksum.
    package static let checksumBytes: Int32 = 8

    /// Loads SQLite where it is loaded on first use (Linux); a no-op where it is linked. Call before
    /// creating anything a library needs SQLite to finish, so that nothing is left half-made.
    ///
    /// ```swift
    /// try Database.loadSQLite(toOpen: catalogPath)  // AlbumError naming the path and the package
    /// ```
    package static func loadSQLite(toOpen path: String) throws(AlbumError) {
        // Inline and always 0 on Apple platforms, which link the SDK's SQLite.
        guard albumkit_sqlite_load() == 0 else {
            let reason = String(cString: albumkit_sqlite_load_error())
            throw AlbumError(.notSupported, "Cannot open \(path): \(reason). Nothing was changed.")
        }
    }

    /// Registers the checksum VFS once per process.
    private static func registerChecksumVFS() throws {
        let rc = checksumVFSRegistration
        guard rc == SQLITE_OK else {
            throw SQLiteError(code: rc, message: "cannot register the page-checksum VFS", sql: nil)
        }
    }

    private static let checksumVFSRegistration: Int32 = albumkit_checksum_vfs_register()

    /// Waits up to `milliseconds` for locks held by other connections.
    package func setBusyTimeout(milliseconds: Int32) { albumkit_sqlite3_busy_timeout(handle, milliseconds) }

    func error(_ rc: Int32, sql: String?) -> SQLiteError {
        SQLiteError(
            code: albumkit_sqlite3_extended_errcode(handle), message: String(cString: albumkit_sqlite3_errmsg(handle)),
            sql: sql,
            systemErrno: albumkit_sqlite3_system_errno(handle))
    }
}

@available(*, unavailable, message: "A Database is confined to one thread at a time; own it with a DatabaseQueue.")
extension Database: Sendable {}
