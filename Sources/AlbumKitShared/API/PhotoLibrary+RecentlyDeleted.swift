#if os(Linux)
    import AlbumKitCore
    import Foundation

    extension PhotoLibrary {
        /// The assets and albums of a shared library that were deleted and can still be restored,
        /// most recently deleted first.
        ///
        /// ```swift
        /// let deleted = try await PhotoLibrary.sharedCatalog(at: libraryURL).recentlyDeleted()
        /// ```
        /// - Throws: `.notSupported` when this is not a shared library.
        public func recentlyDeleted() async throws -> [RecentlyDeletedItem] {
            try await Self.mapping {
                try await sharedBackend((any SharedRecentlyDeleted).self, "list recently deleted").recentlyDeleted()
            }
        }

        /// Brings assets back into their albums and albums back with their photos; returns what was
        /// restored. All or nothing.
        ///
        /// ```swift
        /// try await library.restoreDeleted(withIDs: [assetID])
        /// ```
        /// - Throws: `.assetNotFound` when an id is not in recently deleted (nothing restored).
        public func restoreDeleted(withIDs ids: [String]) async throws -> [RecentlyDeletedItem] {
            try await Self.mapping {
                try await sharedBackend((any SharedRecentlyDeleted).self, "restore").restoreDeleted(ids)
            }
        }

        /// Removes assets and albums from recently deleted for good, with the originals no other
        /// asset shares. All or nothing.
        ///
        /// ```swift
        /// let report = try await library.removeDeletedPermanently(withIDs: [assetID])
        /// ```
        /// - Throws: `.assetNotFound` when an id is not in recently deleted (nothing removed).
        public func removeDeletedPermanently(withIDs ids: [String]) async throws -> GarbageReport {
            try await Self.mapping {
                try await sharedBackend((any SharedRecentlyDeleted).self, "empty recently deleted").removeDeleted(ids)
            }
        }

        /// Removes everything in recently deleted for good, with its originals.
        ///
        /// ```swift
        /// let report = try await library.emptyRecentlyDeleted()
        /// ```
        public func emptyRecentlyDeleted() async throws -> GarbageReport {
            try await Self.mapping {
                try await sharedBackend((any SharedRecentlyDeleted).self, "empty recently deleted").removeDeleted(nil)
            }
        }

        /// What a shared library records: its object store and retention.
        ///
        /// ```swift
        /// print(try await library.sharedSettings().store.region)
        /// ```
        public func sharedSettings() async throws -> SharedLibrarySettings {
            try await Self.mapping {
                try await sharedBackend((any SharedSettingsEditing).self, "read the settings").settings()
            }
        }

        /// Changes where a shared library reaches its store (endpoint, region, addressing; the
        /// bucket and prefix stay) and how long deleted items stay restorable. A new store location
        /// must answer and hold the library's originals, or nothing changes. Open the library again
        /// to use new store settings.
        ///
        /// ```swift
        /// try await library.changeSharedSettings(region: "eu-central-003", retentionDays: 60)
        /// ```
        @discardableResult
        public func changeSharedSettings(
            endpoint: String? = nil, region: String? = nil, addressing: ObjectStoreAddressing? = nil,
            retentionDays: Int? = nil
        ) async throws -> SharedLibrarySettings {
            try await Self.mapping {
                try await sharedBackend((any SharedSettingsEditing).self, "change the settings").changeSettings(
                    endpoint: endpoint, region: region, addressing: addressing, retentionDays: retentionDays)
            }
        }

        /// The backend as `capability`, which only a shared library has.
        private func sharedBackend<Capability>(_ capability: Capability.Type, _ what: String) async throws -> Capability
        {
            try await self.capability(
                capability,
                orThrow: AlbumError(
                    .notSupported,
                    "Cannot \(what): this works on a shared (postgres://) library; a catalog library's deletions are final, a folder library's go to the desktop Trash."
                ))
        }
    }
#endif
