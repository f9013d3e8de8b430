#if canImport(Testing)
    import AlbumKitCore
    import AlbumKitFolders
    import AlbumKitMedia
    import AlbumTestSupport
    import Foundation
    import Testing

    /// Pictures folders with a Trash of their own, and folder assertions, for the folder-library tests.
    ///
    /// ```
    /// try await FolderFixture.withRoot { root, _ in
    ///     let library = try FolderFixture.library(root)   // its Trash beside root, never the user's
    /// }
    /// ```
    public enum FolderFixture {
        /// Runs the program `arguments[0]` with the rest as its arguments (`mount`, `umount`) and
        /// returns its exit status (-1 when it cannot start).
        public static func run(_ arguments: String...) -> Int32 { ProgramRun.status(arguments) }

        /// Runs `body` with a fresh, empty folder (`…/Pictures`) inside a fresh temp directory, removed
        /// afterwards. The parent is passed too, to check that nothing is written outside the root.
        public static func withRoot<T>(_ body: (_ root: URL, _ parent: URL) async throws -> T) async throws -> T {
            let parent = FileManager.default.temporaryDirectory
                .appendingPathComponent("albumkit-folders-\(UUID().uuidString)", isDirectory: true)
            let root = parent.appendingPathComponent("Pictures", isDirectory: true)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            defer {
                FaultInjector.removeAll(under: parent.path)
                try? FileManager.default.removeItem(at: parent)
            }
            return try await body(root, parent)
        }

        /// The folder library at `root`, whose Trash is `Trash` next to `root` (never the user's).
        public static func library(_ root: URL) throws -> PhotoLibrary {
            PhotoLibrary(backend: FolderBackend(root: root, trash: trash(root)))
        }

        /// The home Trash the fixture's libraries use.
        package static func trash(_ root: URL) -> FolderTrash {
            FolderTrash(homeTrash: root.deletingLastPathComponent().appendingPathComponent("Trash").path)
        }

        /// Writes `data` to `name` in `directory` and returns its URL.
        @discardableResult
        public static func write(_ data: Data, named name: String, in directory: URL) throws -> URL {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let url = directory.appendingPathComponent(name)
            try data.write(to: url)
            return url
        }

        /// The visible entries of `directory`, sorted.
        public static func visible(in directory: URL) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { !$0.hasPrefix(".") }
                .sorted()
        }

        /// Every entry of `directory` (hidden ones included), sorted.
        public static func all(in directory: URL) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        }

        /// Checks the folder-library invariant: the folder holds only complete photo/video files (each
        /// byte-identical to one of `sources` when given) and, hidden, at most AlbumKit's marker.
        public static func expectOnlyCompleteMedia(
            in folder: URL, sources: [Data] = [], sourceLocation: SourceLocation = #_sourceLocation
        ) {
            for name in all(in: folder) {
                if name == FolderAlbumMarker.fileName { continue }
                #expect(
                    !name.hasPrefix("."), "hidden leftover \(name) in \(folder.path)", sourceLocation: sourceLocation)
                let url = folder.appendingPathComponent(name)
                let data = (try? Data(contentsOf: url)) ?? Data()
                #expect(
                    (try? MediaInspector().inspect(BufferByteSource(bytes: Array(data)))) != nil,
                    "\(name) is not complete media", sourceLocation: sourceLocation)
                if !sources.isEmpty {
                    #expect(sources.contains(data), "\(name) is not a complete copy", sourceLocation: sourceLocation)
                }
            }
        }
    }
#endif
