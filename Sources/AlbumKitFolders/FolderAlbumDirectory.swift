import AlbumKitCore
import Foundation

/// One album folder as found on disk.
package struct FolderAlbum: Sendable, Hashable {
    /// The folder's path below the root.
    package var path: FolderAlbumPath
    /// The album identifier: the marker's, else one derived from the folder path.
    package var id: String
    /// The title: the marker's title while the folder keeps the path AlbumKit gave it, else the
    /// folder path (the user moved or renamed it, or AlbumKit never wrote a marker there).
    package var title: String
    /// When the album was created: the marker's date, else the folder's modification time.
    package var createdAt: Date
    /// The marker, when the folder has one that is in effect.
    package var marker: FolderAlbumMarker?

    /// The folder's path relative to the root (`Trips/2024`).
    package var name: String { path.relative }

    /// The comparison key of the title (``FolderAlbumPath/key(of:)``).
    package var titleKey: String { FolderAlbumPath.key(of: title) }

    /// Whether the marker on disk already says exactly this (no need to rewrite it).
    var isSettled: Bool { marker.map { $0.id == id && $0.folder == name } ?? false }

    /// The album a folder at `path` is, given the marker found in it.
    init(path: FolderAlbumPath, marker: FolderAlbumMarker?, modified: Date) {
        self.path = path
        if let marker {
            id = marker.id
            title = marker.folder == path.relative ? marker.title : path.title
            createdAt = Date(timeIntervalSince1970: marker.created)
            self.marker = marker
        } else {
            id = FolderAlbum.derivedID(forFolderNamed: path.relative)
            title = path.title
            createdAt = modified
        }
    }

    init(path: FolderAlbumPath, id: String, title: String, createdAt: Date, marker: FolderAlbumMarker?) {
        self.path = path
        self.id = id
        self.title = title
        self.createdAt = createdAt
        self.marker = marker
    }

    /// The identifier of an unmarked folder: a UUID-shaped digest of its NFC path (and `salt` when
    /// another folder already uses that identifier), stable across runs while the path stays.
    package static func derivedID(forFolderNamed name: String, salt: Int = 0) -> String {
        let key = "albumkit.folder\u{0}" + name.nfc + (salt > 0 ? "\u{0}\(salt)" : "")
        let hex = Array(Array(key.utf8).withUnsafeBytes { SHA256Hasher.hash($0) }.prefix(32))
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }
        return groups.joined(separator: "-")
    }
}

/// The albums of a folder library and the lookups of the resolution rule
/// (``AlbumRequest/resolve(in:)``).
///
/// A title is looked up by walking its path from the root (a few directory listings, however large
/// the library); the whole tree is scanned only to list albums or to find an identifier whose
/// folder hint failed. A title that an album is listed under always means that album: the
/// remembered identifier only counts when no folder carries the title (the user renamed the folder
/// in a file manager, and saves follow it). A title that two folders carry is refused with both
/// named.
final class FolderAlbumDirectory: AlbumDirectory {
    let root: FileSystem.Descriptor
    let remembered: [String: FolderLibraryState.Remembered]
    /// Folders known by identifier from earlier lookups in this process (a hint, always re-checked).
    let hints: Locked<[String: String]>
    private var scanned: [FolderAlbum]?
    private var confirmed: [String: FolderAlbum] = [:]
    private var titled: [String: [FolderAlbum]] = [:]

    init(
        root: FileSystem.Descriptor, remembered: [String: FolderLibraryState.Remembered],
        hints: Locked<[String: String]> = Locked([:])
    ) {
        self.root = root
        self.remembered = remembered
        self.hints = hints
    }

    func rememberedAlbumID(for title: AlbumTitle) throws -> String? {
        if try !albums(titled: title).isEmpty { return nil }  // the listed album wins
        return remembered[title.key]?.id
    }

    func albumExists(id: String) throws -> Bool { try album(id: id) != nil }

    func oldestAlbum(titled title: AlbumTitle) throws -> String? {
        let found = try albums(titled: title)
        guard found.count <= 1 else { throw Self.ambiguity(title, found) }
        return found.first?.id
    }

    /// The one folder titled `title`, `nil` when none.
    ///
    /// - Throws: `.ambiguousAlbumTitle` naming the folders when several carry the title.
    func album(titled title: AlbumTitle) throws -> FolderAlbum? {
        let found = try albums(titled: title)
        guard found.count <= 1 else { throw Self.ambiguity(title, found) }
        return found.first
    }

