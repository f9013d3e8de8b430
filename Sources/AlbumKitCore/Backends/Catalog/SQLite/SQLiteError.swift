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
}
