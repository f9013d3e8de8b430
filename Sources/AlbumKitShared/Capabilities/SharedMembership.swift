#if os(Linux)
    import AlbumKitCore

    /// A library whose members are database roles, a reader's and a writer's (a shared library):
    /// ``PhotoLibrary/memberRoles()``.
    ///
    /// ```swift
    /// let roles = try await members.memberRoles()
    /// ```
    package protocol SharedMembership: LibraryBackend {
        /// The member roles of the library's database and the SQL that sets them up.
        func memberRoles() async throws -> MemberRoles

        /// Creates the member roles when missing and grants them their rights.
        func createMemberRoles() async throws -> MemberRoles
    }
#endif