    static func ambiguity(_ title: AlbumTitle, _ found: [FolderAlbum]) -> AlbumError {
        // Names that look the same (a composed "é" and "e" + a combining accent: Swift's strings
        // even compare them equal) are told apart by their code points.
        let alike = Set(found.map(\.name)).count < found.count
        let names = found.map { album -> String in
            let shown = "\"\(album.name)\""
            guard alike else { return shown }
            let spelled = album.name.unicodeScalars.map { scalar -> String in
                scalar.isASCII && scalar != " "
                    ? String(scalar) : "U+\(String(scalar.value, radix: 16, uppercase: true))"
            }
            return shown + " (" + spelled.joined(separator: " ") + ")"
        }.joined(separator: ", ")
        return AlbumError(
            .ambiguousAlbumTitle,
            "The title \"\(title.text)\" names \(found.count) folders: \(names). Rename one of them (in the file manager or with album rename) so each title names one folder.",
            albumTitle: title.text)
    }

    /// The folders listed under `title`: every folder (with photos or not) on a path the title can
    /// name, whose listed title is `title` — the one lookup of a title for every command (`show`,
    /// `rename`, `delete`, `save`), so each acts on what ``albums()`` lists under it. At the last
    /// level that includes the numbered folders AlbumKit makes when the name is taken (`Trips 2`
    /// for the title `Trips`), whose marker gives the title.
    func albums(titled title: AlbumTitle) throws -> [FolderAlbum] {
        let levels = FolderAlbumPath.levels(of: title.text)
        guard !levels.isEmpty, levels.count <= FolderAlbumPath.maximumDepth else { return [] }
        let key = levels.joined(separator: "/")
        if let known = titled[key] { return known }
        var found: [FolderAlbum] = []
        func walk(_ folder: FileSystem.Descriptor, _ path: [String], _ remaining: ArraySlice<String>) throws {
            guard let level = remaining.first else { return }
            for name in try FileSystem.names(in: folder)
            where FolderAlbumPath.folder(name, matches: level)
                || (remaining.count == 1 && FolderAlbumPath.folder(name, isNumberedFor: level))
            {
                guard !FolderExclusions.isExcluded(folderNamed: name),
                    let info = FileSystem.fileStatus(of: name, in: folder), info.kind == .directory,
                    let child = try FileSystem.unlessOutOfDescriptors({ () throws(SystemError) in
                        try FileSystem.openDirectory(name, in: folder)
                    })
                else { continue }
                defer { FileSystem.close(child) }
                let entries =
                    try FileSystem.unlessOutOfDescriptors { () throws(SystemError) in try FileSystem.names(in: child) }
                    ?? []
                if FolderExclusions.isExcluded(folderNamed: name, holding: entries) { continue }
                let childPath = path + [name]
                if remaining.count == 1 {
                    let marker =
                        entries.contains(FolderAlbumMarker.fileName) ? try FolderAlbumMarker.read(in: child) : nil
                    let album = FolderAlbum(
                        path: FolderAlbumPath(components: childPath), marker: marker, modified: info.modified.date)
                    if album.titleKey == key { found.append(album) }
                } else {
                    try walk(child, childPath, remaining.dropFirst())
                }
            }
        }
        try walk(root, [], levels[...])
        // Identifiers stay unique even for folders the full listing would re-identify.
        // (a marker that names another path is a copy's: the listing decides which one keeps it).
        let listed =
            found.contains { album in album.marker.map { $0.folder != album.name } ?? false } ? try albums() : []
        found = found.map { album in listed.first { $0.path == album.path } ?? album }
        found.sort { precedes($0.name, $1.name) }
        for album in found { remember(album) }
        titled[key] = found
        return found
    }

    /// The album with `id`, if its folder exists.
    func album(id: String) throws -> FolderAlbum? {
        if let known = confirmed[id] { return known }
        var paths = remembered.values.filter { $0.id == id }.map(\.folder)
        if let hint = hints.withLock({ $0[id] }) { paths.insert(hint, at: 0) }
        if scanned == nil {
            for path in paths {
                if let album = try settledAlbum(at: path), album.id == id {
                    remember(album)
                    return album
                }
            }
        }
        let album = try albums().first { $0.id == id }
        if let album { remember(album) }
        return album
    }

