#if os(Linux)
    import AlbumKitCore
    import Foundation

    extension PhotoLibrary {
        /// A library shared by many machines: the catalog in PostgreSQL at `url`
        /// (`postgres://USER@HOST[:PORT]/DATABASE`), the originals in the S3-compatible store that
        /// `album init` recorded there.
        ///
        /// Returns at once, as ``catalog(at:createIfMissing:onNotice:)`` does: the connection is made on a
        /// background thread, and the first call that uses the library waits for it and throws what
        /// connecting threw. Credentials never come from the URL: libpq's `PGPASSWORD`, `~/.pgpass` or
        /// service file, and the object store's from `~/.aws/credentials` (or `AWS_ACCESS_KEY_ID` /
        /// `AWS_SECRET_ACCESS_KEY` given with ``sharedCatalog(at:environment:)``).
        ///
        /// ```swift
        /// let library = try PhotoLibrary.sharedCatalog(at: URL(string: "postgres://family@db.example.net/photos")!)
        /// let saved = try await library.album(titled: "Summer").save(.file(photoURL))
        /// ```
        /// - Throws: `.invalidArgument` at once when `url` is not a `postgres://` or `postgresql://`
        ///   URL; later, from the first use: `.libraryNotFound` when the server cannot be reached or
        ///   the library is not set up, `.accessDenied` when the database or the store refuses the
        ///   credentials.
        public static func sharedCatalog(at url: URL) throws -> PhotoLibrary {
            let location = url.absoluteString
            guard isSharedLibraryURL(location) else {
                throw AlbumError(
                    .invalidArgument,
                    "\(location) is not a shared library's address; give postgres://USER@HOST[:PORT]/DATABASE.")
            }
            // The settings come with the first request (a save's: with its first transaction).
            return PhotoLibrary(opening: { try SharedBackend.open(url: location, settingsNow: false) })
        }

        /// The shared library at `url`, as ``sharedCatalog(at:)`` opens it, with the object store's
        /// credentials and options taken from `environment` (AlbumKit reads no environment variable
        /// itself): `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_PROFILE`,
        /// `AWS_SHARED_CREDENTIALS_FILE`, `AWS_CONFIG_FILE`, `AWS_CA_BUNDLE`, `HOME`, `USER`.
        ///
        /// ```swift
        /// let library = try PhotoLibrary.sharedCatalog(
        ///     at: URL(string: "postgres://family@db.example.net/photos")!,
        ///     environment: ProcessInfo.processInfo.environment)
        /// ```
        public static func sharedCatalog(at url: URL, environment: [String: String]) throws -> PhotoLibrary {
            let location = url.absoluteString
            guard isSharedLibraryURL(location) else {
                throw AlbumError(
                    .invalidArgument,
                    "\(location) is not a shared library's address; give postgres://USER@HOST[:PORT]/DATABASE.")
            }
            return PhotoLibrary(opening: {
                try SharedBackend.open(url: location, environment: environment, settingsNow: false)
            })
        }

        /// A library shared by many machines: renamed ``sharedCatalog(at:)``, a name that cannot be
        /// read as the system library (PhotoKit's `PHPhotoLibrary.shared()`).
        ///
        /// ```swift
        /// let library = try PhotoLibrary.sharedCatalog(at: URL(string: "postgres://family@db.example.net/photos")!)
        /// ```
        @available(*, deprecated, renamed: "sharedCatalog(at:)")
        public static func shared(at url: URL) throws -> PhotoLibrary { try sharedCatalog(at: url) }

        /// A library shared by many machines, at the PostgreSQL URL `url`.
        ///
        /// ```swift
        /// let library = try PhotoLibrary.shared("postgres://family@db.example.net/photos")
        /// ```
        /// - Throws: as ``sharedCatalog(at:)``: connecting now happens in the background, and its failures
        ///   come from the first call that uses the library.
        @available(
            *, deprecated, renamed: "sharedCatalog(at:)", message: "Pass a URL; the library connects in the background."
        )
        public static func shared(_ url: String) throws -> PhotoLibrary {
            guard let parsed = URL(string: url) else {
                throw AlbumError(
                    .invalidArgument,
                    "\(url) is not a shared library's address; give postgres://USER@HOST[:PORT]/DATABASE.")
            }
            return try sharedCatalog(at: parsed)
        }

        /// Sets up a shared library at `url` whose originals go to `store` (the bucket is created when
        /// missing). Running it again with the same store changes nothing. Unlike ``sharedCatalog(at:)`` it
        /// connects at once: it throws what setting up threw.
        ///
        /// ```swift
        /// let store = ObjectStoreLocation(endpoint: "http://127.0.0.1:8333", bucket: "photos")
        /// let library = try PhotoLibrary.initializeShared(at: URL(string: "postgres://me@localhost/photos")!, store: store)
        /// ```
        /// - Throws: `.libraryCorrupt` when the library already keeps its originals elsewhere;
        ///   `.libraryNotFound`, `.accessDenied` as ``sharedCatalog(at:)``.
        @discardableResult
        public static func initializeShared(at url: URL, store: ObjectStoreLocation) throws -> PhotoLibrary {
            PhotoLibrary(backend: try SharedBackend.initialize(url: url.absoluteString, location: store))
        }

        /// Sets up a shared library at the PostgreSQL URL `url` whose originals go to `store`.
        ///
        /// ```swift
        /// let library = try PhotoLibrary.initializeShared("postgres://me@localhost/photos", store: store)
        /// ```
        @available(*, deprecated, renamed: "initializeShared(at:store:)", message: "Pass a URL.")
        @discardableResult
        public static func initializeShared(_ url: String, store: ObjectStoreLocation) throws -> PhotoLibrary {
            PhotoLibrary(backend: try SharedBackend.initialize(url: url, location: store))
        }

        /// Whether `location` names a shared library (`postgres://` or `postgresql://`).
        ///
        /// ```swift
        /// if PhotoLibrary.isSharedLibraryURL(argument) { library = try .sharedCatalog(at: URL(string: argument)!) }
        /// ```
        public static func isSharedLibraryURL(_ location: String) -> Bool {
            location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
        }

        /// Removes originals that were uploaded to a shared library but never committed (a saver that
        /// died between its upload and its commit). Never races a save of the same bytes.
        ///
        /// ```swift
        /// let report = try await PhotoLibrary.sharedCatalog(at: libraryURL).collectGarbage()
        /// ```
        /// - Throws: `.ioFailure` when this is not a shared library.
        public func collectGarbage() async throws -> GarbageReport {
            let shared = try await capability(
                (any GarbageCollecting).self,
                orThrow: AlbumError(.ioFailure, "Only a shared (postgres://) library has objects to collect."))
            return try await PhotoLibrary.mapping { try await shared.collectGarbage() }
        }
    }
#endif
