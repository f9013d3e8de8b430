extension PhotoLibrary {
    /// A photo library that lives in memory: the way to unit-test app code that saves, lists or
    /// observes photos, without Photos, a simulator's photo library or files on disk.
    ///
    /// It behaves as the other libraries do — one album per title, the remembered album found again
    /// after a rename, a deleted album recreated (``AlbumOutcome/recreated``), bad files refused by
    /// their content, the same bytes stored once — and as Photos does about access: saving into an
    /// album needs read-write access, a save without one add-only access, a user who was never asked
    /// is asked (and answers `answer`), and ``AlbumAccessPolicy`` decides when only adding is
    /// allowed. Descriptions given with ``Media/with(creationDate:location:isFavorite:movesFile:)``
    /// are kept, and ``changes(interval:)`` reports each change as it is made. It keeps each
    /// original's bytes in memory, so ``thumbnail(forAssetWithID:maxPixelSize:)`` gives the
    /// thumbnail stored in the file, as the catalog does (Photos would render one).
    ///
    /// ```swift
    /// @Test func savesIntoTheTripAlbum() async throws {
    ///     let library = PhotoLibrary.inMemory()
    ///     let saver = TripSaver(library: library)          // your code, given the library
    ///     try await saver.save(photoURL)
    ///     #expect(try await library.assets(inAlbumTitled: "Trips").count == 1)
    /// }
    ///
    /// @Test func explainsWhenPhotosAccessIsDenied() async throws {
    ///     let library = PhotoLibrary.inMemory(access: .notDetermined, answer: .denied)
    ///     await #expect(throws: AlbumError.self) { try await library.album(titled: "Trips").save(.file(photoURL)) }
    /// }
    /// ```
    /// - Parameters:
    ///   - access: the read-write access now (``PhotoLibraryAccess/notDetermined``: the first
    ///     request or save asks).
    ///   - addOnlyAccess: the add-only access now; `nil` follows `access` (read-write includes adding).
    ///   - answer: what the user answers when asked.
    public static func inMemory(
        access: PhotoLibraryAccess = .authorized, addOnlyAccess: PhotoLibraryAccess? = nil,
        answer: PhotoLibraryAccess = .authorized
    ) -> PhotoLibrary {
        PhotoLibrary(backend: InMemoryBackend(readWrite: access, addOnly: addOnlyAccess, answer: answer))
    }
}
