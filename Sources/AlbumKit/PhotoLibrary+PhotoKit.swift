#if canImport(Photos)
    @_exported import AlbumKitPhotoKit

    extension PhotoLibrary {
        /// The system photo library: Photos, through PhotoKit. Album identifiers are remembered in
        /// `UserDefaults.standard`.
        ///
        /// ```swift
        /// let saved = try await PhotoLibrary.system.album(titled: "Trips").save(.file(url))
        /// ```
        public static var system: PhotoLibrary { PhotoLibrary(backend: PhotoKitBackend()) }

        /// Photos, remembering album identifiers in `store` (e.g. an app group's defaults).
        ///
        /// ```swift
        /// let library = PhotoLibrary.photos(rememberingAlbumsIn: UserDefaultsAlbumStore(suiteName: "group.app"))
        /// ```
        public static func photos(rememberingAlbumsIn store: some AlbumIdentifierStore) -> PhotoLibrary {
            PhotoLibrary(backend: PhotoKitBackend(store: store))
        }
    }
#endif
