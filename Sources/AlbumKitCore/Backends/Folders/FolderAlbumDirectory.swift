import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One album folder as found on disk.
package struct FolderAlbum: Sendable, Hashable {
    /// The folder's name in the root.
    package var name: String
    /// The album identifier: the marker's, else one derived from the folder name.
    package var id: String
    /// The title: the marker's title while the folder keeps the name AlbumKit gave it, else the
    /// folder name (the user renamed it, or AlbumKit never wrote a marker there).
    package var title: String
    /// When the album was created: the marker's date, else the folder's modification time.
    package var createdAt: Date
    /// The marker, when the folder has one that is in effect.
    package var marker: FolderAlbumMarker?

    /// The NFC comparison key of the title.
    package var titleKey: String { title.precomposedStringWithCanonicalMapping }

    /// Whether the marker on disk already says exactly this (no need to rewrite it).
    var isSettled: Bool { marker.map { $0.id == id && $0.folder == name } ?? false }

    /// The identifier of an unmarked folder: a UUID-shaped digest of its NFC name (and `salt` when
    /// another folder already uses that identifier), stable across runs while the name stays.
    package static func derivedID(forFolderNamed name: String, salt: Int = 0) -> String {
        let key = "albumkit.folder\u{0}" + name.precomposedStringWithCanonicalMapping + (salt > 0 ? "\u{0}\(salt)" : "")
        let hex = Array(Array(key.utf8).withUnsafeBytes { SHA256Hasher.hash($0) }.prefix(32))
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }
        return groups.joined(separator: "-")
    }
}

/// The album lookups of the resolution rule (``AlbumRequest/resolve(in:)``), answered from the
/// folders under a root and the remembered identifiers in `.albumkit/albums.json`.
///
/// A remembered album is checked in O(1) through its folder hint; the root is listed only when the
/// hint fails (the folder was renamed or deleted) or a title must be looked up.
final class FolderAlbumDirectory: AlbumDirectory {
    let root: FileSystem.Descriptor
    let remembered: [String: FolderLibraryState.Remembered]
    private var scanned: [FolderAlbum]?
    private var confirmed: [String: FolderAlbum] = [:]

    init(root: FileSystem.Descriptor, remembered: [String: FolderLibraryState.Remembered]) {
        self.root = root
        self.remembered = remembered
    }

    func rememberedAlbumID(for title: AlbumTitle) throws -> String? { remembered[title.key]?.id }

    func albumExists(id: String) throws -> Bool { try album(id: id) != nil }

    func oldestAlbum(titled title: AlbumTitle) throws -> String? {
        try albums().first { $0.titleKey == title.key }?.id
    }

    /// The album with `id`, if its folder exists.
    func album(id: String) throws -> FolderAlbum? {
        if let known = confirmed[id] { return known }
        if scanned == nil, let hint = remembered.values.first(where: { $0.id == id }),
            let album = Self.settledAlbum(named: hint.folder, in: root), album.id == id
        {
            confirmed[id] = album
            return album
        }
        return try albums().first { $0.id == id }
    }

    /// Every album folder, oldest first (creation date, then name).
    func albums() throws -> [FolderAlbum] {
        if let scanned { return scanned }
        let albums = try Self.scan(root)
        scanned = albums
        return albums
    }

    /// Forgets the listing (after creating, renaming or deleting a folder).
    func invalidate() {
        scanned = nil
        confirmed = [:]
    }

    /// An album whose marker names this very folder: it wins any identifier contest, so no listing
    /// is needed to trust it.
    private static func settledAlbum(named name: String, in root: FileSystem.Descriptor) -> FolderAlbum? {
        guard let folder = try? FileSystem.openDirectory(name, in: root) else { return nil }
        defer { FileSystem.close(folder) }
        guard let marker = FolderAlbumMarker.read(in: folder), marker.folder == name else { return nil }
        return FolderAlbum(
            name: name, id: marker.id, title: marker.title, createdAt: Date(timeIntervalSince1970: marker.created),
            marker: marker)
    }

    /// Lists the album folders of `root`: visible sub-directories (not symlinks: AlbumKit never
    /// writes through one), with identifiers made unique deterministically.
    ///
    /// When two folders claim one identifier (a folder copied with its marker, or an unmarked
    /// folder named like one AlbumKit renamed), the one whose marker names it keeps it, then a
    /// marked one, then the first by name; the others get an identifier derived from their name.
    static func scan(_ root: FileSystem.Descriptor) throws(SystemError) -> [FolderAlbum] {
        var found: [FolderAlbum] = []
        for name in try FileSystem.names(in: root) where !name.hasPrefix(".") {
            guard let info = FileSystem.status(of: name, in: root), (info.st_mode & S_IFMT) == S_IFDIR else { continue }
            let modified = Date(timeIntervalSince1970: TimeInterval(info.modificationTime.tv_sec))
            let marker = (try? FileSystem.openDirectory(name, in: root)).flatMap { folder in
                defer { FileSystem.close(folder) }
                return FolderAlbumMarker.read(in: folder)
            }
            if let marker {
                found.append(
                    FolderAlbum(
                        name: name, id: marker.id, title: marker.folder == name ? marker.title : name,
                        createdAt: Date(timeIntervalSince1970: marker.created), marker: marker))
            } else {
                found.append(
                    FolderAlbum(
                        name: name, id: FolderAlbum.derivedID(forFolderNamed: name), title: name, createdAt: modified))
            }
        }
        // Identifier contests.
        func rank(_ album: FolderAlbum) -> Int {
            guard let marker = album.marker else { return 2 }
            return marker.folder == album.name ? 0 : 1
        }
        found.sort { rank($0) != rank($1) ? rank($0) < rank($1) : precedes($0.name, $1.name) }
        var used = Set<String>()
        for index in found.indices {
            var album = found[index]
            var salt = 0
            while used.contains(album.id) {
                if album.marker != nil {
                    album.marker = nil  // a copy: its marker is not in effect here
                    album.title = album.name
                }
                album.id = FolderAlbum.derivedID(forFolderNamed: album.name, salt: salt)
                salt += 1
            }
            used.insert(album.id)
            found[index] = album
        }
        found.sort { a, b in
            a.createdAt != b.createdAt ? a.createdAt < b.createdAt : precedes(a.name, b.name)
        }
        return found
    }
}

/// Byte order of two names (the same on every machine, unlike locale-aware comparison).
private func precedes(_ a: String, _ b: String) -> Bool {
    Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
}
