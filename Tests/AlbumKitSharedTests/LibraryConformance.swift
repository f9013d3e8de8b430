#if os(Linux)
    import Foundation
    import PhotoKitSimulator
    import Testing

    @testable import AlbumKitCatalog
    @testable import AlbumKitCore
    @testable import AlbumKitFolders
    @testable import AlbumKitPhotoKit
    @testable import AlbumKitShared

    /// Every kind of library the conformance suite runs against: AlbumKit's own three, the in-memory
    /// test double apps use, and Photos through the PhotoKit simulator.
    enum LibraryKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case catalog, folders, shared, inMemory, photoKit
        var testDescription: String { rawValue }

        /// Whether saving the same bytes again finds the asset saved before. Photos makes a second
        /// asset for every creation request, whatever its bytes.
        var storesIdenticalBytesOnce: Bool { self != .photoKit }

        /// Whether ``AssetInfo/sha256`` is listed. A folder library's files are the truth and are not
        /// hashed to be listed; Photos publishes no checksum.
        var listsChecksums: Bool { self != .folders && self != .photoKit }

        /// Whether a file saved with ``Media/movesFile`` leaves its place. The folder and shared
        /// libraries copy it and leave it (as ``Media/movesFile`` documents for libraries that cannot
        /// move a file into themselves).
        var movesFiles: Bool { self != .folders && self != .shared }

        /// Whether a video's duration is listed. The simulator does not read videos (Photos does).
        var listsVideoDurations: Bool { self != .photoKit }

        /// Whether the creation date, location and favourite given when saving are listed with the
        /// asset. A folder library keeps the file as it was given, byte for byte, and records nothing
        /// beside it: it lists what the file says.
        var keepsGivenDescriptions: Bool { self != .folders }

        /// Whether an album's former title still leads to it after a rename through the library.
        /// Photos, and the in-memory library that stands in for it in an app's tests: the app's
        /// title keeps leading to its album after any rename (the identifier remembered for the
        /// title wins, see SavingIntoAnAppsAlbum.md). AlbumKit's own libraries free the old title.
        var formerTitleLeadsToRenamedAlbum: Bool { self == .photoKit || self == .inMemory }
    }

    /// A fresh library of one kind, a second handle on the same storage (another process or app),
    /// and its temporary folder.
    struct ConformanceLibrary {
        let kind: LibraryKind
        let directory: URL
        let library: PhotoLibrary
        /// Another handle on the same library: a new opening of the catalog, folders or shared
        /// library; another app's PhotoKit (its own remembered albums); another part of the app
        /// holding the same in-memory library.
        let reopen: () throws -> PhotoLibrary
        /// The shared library's servers-side handle (`nil` for the other kinds).
        let shared: SharedTestLibrary?
        /// The simulated Photos library (`nil` but for the PhotoKit kind).
        let simulation: PhotoKitSimulation?
        /// The in-memory library's backend (`nil` but for the in-memory kind).
        let memory: InMemoryBackend?

        init(_ kind: LibraryKind, in directory: URL) throws {
            self.kind = kind
            self.directory = directory
            var shared: SharedTestLibrary?
            var simulation: PhotoKitSimulation?
            var memory: InMemoryBackend?
            switch kind {
            case .catalog:
                let url = directory.appendingPathComponent("Library.albumkit")
                library = try PhotoLibrary.catalog(at: url)
                reopen = { try PhotoLibrary.catalog(at: url, createIfMissing: false) }
            case .folders:
                let root = directory.appendingPathComponent("Pictures")
                try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
                let trash = FolderTrash(homeTrash: directory.appendingPathComponent("Trash").path)
                library = PhotoLibrary(backend: FolderBackend(root: root, trash: trash))
                reopen = { PhotoLibrary(backend: FolderBackend(root: root, trash: trash)) }
            case .shared:
                let library = try SharedTestLibrary()
                self.library = library.library
                reopen = {
                    PhotoLibrary(backend: try SharedBackend.open(url: library.url, environment: library.environment))
                }
                shared = library
            case .inMemory:
                let backend = InMemoryBackend(readWrite: .authorized, addOnly: nil, answer: .authorized)
                library = PhotoLibrary(backend: backend)
                reopen = { PhotoLibrary(backend: backend) }
                memory = backend
            case .photoKit:
                let photos = PhotoKitSimulation()
                photos.setAuthorizationAnswer(.authorized, for: .readWrite)
                photos.setAuthorizationAnswer(.authorized, for: .addOnly)
                library = PhotoLibrary(backend: PhotoKitBackend(store: InMemoryAlbumStore()))
                reopen = { PhotoLibrary(backend: PhotoKitBackend(store: InMemoryAlbumStore())) }
                simulation = photos
            }
            self.shared = shared
            self.simulation = simulation
            self.memory = memory
        }

        /// Runs `body` with this library reachable (Photos' simulated library is bound to the task).
        func run<T>(_ body: () async throws -> T) async rethrows -> T {
            if let simulation { return try await simulation.run(body) }
            return try await body()
        }

        /// The SHA-256 of the bytes the library holds for `asset`: exported back out of AlbumKit's own
        /// libraries (for the shared library, streamed from the object store); the original resource
        /// Photos imported; the checksum the in-memory library records (it keeps no bytes).
        func storedSHA256(of asset: AssetInfo, album: String) async throws -> String {
            switch kind {
            case .catalog, .folders, .shared:
                let out = directory.appendingPathComponent("out-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
                let report = try await library.exportAlbum(titled: album, to: out)
                #expect(report.failures.isEmpty && report.exported.count == 1)
                return try sha256(
                    ofFileAt: out.appendingPathComponent(try #require(report.exported.first).name))
            case .photoKit:
                let resources = try #require(simulation?.asset(withLocalIdentifier: asset.id)).resources
                let original = try #require(resources.first { $0.type == .photo })
                return original.data.withUnsafeBytes { SHA256Hasher.hash($0) }
            case .inMemory:
                return try #require(memory?.state.withLock { $0.asset(asset.id)?.sha256 })
            }
        }

        /// A valid JPEG with bytes no other call returns.
        func uniqueJPEG(_ label: String) throws -> URL {
            try SharedTestLibrary.uniqueJPEG(in: directory, label)
        }
    }

    /// Runs `body` against a fresh library of `kind`. The shared kind needs the servers: the suite
    /// is skipped with the printed reason where they cannot start, and fails in CI
    /// (``SharedServers/enabled``).
    func withLibrary(_ kind: LibraryKind, _ body: (ConformanceLibrary) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try ConformanceLibrary(kind, in: directory)
            try await fixture.run { try await body(fixture) }
        }
    }

    /// The SHA-256 of a file's bytes.
    func sha256(ofFileAt url: URL) throws -> String {
        let file = try FileSystem.openForReading(url.path).0
        defer { FileSystem.close(file) }
        return try FileSystem.sha256(of: file)
    }
#endif
