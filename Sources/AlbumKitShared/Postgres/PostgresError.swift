#if os(Linux)
    import AlbumKitCore

    /// A failure reported by PostgreSQL (with its SQLSTATE) or by libpq (connection lost).
    struct PostgresError: Error, Sendable, CustomStringConvertible {
        /// The five-character SQLSTATE, when the server sent one.
        let sqlState: String?
        let message: String
        /// The connection is gone (server stopped, backend terminated, network).
        let connectionLost: Bool

        init(sqlState: String?, message: String, connectionLost: Bool) {
            self.sqlState = sqlState
            // libpq's messages run over several lines ("…failed: Connection refused\n\tIs the server
            // running…"): one line, single spaces, so that they read well inside a sentence.
            self.message = message.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            self.connectionLost = connectionLost
        }

        var description: String { sqlState.map { "\(message) [\($0)]" } ?? message }

        /// Whether an error the server sent ends the session: severity `FATAL` or `PANIC`, a
        /// connection exception (class 08), or the server shutting down, crashing, starting up or
        /// ending an idle session (57P01, 57P02, 57P03, 57P05).
        static func endsSession(sqlState: String?, severity: String?) -> Bool {
            if severity == "FATAL" || severity == "PANIC" { return true }
            guard let sqlState else { return false }
            return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03", "57P05"].contains(sqlState)
        }

        /// A failure to connect that may pass by itself: the server is restarting, starting up or
        /// briefly unreachable. Refused credentials and a missing database never are.
        var isWorthRetrying: Bool {
            guard connectionLost else { return false }
            let permanent = [
                "password authentication failed", "no password supplied", "does not exist", "authentication",
                "permission denied", "no pg_hba.conf entry", "out of memory", "could not load",
            ]
            return !permanent.contains { message.localizedCaseInsensitiveContains($0) }
        }

        /// Maps the failure of `what` onto AlbumKit's error codes.
        func albumError(_ what: String, library: String) -> AlbumError {
            let state = sqlState ?? ""
            if state.hasPrefix("28") || message.contains("password authentication failed")
                || message.contains("no password supplied")
            {
                return AlbumError(
                    .accessDenied,
                    "Cannot \(what): the database \(library) refused the credentials (set PGPASSWORD or ~/.pgpass).",
                    underlying: self)
            }
            if state == "42501" {
                // A member's role without the right for this (a reader saving, a writer purging).
                return AlbumError(
                    .libraryUnwritable,
                    "Cannot \(what): this database role may not do that in \(library) (\(message)); ask the library's administrator (`album init --print-roles` lists what readers and writers may do).",
                    underlying: self)
            }
            if state == "53100" {
                return AlbumError(
                    .notEnoughSpace, "Cannot \(what): the database server \(library) is out of disk space.",
                    underlying: self)
            }
            if state == "55P03" || state == "40P01" || state == "40001" || state == "57014" || state == "53300" {
                return AlbumError(
                    .libraryBusy, "Cannot \(what): the library \(library) stayed busy too long; try again.",
                    underlying: self)
            }
            if state == "3D000" {
                return AlbumError(
                    .libraryNotFound, "The database of \(library) does not exist; create it, then run `album init`.",
                    underlying: self)
            }
            if state == "42P01" {
                return AlbumError(
                    .libraryNotFound, "\(library) is not an AlbumKit library yet; run `album init` first.",
                    underlying: self)
            }
            if connectionLost || state.hasPrefix("08") || state.hasPrefix("57P") {
                return AlbumError(
                    .libraryNotFound,
                    "Cannot \(what): the database server of \(library) cannot be reached (\(message)).",
                    underlying: self)
            }
            return AlbumError(.ioFailure, "Cannot \(what) in \(library): \(description).", underlying: self)
        }
    }
#endif
