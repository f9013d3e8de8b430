#if os(Linux)
    import AlbumKitCore

    extension PhotoLibrary {
        /// The reader and writer roles of this shared library and the SQL that sets them up; nothing
        /// is changed.
        ///
        /// ```swift
        /// print(try await PhotoLibrary.sharedCatalog(at: libraryURL).memberRoles().sql)
        /// ```
        /// - Throws: `.notSupported` when this is not a shared library.
        public func memberRoles() async throws -> MemberRoles {
            try await Self.mapping { try await sharedMembers().memberRoles() }
        }

        /// Creates the reader and writer roles (when missing) and grants them their rights: runs
        /// ``memberRoles()``'s SQL. Needs a database role that may create roles and owns the tables.
        ///
        /// ```swift
        /// let roles = try await library.createMemberRoles()
        /// ```
        /// - Throws: `.libraryUnwritable` when this role may not create roles or grant.
        @discardableResult
        public func createMemberRoles() async throws -> MemberRoles {
            try await Self.mapping { try await sharedMembers().createMemberRoles() }
        }

        private func sharedMembers() async throws -> any SharedMembership {
            try await capability(
                (any SharedMembership).self,
                orThrow: AlbumError(
                    .notSupported, "Members and roles belong to a shared (postgres://) library; this is another kind."))
        }
    }
#endif