    private func remember(_ album: FolderAlbum) {
        confirmed[album.id] = album
        hints.withLock { $0[album.id] = album.name }
    }

    /// Every album folder, oldest first (creation date, then path).
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
        titled = [:]
    }

    /// The album at `relative` whose marker names this very path (it wins any identifier contest,
    /// so no listing is needed to trust it), or an unmarked folder there (its identifier is derived
    /// from the path, so it is checked against the caller's).
    private func settledAlbum(at relative: String) throws(SystemError) -> FolderAlbum? {
        let path = FolderAlbumPath(components: relative.split(separator: "/").map(String.init))
        guard !path.components.isEmpty, !path.components.contains(where: FolderExclusions.isExcluded(folderNamed:)),
            let folder = try FileSystem.unlessOutOfDescriptors({ () throws(SystemError) in
                try FileSystem.openDirectory(path, in: root)
            })
        else { return nil }
        defer { FileSystem.close(folder) }
        let marker = try FolderAlbumMarker.read(in: folder)
        if let marker, marker.folder != relative { return nil }
        let modified = (try? FileSystem.fileStatus(of: folder))?.modified.date ?? Date(timeIntervalSince1970: 0)
        return FolderAlbum(path: path, marker: marker, modified: modified)
    }

    /// Lists the album folders below `root`: every visible folder (not a symlink: AlbumKit never
    /// writes through one, and not excluded by ``FolderExclusions``) that holds a photo or video
    /// file or an album marker, at any depth, with identifiers made unique deterministically.
    ///
    /// When two folders claim one identifier (a folder copied with its marker, or an unmarked
    /// folder at a path like one AlbumKit moved), the one whose marker names it keeps it, then the
    /// one that is the folder the marker was written in (its inode: a renamed original, not a copy),
    /// then a marked one, then the first by path; the others get an identifier derived from their
    /// path.
    static func scan(_ root: FileSystem.Descriptor) throws(SystemError) -> [FolderAlbum] {
        var found: [FolderAlbum] = []
        var inodes: [String: UInt64] = [:]  // by relative path
        var visited = Set<[UInt64]>()
        // Only entries the listing does not rule out as folders are `stat`ed, not every photo.
        func visit(_ folder: FileSystem.Descriptor, _ path: [String], _ listed: [FileSystem.Entry]) throws(SystemError)
        {
            guard path.count < FolderAlbumPath.maximumDepth else { return }
            for entry in listed where entry.mayBeFolder && !FolderExclusions.isExcluded(folderNamed: entry.name) {
                let name = entry.name
                guard let info = FileSystem.fileStatus(of: name, in: folder), info.kind == .directory,
                    visited.insert([info.device, info.inode]).inserted,
                    let child = try FileSystem.unlessOutOfDescriptors({ () throws(SystemError) in
                        try FileSystem.openDirectory(name, in: folder)
                    })
                else { continue }
                defer { FileSystem.close(child) }
                let listing =
                    try FileSystem.unlessOutOfDescriptors { () throws(SystemError) in try FileSystem.entries(in: child)
                    }
                    ?? []
                let entries = listing.map(\.name)
                if FolderExclusions.isExcluded(folderNamed: name, holding: entries) { continue }
                let childPath = path + [name]
                let marker = entries.contains(FolderAlbumMarker.fileName) ? try FolderAlbumMarker.read(in: child) : nil
                if marker != nil || entries.contains(where: FolderNaming.isMediaFileName) {
                    inodes[FolderAlbumPath(components: childPath).relative] = info.inode
                    found.append(
                        FolderAlbum(
                            path: FolderAlbumPath(components: childPath), marker: marker, modified: info.modified.date))
                }
                try visit(child, childPath, listing)
            }
        }
        try visit(root, [], try FileSystem.entries(in: root))
        // Identifier contests.
        func rank(_ album: FolderAlbum) -> Int {
            guard let marker = album.marker else { return 3 }
            if marker.folder == album.name { return 0 }
            return marker.inode != nil && marker.inode == inodes[album.name] ? 1 : 2
        }
        found.sort { rank($0) != rank($1) ? rank($0) < rank($1) : precedes($0.name, $1.name) }
        var used = Set<String>()
        for index in found.indices {
            var album = found[index]
            var salt = 0
            while used.contains(album.id) {
                if album.marker != nil {
                    album.marker = nil  // a copy: its marker is not in effect here
                    album.title = album.path.title
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
