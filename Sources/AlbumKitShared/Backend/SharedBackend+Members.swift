#if os(Linux)
    import AlbumKitCore

    extension SharedBackend: SharedMembership {
        /// The member roles of this library's database (`DATABASE_reader`, `DATABASE_writer`) and
        /// their SQL.
        package func memberRoles() async throws -> MemberRoles {
            try await Blocking.run {
                let row = try self.withDatabase("read the database's name") { db in
                    try db.execute("SELECT current_database(), current_schema()").first ?? []
                }
                guard row.count == 2, let database = row[0], let schema = row[1] else {
                    throw AlbumError(.ioFailure, "\(self.displayURL) did not say its database and schema.")
                }
                let (reader, writer) = (database + "_reader", database + "_writer")
                return MemberRoles(
                    reader: reader, writer: writer,
                    sql: SharedSchema.memberRolesSQL(database: database, schema: schema, reader: reader, writer: writer)
                )
            }
        }

        /// Runs ``memberRoles()``'s SQL in one transaction.
        package func createMemberRoles() async throws -> MemberRoles {
            let roles = try await memberRoles()
            try await Blocking.run {
                try self.withDatabase("create the member roles") { db in
                    try db.transaction { _ = try db.execute(roles.sql) }
                }
            }
            return roles
        }
    }
#endif
