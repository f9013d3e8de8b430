#if canImport(Testing)
    import AlbumKitCore
    import Foundation
    import Testing

    /// One kind of library the conformance kit runs against: how to make a fresh one, and each way it
    /// differs from the others by design (read by the behaviours, never answered by skipping them).
    ///
    /// Each kind's test target declares its kind and runs the kit (``LibraryConformanceSuite``):
    ///
    /// ```
    /// let folders = LibraryKind(name: "folders", listsChecksums: false) { directory in
    ///     let root = directory.appendingPathComponent("Pictures")
    ///     try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    ///     return ConformanceLibrary(directory: directory, library: try PhotoLibrary.folders(at: root)) {
    ///         try PhotoLibrary.folders(at: root)
    ///     }
    /// }
    /// ```
    public struct LibraryKind: Sendable, CustomTestStringConvertible {
        /// The kind's name in test output (`catalog`, `folders`, `in-memory`…).
        public var name: String

        /// Whether saving the same bytes again finds the asset saved before. Photos makes a second
        /// asset for every creation request, whatever its bytes.
        public var storesIdenticalBytesOnce: Bool

        /// Whether ``AssetInfo/sha256`` is listed. A folder library's files are the truth and are not
        /// hashed to be listed; Photos publishes no checksum.
        public var listsChecksums: Bool

        /// Whether a file saved with ``Media/movesFile`` leaves its place. The folder and shared
        /// libraries copy it and leave it (as ``Media/movesFile`` documents for libraries that cannot
        /// move a file into themselves).
        public var movesFiles: Bool

        /// Whether a video's duration is listed. The simulator does not read videos (Photos does).
        public var listsVideoDurations: Bool

        /// Whether the creation date, location and favourite given when saving are listed with the
        /// asset. A folder library keeps the file as it was given, byte for byte, and records nothing
        /// beside it: it lists what the file says.
        public var keepsGivenDescriptions: Bool

        /// Whether an album's former title still leads to it after a rename through the library.
        /// Photos, and the in-memory library that stands in for it in an app's tests: the app's
        /// title keeps leading to its album after any rename (the identifier remembered for the
        /// title wins, see SavingIntoAnAppsAlbum.md). AlbumKit's own libraries free the old title.
        public var formerTitleLeadsToRenamedAlbum: Bool

        /// Whether an album holds its photos, so that removing it behind the library's back takes
        /// them away: a folder library's album is the folder its files are in. Elsewhere an album
        /// lists photos the library keeps.
        public var albumsHoldTheirPhotos: Bool

        /// Whether the library remembers an album deleted through it, so that saving into its title
        /// again says ``AlbumOutcome/recreated``. A folder library forgets the title of an album
        /// the user deleted through it (its folder went to the Trash on purpose): `.created`.
        public var remembersDeletedAlbums: Bool

        /// Makes a fresh library of this kind in `directory` (an empty temporary folder).
        public var make: @Sendable (_ directory: URL) async throws -> ConformanceLibrary

        public var testDescription: String { name }

        /// A kind that behaves as AlbumKit's catalog does, but where it says otherwise.
        public init(
            name: String, storesIdenticalBytesOnce: Bool = true, listsChecksums: Bool = true, movesFiles: Bool = true,
            listsVideoDurations: Bool = true, keepsGivenDescriptions: Bool = true,
            formerTitleLeadsToRenamedAlbum: Bool = false, albumsHoldTheirPhotos: Bool = false,
            remembersDeletedAlbums: Bool = true,
            make: @escaping @Sendable (_ directory: URL) async throws -> ConformanceLibrary
        ) {
            self.name = name
            self.storesIdenticalBytesOnce = storesIdenticalBytesOnce
            self.listsChecksums = listsChecksums
            self.movesFiles = movesFiles
            self.listsVideoDurations = listsVideoDurations
            self.keepsGivenDescriptions = keepsGivenDescriptions
            self.formerTitleLeadsToRenamedAlbum = formerTitleLeadsToRenamedAlbum
            self.albumsHoldTheirPhotos = albumsHoldTheirPhotos
            self.remembersDeletedAlbums = remembersDeletedAlbums
            self.make = make
        }

        /// Runs `body` against a fresh library of this kind, in a temporary folder removed afterwards.
        public func withLibrary(_ body: (ConformanceLibrary) async throws -> Void) async throws {
            try await Fixture.withTemporaryDirectory { directory in
                let fixture = try await make(directory)
                try await fixture.run { try await body(fixture) }
            }
        }
    }
#endif
