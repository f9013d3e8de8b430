#if os(Linux)
    import AlbumKitCore

    /// A library that keeps deleted assets and albums restorable for its retention (a shared
    /// library): ``PhotoLibrary/recentlyDeleted()``.
    ///
    /// ```swift
    /// let restored = try await kept.restoreDeleted(try await kept.recentlyDeleted().map(\.id))
    /// ```
    package protocol SharedRecentlyDeleted: LibraryBackend {
        /// The assets and albums deleted and still restorable, most recently deleted first.
        func recentlyDeleted() async throws -> [RecentlyDeletedItem]

        /// Brings back the assets and albums with identifiers `ids`; all or nothing.
        func restoreDeleted(_ ids: [String]) async throws -> [RecentlyDeletedItem]

        /// Removes for good the recently deleted items `ids` (`nil`: all of them), with the
        /// originals nothing else names.
        func removeDeleted(_ ids: [String]?) async throws -> GarbageReport
    }
#endif
