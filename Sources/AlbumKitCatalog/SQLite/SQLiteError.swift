import AlbumKitCore
/// A failed SQLite call: the extended result code and SQLite's message.
package struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, …).
    package let code: Int32
    package let message: String
    package let sql: String?
    /// The operating-system error behind an I/O failure (`sqlite3_system_errno`), 0 when none.
    package var systemErrno: Int32 = 0

    package var description: String { "SQLite error \(code): \(message)" + (sql.map { " [\($0)]" } ?? "") }

    /// The primary result code.
    package var primaryCode: Int32 { code & 0xFF }

    /// The result codes AlbumKit tells apart (values from sqlite3.h, stable across versions).
    package enum Code {
        static let error: Int32 = 1  // SQLITE_ERROR
        static let permission: Int32 = 3  // SQLITE_PERM
        static let busy: Int32 = 5  // SQLITE_BUSY
        static let locked: Int32 = 6  // SQLITE_LOCKED
        static let readOnly: Int32 = 8  // SQLITE_READONLY
        static let ioError: Int32 = 10  // SQLITE_IOERR
        static let corrupt: Int32 = 11  // SQLITE_CORRUPT
        static let full: Int32 = 13  // SQLITE_FULL
        static let cannotOpen: Int32 = 14  // SQLITE_CANTOPEN
        static let notADatabase: Int32 = 26  // SQLITE_NOTADB
        /// SQLITE_IOERR_DATA: a page failed its checksum.
        static let ioErrorData: Int32 = 10 | (32 << 8)
        /// SQLITE_IOERR_ACCESS: the files vanished.
        static let ioErrorAccess: Int32 = 10 | (13 << 8)
        /// SQLITE_IOERR_SHMSIZE: the shared-memory file could not grow.
        static let ioErrorShmSize: Int32 = 10 | (19 << 8)
    }

    /// Whether another connection holds the lock (busy or locked).
    package var isBusy: Bool { primaryCode == Code.busy || primaryCode == Code.locked }
}
