import AlbumKitCore
/// Find-or-create of folder albums for ``AlbumRequest/findOrCreate(in:)``, used under the library
/// lock: creating an album makes its folder; remembering is kept in memory and written once by
/// ``saveRemembered()``, only when it changed.
///
/// ```swift
/// let store = FolderAlbumStore(backend: self, root: root, state: state)
/// let album = try request.findOrCreate(in: store)   // store.created holds a new folder, open
/// store.saveRemembered()
/// ```
final class FolderAlbumStore: AlbumStore {
    let backend: FolderBackend
    let root: FileSystem.Descriptor
    let state: FileSystem.Descriptor
    private(set) var remembered: [String: FolderLibraryState.Remembered]
    private let directory: FolderAlbumDirectory
    /// The album folder ``createAlbum(titled:)`` made, still open (with its parent); the caller
    /// closes both.
    private(set) var created: FolderAlbumCreation?
    private var changed = false

    init(backend: FolderBackend, root: FileSystem.Descriptor, state: FileSystem.Descriptor) {
        self.backend = backend
        self.root = root
        self.state = state
        remembered = FolderLibraryState.remembered(state: state)
        directory = FolderAlbumDirectory(root: root, remembered: remembered, hints: backend.folderHints)
    }

    func rememberedAlbumID(for title: AlbumTitle) throws -> String? { try directory.rememberedAlbumID(for: title) }
    func albumExists(id: String) throws -> Bool { try directory.albumExists(id: id) }
    func oldestAlbum(titled title: AlbumTitle) throws -> String? { try directory.oldestAlbum(titled: title) }

    /// The album with `id`: the one just created, or an existing folder.
    func album(id: String) throws -> FolderAlbum? {
        if let created, created.album.id == id { return created.album }
        return try directory.album(id: id)
    }

    func createAlbum(titled title: AlbumTitle) throws -> String {
        let made = try backend.createAlbumFolder(titled: title, in: root, state: state)
        created = made
        return made.album.id
    }

    func remember(_ id: String, for title: AlbumTitle) throws {
        guard let album = try album(id: id) else { throw AlbumVanished(albumID: id) }
        backend.folderHints.withLock { $0[id] = album.name }
        let memory = FolderLibraryState.Remembered(id: id, folder: album.name)
        if remembered[title.key] != memory {
            remembered[title.key] = memory
            changed = true
        }
    }

    /// Writes what was remembered, if it changed. A hint: if it cannot be written, the title still
    /// finds the album.
    func saveRemembered() {
        guard changed else { return }
        // A hint (see above): unwritten, the album is still found by its folder and marker.
        try? FolderLibraryState.saveRemembered(remembered, state: state)
    }
}
