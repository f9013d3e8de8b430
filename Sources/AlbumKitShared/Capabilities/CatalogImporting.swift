#if os(Linux)
    import AlbumKitCatalog
    import AlbumKitCore

    /// A library that copies a catalog library's contents into itself (a shared library):
    /// ``PhotoLibrary/copy(fromCatalogAt:)``.
    ///
    /// ```swift
    /// let report = try await importing.copy(try await catalog.exportContents())
    /// ```
    package protocol CatalogImporting: LibraryBackend {
        /// Copies `source`'s assets, albums and memberships; what is already there is skipped.
        func copy(_ source: CatalogExport) async throws -> CopyReport
    }
#endif
