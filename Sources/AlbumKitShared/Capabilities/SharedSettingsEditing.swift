#if os(Linux)
    import AlbumKitCore

    /// A library that records where its store is and how long deleted items stay (a shared
    /// library): ``PhotoLibrary/sharedSettings()``.
    ///
    /// ```swift
    /// let settings = try await editing.changeSettings(endpoint: nil, region: "eu-central-003", addressing: nil, retentionDays: 60)
    /// ```
    package protocol SharedSettingsEditing: LibraryBackend {
        /// The recorded store and retention.
        func settings() async throws -> SharedLibrarySettings

        /// Changes the store's endpoint, region or addressing and the retention; a new store
        /// location must answer and hold the library's originals, or nothing changes.
        func changeSettings(
            endpoint: String?, region: String?, addressing: ObjectStoreAddressing?, retentionDays: Int?
        ) async throws -> SharedLibrarySettings
    }
#endif
