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
                Self.withCStrings(values) { values in albumkit_pq_connect(keys, values, 1) }
            }
            guard let connection, albumkit_pq_status(connection) == Int32(ALBUMKIT_PQ_CONNECTION_OK) else {
                let message =
                    connection.map { String(cString: albumkit_pq_error_message($0)) }
                    ?? (albumkit_pq_load() == 0 ? "out of memory" : String(cString: albumkit_pq_load_error()))
                albumkit_pq_finish(connection)
                throw PostgresError(sqlState: nil, message: message, connectionLost: true)
            }
            self.connection = connection
            _ = try execute("SET client_min_messages = warning; SET lock_timeout = \(max(1, lockTimeoutMilliseconds))")
        }

        deinit { albumkit_pq_finish(connection) }

        /// Whether the server dropped the connection (a restart, `pg_terminate_backend`).
        var isBroken: Bool { connection.map { albumkit_pq_status($0) != Int32(ALBUMKIT_PQ_CONNECTION_OK) } ?? true }

        /// The backend process id, for tests that terminate it.
        var serverProcessID: Int32 { connection.map { albumkit_pq_backend_pid($0) } ?? 0 }

        /// Runs one statement with `$1…` text parameters; returns the rows as text (`nil` = SQL NULL).
        @discardableResult
        func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> [[String?]] {
            guard let connection else {
                throw PostgresError(sqlState: nil, message: "the connection is closed", connectionLost: true)
            }
            // Without parameters, PQexec also runs scripts of several statements (the schema).
            let result: OpaquePointer? =
                parameters.isEmpty
                ? albumkit_pq_exec(connection, sql)
                : Self.withOptionalCStrings(parameters) { values in
                    albumkit_pq_exec_text(connection, sql, Int32(parameters.count), values)
                }
            defer { albumkit_pq_clear(result) }
            let status = result.map { albumkit_pq_result_status($0) } ?? Int32(ALBUMKIT_PQ_FATAL_ERROR)
            guard status == Int32(ALBUMKIT_PQ_COMMAND_OK) || status == Int32(ALBUMKIT_PQ_TUPLES_OK) else {
                let state = result.flatMap {
                    albumkit_pq_result_error_field($0, Int32(ALBUMKIT_PQ_DIAG_SQLSTATE))
                }.map { String(cString: $0) }
                let message =
                    result.flatMap {
                        albumkit_pq_result_error_field($0, Int32(ALBUMKIT_PQ_DIAG_MESSAGE_PRIMARY))
                    }.map { String(cString: $0) }
                    ?? String(cString: albumkit_pq_error_message(connection))
                throw PostgresError(
                    sqlState: state, message: message.trimmingCharacters(in: .whitespacesAndNewlines),
                    connectionLost: albumkit_pq_status(connection) != Int32(ALBUMKIT_PQ_CONNECTION_OK))
            }
            guard status == Int32(ALBUMKIT_PQ_TUPLES_OK), let result else { return [] }
            let rows = albumkit_pq_rows(result)
            let columns = albumkit_pq_columns(result)
            var out: [[String?]] = []
            out.reserveCapacity(Int(rows))
            for row in 0..<rows {
                var values: [String?] = []
                values.reserveCapacity(Int(columns))
                for column in 0..<columns {
                    values.append(
                        albumkit_pq_is_null(result, row, column) == 1
                            ? nil : String(cString: albumkit_pq_value(result, row, column)))
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
                // The error thrown is what matters; if even ROLLBACK fails, the server rolls back at disconnect.
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
