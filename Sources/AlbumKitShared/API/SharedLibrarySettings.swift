#if os(Linux)
    /// What a shared library records about itself: where its originals are, and how long deleted
    /// assets and albums stay restorable.
    ///
    /// ```swift
    /// let settings = try await library.sharedSettings()
    /// print(settings.store.endpoint, settings.store.region, settings.retentionDays)
    /// ```
    public struct SharedLibrarySettings: Sendable, Hashable {
        /// The object store: endpoint, bucket, prefix, region, addressing.
        public var store: ObjectStoreLocation
        /// Days an asset or album stays in recently deleted before `gc` removes it for good.
        public var retentionDays: Int
    }
#endif
