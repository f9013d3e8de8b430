#if canImport(Testing)
    import AlbumKitCore
    import Foundation
    import Testing

    /// A fresh library of one kind, with what the conformance kit needs to reach behind its API: a
    /// second handle on the same storage, the bytes it holds, and the ways another program changes
    /// it. A kind's factory (``LibraryKind/make``) fills in what differs from the defaults.
    ///
    /// ```
    /// ConformanceLibrary(directory: directory, library: library, reopen: { try PhotoLibrary.catalog(at: url) })
    /// ```
    public struct ConformanceLibrary {
        /// Albums made straight in the library's store by another program, both titled alike (the
        /// kit's title is "Twins"): the older one is the album the rule must find.
        public struct TwinAlbums {
            /// The album every save into the title must find.
            public var older: String
            /// The other one; `nil` where a title cannot have two albums (a folder library).
            public var newer: String?
            /// Photos the older album held before the kit saved into it.
            public var photosInOlder: Int

            public init(older: String, newer: String?, photosInOlder: Int = 0) {
                self.older = older
                self.newer = newer
                self.photosInOlder = photosInOlder
            }
        }

        /// The library's temporary folder (the kit writes its input files there).
        public let directory: URL
        /// The library, as an app opens it.
        public let library: PhotoLibrary
        /// Another handle on the same library: a new opening of the catalog, folders or shared
        /// library; another app's PhotoKit (its own remembered albums); another part of the app
        /// holding the same in-memory library.
        public let reopen: () throws -> PhotoLibrary
        /// Runs a behaviour with the library reachable (Photos' simulated library is bound to the
        /// task). By default it just runs it.
        public var run: (_ body: () async throws -> Void) async throws -> Void = { try await $0() }
        /// The SHA-256 of the bytes the library holds for an asset that is alone in the album
        /// titled `album`. By default the album is exported back out and the file hashed.
        public var readStoredSHA256:
            (_ asset: AssetInfo, _ album: String, _ fixture: ConformanceLibrary) async throws -> String =
                { _, album, fixture in try await fixture.exportedSHA256(ofAlbumTitled: album) }
        /// Deletes the album titled `title` the way another program would, behind this handle's
        /// back. By default another handle deletes it, keeping its photos.
        public var deleteAlbumBehindItsBack: (_ title: String, _ fixture: ConformanceLibrary) async throws -> Void = {
            title, fixture in try await fixture.reopen().deleteAlbum(titled: title, force: true)
        }
        /// Writes two albums titled "Twins" straight into the library's store, as another program
        /// would (through the API `createAlbum` finds the existing album).
        public var makeTwinAlbums: (_ fixture: ConformanceLibrary) async throws -> TwinAlbums

        /// A library of a kind whose twin albums the factory makes with `makeTwinAlbums`.
        public init(
            directory: URL, library: PhotoLibrary, reopen: @escaping () throws -> PhotoLibrary,
            makeTwinAlbums: @escaping (_ fixture: ConformanceLibrary) async throws -> TwinAlbums
        ) {
            self.directory = directory
            self.library = library
            self.reopen = reopen
            self.makeTwinAlbums = makeTwinAlbums
        }

        /// The SHA-256 of the bytes the library holds for `asset`, alone in the album titled `album`.
        public func storedSHA256(of asset: AssetInfo, album: String) async throws -> String {
            try await readStoredSHA256(asset, album, self)
        }

        /// A valid JPEG, `label.jpg` in ``directory``, with bytes no other call returns.
        public func uniqueJPEG(_ label: String) throws -> URL {
            try Fixture.uniqueJPEGFile(label, in: directory)
        }

        /// The SHA-256 of the one file exported from the album titled `album`.
        public func exportedSHA256(ofAlbumTitled album: String) async throws -> String {
            let out = directory.appendingPathComponent("out-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let report = try await library.exportAlbum(titled: album, to: out)
            #expect(report.failures.isEmpty && report.exported.count == 1)
            return try Fixture.sha256(ofFileAt: out.appendingPathComponent(try #require(report.exported.first).name))
        }
    }
#endif
