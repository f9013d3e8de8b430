#if os(Linux)
    import AlbumKitCore

    /// A library whose originals can outlive their rows (a shared library's objects uploaded by a
    /// saver that died before its commit), and which removes them: ``PhotoLibrary/collectGarbage()``.
    ///
    /// ```swift
    /// let report = try await collecting.collectGarbage()
    /// ```
    package protocol GarbageCollecting: LibraryBackend {
        /// Removes what nothing needs any more, never racing a save of the same bytes.
        func collectGarbage() async throws -> GarbageReport
    }
#endif
