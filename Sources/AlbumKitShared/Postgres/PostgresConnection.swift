#if os(Linux)
    import AlbumKitCore
    import CLibPQ
    import Foundation

    /// One libpq connection: text parameters in, text rows out. Not thread-safe; the shared backend
    /// guards each connection with a lock.
    final class PostgresConnection {
        private var connection: OpaquePointer?
        let url: String
        /// A failure said the server ended this session. libpq may still call the connection good
        /// for a while: a server that shuts down sends "terminating connection" to its idle
        /// sessions, and a statement sent later reads that answer before libpq sees the socket
        /// closed (in pipeline mode, always). Such a connection is never used again.
        private var sessionEnded = false

        /// Connects to `url` (`postgres://user@host:port/database`); the password comes from libpq's
        /// conventions (`PGPASSWORD`, `~/.pgpass`, a service file), never from AlbumKit.
        /// Lock waits (an album title another machine is saving into) fail with SQLSTATE 55P03
        /// after `lockTimeoutMilliseconds`, which maps to `libraryBusy`.
        init(url: String, lockTimeoutMilliseconds: Int = 60_000) throws(PostgresError) {
            self.url = url
            // The session's settings travel in the start-up message: no round trip of their own.
            let keys = ["dbname", "fallback_application_name", "connect_timeout", "options"]
            let values = [
                url, "albumkit", "10",
                "-c client_min_messages=warning -c lock_timeout=\(max(1, lockTimeoutMilliseconds))",
            ]
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
        }

        deinit { albumkit_pq_finish(connection) }

        /// Whether the server dropped the connection (a restart, `pg_terminate_backend`).
        var isBroken: Bool {
            sessionEnded || connection.map { albumkit_pq_status($0) != Int32(ALBUMKIT_PQ_CONNECTION_OK) } ?? true
        }

        /// The backend process id, for tests that terminate it.
        var serverProcessID: Int32 { connection.map { albumkit_pq_backend_pid($0) } ?? 0 }

        /// Runs one statement with `$1…` text parameters; returns the rows as text (`nil` = SQL NULL).
        @discardableResult
        func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> [[String?]] {
            guard let connection, !sessionEnded else {
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
            return try rows(of: result, connection)
        }

        /// The rows of `result`, or its error thrown.
        private func rows(of result: OpaquePointer?, _ connection: OpaquePointer) throws(PostgresError) -> [[String?]] {
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
                let severity = result.flatMap {
                    albumkit_pq_result_error_field($0, Int32(Self.severityField))
                }.map { String(cString: $0) }
                // No result at all (nothing could be sent or read), the connection seen bad, or an
                // error that ends the session: lost, whatever libpq's status says yet.
                let lost =
                    result == nil || albumkit_pq_status(connection) != Int32(ALBUMKIT_PQ_CONNECTION_OK)
                    || PostgresError.endsSession(sqlState: state, severity: severity)
                if lost { sessionEnded = true }
                throw PostgresError(
                    sqlState: state, message: message.trimmingCharacters(in: .whitespacesAndNewlines),
                    connectionLost: lost)
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

        /// Whether ``pipeline(_:)`` sends its statements together (the loaded libpq is 14 or later).
        static var hasPipeline: Bool { albumkit_pq_has_pipeline() == 1 }

        /// Runs `statements` (SQL, `$1…` text parameters) in order and returns each one's rows: sent
        /// together and answered in one round trip where libpq has pipeline mode, else one after
        /// another. The first failure is thrown; the statements after it do not run (in a
        /// transaction begun before, the transaction has failed, as with ``execute(_:_:)``).
        func pipeline(_ statements: [(sql: String, parameters: [String?])]) throws(PostgresError) -> [[[String?]]] {
            let (results, failure) = pipelineAnswers(statements)
            if let failure { throw failure }
            return results
        }

        /// As ``pipeline(_:)``, with the rows of the statements answered before the first failure
        /// kept: `results` holds one entry per statement that ran, in order, up to `failure`.
        func pipelineAnswers(_ statements: [(sql: String, parameters: [String?])])
            -> (results: [[[String?]]], failure: PostgresError?)
        {
            guard let connection, !sessionEnded else {
                return ([], PostgresError(sqlState: nil, message: "the connection is closed", connectionLost: true))
            }
            guard statements.count > 1, Self.hasPipeline else {
                var results: [[[String?]]] = []
                for statement in statements {
                    do throws(PostgresError) { results.append(try execute(statement.sql, statement.parameters)) } catch
                    {
                        return (results, error)
                    }
                }
                return (results, nil)
            }
            // The pipeline itself failing (entering it, sending, an answer cut short) is the
            // connection's trouble, not a statement's: the connection is given up.
            func failure(_ what: String) -> PostgresError {
                sessionEnded = true
                let reason = String(cString: albumkit_pq_error_message(connection))
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                return PostgresError(sqlState: nil, message: reason.isEmpty ? what : reason, connectionLost: true)
            }
            guard albumkit_pq_enter_pipeline(connection) == 1 else {
                return ([], failure("cannot enter pipeline mode"))
            }
            var sent = 0
            for statement in statements {
                let queued = Self.withOptionalCStrings(statement.parameters) { values in
                    albumkit_pq_send_text(connection, statement.sql, Int32(statement.parameters.count), values)
                }
                guard queued == 1 else { break }
                sent += 1
            }
            let synced = albumkit_pq_pipeline_sync(connection) == 1
            var results: [[[String?]]] = []
            var firstError: PostgresError?
            // Each statement's result, then a NULL; then the sync's.
            if synced {
                for _ in 0..<sent {
                    let result = albumkit_pq_get_result(connection)
                    defer { albumkit_pq_clear(result) }
                    guard let result else {
                        firstError = firstError ?? failure("the server's answer ended early")
                        break
                    }
                    if albumkit_pq_result_status(result) == Int32(ALBUMKIT_PQ_PIPELINE_ABORTED) {
                        firstError = firstError ?? failure("the statement was not run")
                    } else {
                        do throws(PostgresError) { results.append(try rows(of: result, connection)) } catch {
                            firstError = firstError ?? error
                        }
                    }
                    while let extra = albumkit_pq_get_result(connection) { albumkit_pq_clear(extra) }
                }
                if firstError?.connectionLost != true {
                    // The sync point.
                    while let result = albumkit_pq_get_result(connection) {
                        let status = albumkit_pq_result_status(result)
                        albumkit_pq_clear(result)
                        if status == Int32(ALBUMKIT_PQ_PIPELINE_SYNC) { break }
                    }
                }
            }
            if albumkit_pq_exit_pipeline(connection) != 1 {
                firstError = firstError ?? failure("cannot leave pipeline mode")
            }
            if let error = firstError, !error.connectionLost,
                albumkit_pq_status(connection) != Int32(ALBUMKIT_PQ_CONNECTION_OK)
            {
                // The socket turned out closed while the rest of the answer was read.
                sessionEnded = true
                firstError = PostgresError(sqlState: error.sqlState, message: error.message, connectionLost: true)
            }
            if let firstError { return (results, firstError) }
            guard synced, sent == statements.count else { return (results, failure("cannot send the statements")) }
            return (results, nil)
        }

        /// libpq's field code of an error's severity, never translated (`PG_DIAG_SEVERITY_NONLOCALIZED`).
        private static let severityField = UInt8(ascii: "V")

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
