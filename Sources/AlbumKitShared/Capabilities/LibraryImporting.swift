#if os(Linux)
    import AlbumKitCore

    /// A library that copies another library's contents into itself, ids and dates kept (a shared
    /// library, from a catalog): ``PhotoLibrary/copy(fromCatalogAt:)``.
    ///
    /// ```swift
    /// let report = try await importing.copy(try await catalog.exportContents())
    /// ```
    package protocol LibraryImporting: LibraryBackend {
        /// Copies `source`'s assets, albums and memberships; what is already there is skipped.
        func copy(_ source: LibraryContents) async throws -> CopyReport
    }
#endif
