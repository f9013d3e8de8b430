import AlbumKitCore
import Foundation

internal import CSQLite

/// A value bound to or read from SQLite.
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    package init(stringLiteral value: String) { self = .text(value) }
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(nilLiteral: ()) { self = .null }
    package init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    package init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }
    package init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    package init(_ value: Double?) { self = value.map { .real($0) } ?? .null }
}

/// One result row, read by column index.
package struct Row: Sendable {
    package let values: [SQLValue]

    package func text(_ i: Int) -> String? {
        switch values[i] {
        case .text(let s): s
        case .integer(let n): String(n)
        case .real(let d): String(d)
        case .null: nil
        }
    }

    package func integer(_ i: Int) -> Int64? {
        switch values[i] {
        case .integer(let n): n
        // A damaged catalog can hold any real here: NaN, infinities and reals beyond Int64 are no integer.
        case .real(let d): Int64(exactly: d.rounded(.towardZero))
        case .text(let s): Int64(s)
        case .null: nil
        }
    }

    package func real(_ i: Int) -> Double? {
        switch values[i] {
        case .real(let d): d
        case .integer(let n): Double(n)
        case .text(let s): Double(s)
        case .null: nil
        }
    }
}

/// A prepared statement owned by its ``Database``.
package final class Statement {
    private let handle: OpaquePointer
    private unowned let database: Database
    let sql: String

    init(_ handle: OpaquePointer, database: Database, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { albumkit_sqlite3_finalize(handle) }

    func reset() {
        albumkit_sqlite3_reset(handle)
        albumkit_sqlite3_clear_bindings(handle)
    }

    func bind(_ values: [SQLValue]) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = albumkit_sqlite3_bind_null(handle, index)
            case .integer(let n): rc = albumkit_sqlite3_bind_int64(handle, index, n)
            case .real(let d): rc = albumkit_sqlite3_bind_double(handle, index, d)
            case .text(let s): rc = albumkit_sqlite3_bind_text(handle, index, s, -1, transient)
            }
            guard rc == SQLITE_OK else { throw database.error(rc, sql: sql) }
        }
    }

    /// The next row, or `nil` when done.
    func step() throws -> Row? {
        let rc = albumkit_sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW:
            let count = albumkit_sqlite3_column_count(handle)
            var values: [SQLValue] = []
            values.reserveCapacity(Int(count))
            for i in 0..<count {
                switch albumkit_sqlite3_column_type(handle, i) {
                case SQLITE_INTEGER: values.append(.integer(albumkit_sqlite3_column_int64(handle, i)))
                case SQLITE_FLOAT: values.append(.real(albumkit_sqlite3_column_double(handle, i)))
                case SQLITE_NULL: values.append(.null)
                default: values.append(.text(String(cString: albumkit_sqlite3_column_text(handle, i))))
                }
            }
            return Row(values: values)
        case SQLITE_DONE:
            return nil
        default:
            let error = database.error(rc, sql: sql)
            albumkit_sqlite3_reset(handle)
            throw error
        }
    }
}

private let transient = albumkit_sqlite3_transient()

@available(*, unavailable, message: "A Statement belongs to its Database's thread.")
extension Statement: Sendable {}
