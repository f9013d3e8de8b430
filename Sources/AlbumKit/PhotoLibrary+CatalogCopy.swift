#if os(Linux)
    import AlbumKitCatalog
    import AlbumKitCore
    import AlbumKitShared
    import Foundation

    extension PhotoLibrary {
        /// Copies the catalog library at `url` into this shared library: assets, albums, memberships,
        /// dates and original names. Safe to run again: it copies only what is missing.
        ///
        /// Here, where both kinds are known: the catalog lists what it holds with its ids and dates,
        /// and the shared library writes them as they are.
        ///
        /// ```swift
        /// let report = try await PhotoLibrary.sharedCatalog(at: libraryURL).copy(fromCatalogAt: catalogURL)
        /// ```
        public func copy(fromCatalogAt url: URL) async throws -> CopyReport {
            let shared = try await capability(
                (any LibraryImporting).self,
                orThrow: AlbumError(.ioFailure, "Copying into a library works for shared (postgres://) libraries."))
            return try await PhotoLibrary.mapping {
                let catalog = try CatalogBackend.open(at: url, create: false)
                return try await shared.copy(try await catalog.exportContents())
            }
        }
    }
#endif
