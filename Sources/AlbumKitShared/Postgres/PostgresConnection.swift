#if os(Linux)
    import AlbumKitCore
    import CLibPQ
    import Foundation

    /// One libpq connection: text parameters in, text rows out. Not thread-safe; the shared backend
    /// guards each connection with a lock.
    final class PostgresConnection {
        private var connection: OpaquePointer?
        let url: String

        /// Connects to `url` (`postgres://user@host:port/database`); the password comes from libpq's
        /// conventions (`PGPASSWORD`, `~/.pgpass`, a service file), never from AlbumKit.
        /// Lock waits (an album title another machine is saving into) fail with SQLSTATE 55P03
        /// after `lockTimeoutMilliseconds`, which maps to `libraryBusy`.
        init(url: String, lockTimeoutMilliseconds: Int = 60_000) throws(PostgresError) {
            self.url = url
            let keys = ["dbname", "fallback_application_name", "connect_timeout"]
            let values = [url, "albumkit", "10"]
            let connection = Self.withCStrings(keys) { keys in
                Self.withCStrings(values) { values in PQconnectdbParams(keys, values, 1) }
            }
            guard let connection, PQstatus(connection) == CONNECTION_OK else {
                let message = connection.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
                PQfinish(connection)
                throw PostgresError(sqlState: nil, message: message, connectionLost: true)
            }
            self.connection = connection
            _ = try execute("SET client_min_messages = warning; SET lock_timeout = \(max(1, lockTimeoutMilliseconds))")
        }

        deinit { PQfinish(connection) }

        /// Whether the server dropped the connection (a restart, `pg_terminate_backend`).
        var isBroken: Bool { connection.map { PQstatus($0) != CONNECTION_OK } ?? true }

        /// The backend process id, for tests that terminate it.
        var serverProcessID: Int32 { connection.map { PQbackendPID($0) } ?? 0 }

        /// Runs one statement with `$1…` text parameters; returns the rows as text (`nil` = SQL NULL).
        @discardableResult
        func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> [[String?]] {
            guard let connection else {
                throw PostgresError(sqlState: nil, message: "the connection is closed", connectionLost: true)
            }
            // Without parameters, PQexec also runs scripts of several statements (the schema).
            let result: OpaquePointer? =
                parameters.isEmpty
                ? PQexec(connection, sql)
                : Self.withOptionalCStrings(parameters) { values in
                    PQexecParams(connection, sql, Int32(parameters.count), nil, values, nil, nil, 0)
                }
            defer { PQclear(result) }
            let status = result.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
            guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
                let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map {
                    String(cString: $0)
                }
                let message =
                    result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "M"))) }.map { String(cString: $0) }
                    ?? String(cString: PQerrorMessage(connection))
                throw PostgresError(
                    sqlState: state, message: message.trimmingCharacters(in: .whitespacesAndNewlines),
                    connectionLost: PQstatus(connection) != CONNECTION_OK)
            }
            guard status == PGRES_TUPLES_OK, let result else { return [] }
            let rows = PQntuples(result)
            let columns = PQnfields(result)
            var out: [[String?]] = []
            out.reserveCapacity(Int(rows))
            for row in 0..<rows {
                var values: [String?] = []
                values.reserveCapacity(Int(columns))
                for column in 0..<columns {
                    values.append(
                        PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column)))
                }
                out.append(values)
            }
            return out
        }

        /// The first column of the first row, if any.
        func value(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> String? {
            try execute(sql, parameters).first?.first ?? nil
        }

        /// Runs `body` in one READ COMMITTED transaction: committed when it returns, rolled back when it throws.
        func transaction<T>(_ body: () throws -> T) throws -> T {
            try execute("BEGIN ISOLATION LEVEL READ COMMITTED")
            do {
                let value = try body()
                try execute("COMMIT")
                return value
            } catch {
                if !isBroken { _ = try? execute("ROLLBACK") }
                throw error
            }
        }

        private static func withCStrings<R>(
            _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R
        ) -> R {
            withOptionalCStrings(strings) { body($0!) }
        }

        private static func withOptionalCStrings<R>(
            _ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R
        ) -> R {
            let copies = strings.map { $0.map { strdup($0) } ?? nil }
            defer { copies.forEach { free($0) } }
            var pointers = copies.map { UnsafePointer($0) } + [nil]
            return pointers.withUnsafeMutableBufferPointer { body(UnsafePointer($0.baseAddress)) }
        }
    }
#endif
