#if os(Linux)
    /// The two PostgreSQL roles a shared library's members belong to, and the SQL that creates
    /// them and grants their rights (``PhotoLibrary/memberRoles()``).
    ///
    /// A reader may list, show, export and verify; a writer may also save, copy in, make and change
    /// albums, and move photos to recently deleted and back. Removing anything for good (`purge`,
    /// `gc`) and changing the settings (`config`) stay with the owner of the tables. A member is a
    /// login role granted one of them:
    ///
    /// ```swift
    /// let roles = try await library.memberRoles()
    /// print(roles.sql)
    /// print("CREATE ROLE anna LOGIN PASSWORD '…' IN ROLE \(roles.reader);")
    /// ```
    public struct MemberRoles: Sendable, Hashable {
        /// The role whose members may only read (`DATABASE_reader`).
        public let reader: String
        /// The role whose members may save and change albums (`DATABASE_writer`).
        public let writer: String
        /// `CREATE ROLE` (when missing) and `GRANT` statements, for `psql` as the tables' owner.
        public let sql: String
    }
#endif
