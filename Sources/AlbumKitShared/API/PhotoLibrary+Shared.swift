#if os(Linux)
    import AlbumKitCore
    import Foundation

    extension PhotoLibrary {
        /// A library shared by many machines: the catalog in PostgreSQL at `url`, the originals in
        /// the S3-compatible store that `album init` recorded there.
        ///
        /// Credentials come from the environment, never from the URL: libpq's `PGPASSWORD`,
        /// `~/.pgpass` or service file, and `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY`.
        ///
        /// ```swift
        /// let library = try PhotoLibrary.shared("postgres://family@db.example.net/photos")
        /// let saved = try await library.album(titled: "Summer").save(.file(photoURL))
        /// ```
        /// - Throws: `.libraryNotFound` when the server cannot be reached or the library is not set up,
        ///   `.accessDenied` when the database or the store refuses the credentials.
        public static func shared(_ url: String) throws -> PhotoLibrary {
            PhotoLibrary(backend: try SharedBackend.open(url: url))
        }

        /// Sets up a shared library at `url` whose originals go to `store` (the bucket is created when
        /// missing). Running it again with the same store changes nothing.
        ///
        /// ```swift
        /// let store = ObjectStoreLocation(endpoint: "http://127.0.0.1:8333", bucket: "photos")
        /// let library = try PhotoLibrary.initializeShared("postgres://me@localhost/photos", store: store)
        /// ```
        /// - Throws: `.libraryCorrupt` when the library already keeps its originals elsewhere.
        @discardableResult
        public static func initializeShared(_ url: String, store: ObjectStoreLocation) throws -> PhotoLibrary {
            PhotoLibrary(backend: try SharedBackend.initialize(url: url, location: store))
        }

        /// Whether `location` names a shared library (`postgres://` or `postgresql://`).
        ///
        /// ```swift
        /// if PhotoLibrary.isSharedLibraryURL(argument) { library = try .shared(argument) }
        /// ```
        public static func isSharedLibraryURL(_ location: String) -> Bool {
            location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
        }

        /// Removes originals that were uploaded to a shared library but never committed (a saver that
        /// died between its upload and its commit). Never races a save of the same bytes.
        ///
        /// ```swift
        /// let report = try await PhotoLibrary.shared(url).collectGarbage()
        /// ```
        /// - Throws: `.ioFailure` when this is not a shared library.
        public func collectGarbage() async throws -> GarbageReport {
            guard let shared = try await backend as? SharedBackend else {
                throw AlbumError(.ioFailure, "Only a shared (postgres://) library has objects to collect.")
            }
            return try await PhotoLibrary.mapping { try await shared.collectGarbage() }
        }
    }
#endif
