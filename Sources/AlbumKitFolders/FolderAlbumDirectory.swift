import AlbumKitCore
import Foundation

/// One album folder as found on disk.
package struct FolderAlbum: Sendable, Hashable {
    /// The folder's path below the root.
    package var path: FolderAlbumPath
    /// The album identifier: the marker's, else one derived from the folder path.
    package var id: String
    /// The title: the marker's title while the folder keeps the path AlbumKit gave it and that path
    /// can carry the title, else the folder path (the user moved or renamed it, AlbumKit never wrote
    /// a marker there, or the marker was edited to a title its folder does not carry).
    package var title: String
    /// When the album was created: the marker's date, else the folder's modification time.
    package var createdAt: Date
    /// The marker, when the folder has one that is in effect.
    package var marker: FolderAlbumMarker?
    /// The folder's inode when it was read (`nil` for a folder being created).
    var inode: UInt64?

    /// The folder's path relative to the root (`Trips/2024`).
    package var name: String { path.relative }

    /// The comparison key of the title (``FolderAlbumPath/key(of:)``).
    package var titleKey: String { FolderAlbumPath.key(of: title) }

    /// Whether the marker on disk already says exactly this (no need to rewrite it): a marker
    /// whose inode is stale (the library was copied to another disk) is rewritten, so that the
    /// folder's claim to its identifier is the strongest again.
    var isSettled: Bool {
        marker.map { $0.id == id && $0.folder == name && (inode == nil || $0.inode == inode) } ?? false
    }

    /// How strongly this folder claims its identifier, strongest (0) first; two folders claiming
    /// one identifier are told apart by it (``FolderAlbumDirectory/scan(_:preferring:)``).
    ///
    /// 0. an unmarked folder (its identifier is derived from its path), or a marker that names this
    ///    path and was written in this very folder (its inode);
    /// 1. a marker that names this path, in another folder (a copy put where the original was, or a
    ///    library copied to another disk);
    /// 2. a marker written in this folder, which has been renamed or moved since;
    /// 3. a marker copied in from elsewhere.
    var claim: Int {
        guard let marker else { return 0 }
        let here = inode != nil && (marker.inode == nil || marker.inode == inode)
        if marker.folder == name { return here ? 0 : 1 }
        return marker.inode != nil && marker.inode == inode ? 2 : 3
    }

    /// The album a folder at `path` is, given the marker found in it and the folder's inode.
    init(path: FolderAlbumPath, marker: FolderAlbumMarker?, modified: Date, inode: UInt64?) {
        self.path = path
        self.inode = inode
        if let marker {
            id = marker.id
            title = marker.folder == path.relative && path.carries(marker.title) ? marker.title : path.title
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
        self.inode = marker?.inode
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
    /// The hints as they were when this lookup began: one command's contests are settled alike.
    private let hinted: [String: String]
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
        self.hinted = hints.withLock { $0 }
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
    /// name, so that a title means one album in every command (`albums`, `show`, `add`,
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
                let entries =
                    try FileSystem.unlessOutOfDescriptors { () throws(SystemError) in try FileSystem.names(in: child) }
                    ?? []
                if FolderExclusions.isExcluded(folderNamed: name, holding: entries) { continue }
                let childPath = path + [name]
                if remaining.count == 1 {
                    let marker =
                        entries.contains(FolderAlbumMarker.fileName) ? try FolderAlbumMarker.read(in: child) : nil
                    let album = FolderAlbum(
                        path: FolderAlbumPath(components: childPath), marker: marker, modified: info.modified.date,
                        inode: info.inode)
                    if album.titleKey == key { found.append(album) }
                } else {
                    try walk(child, childPath, remaining.dropFirst())
                }
            }
        }
        try walk(root, [], levels[...])
        // Each folder is shown with the identifier a lookup of that identifier leads back to, or
        // the full listing decides: a marker copied or forged into another folder may claim the
        // same identifier, and a command must never act on another folder than the one it showed.
        if try Set(found.map(\.id)).count < found.count || !found.allSatisfy(isUncontested) {
            let listed = try albums()
            found = found.map { album in listed.first { $0.path == album.path } ?? album }
        }
        found.sort { precedes($0.name, $1.name) }
        for album in found { remember(album) }
        titled[key] = found
        return found
    }

    /// Whether the listing would give `album` the identifier it claims, known without listing:
    /// the lookup of the identifier by its remembered folders leads to it, or, for an unmarked
    /// folder (whose path gives its identifier), no remembered folder claims the identifier as
    /// strongly (``scan(_:preferring:)`` then lets the unmarked folder keep it).
    private func isUncontested(_ album: FolderAlbum) throws -> Bool {
        switch try preferredAlbum(id: album.id) {
        case let preferred?: return preferred.path == album.path
        case nil: return album.marker == nil && album.claim == 0
        }
    }

    /// The album with `id`, if its folder exists.
    func album(id: String) throws -> FolderAlbum? {
        if let known = confirmed[id] { return known }
        if scanned == nil, let album = try preferredAlbum(id: id) {
            remember(album)
            return album
        }
        let album = try albums().first { $0.id == id }
        if let album { remember(album) }
        return album
    }

    /// The first of the folders remembered for `id` (``preferredFolders(for:)``) that claims it
    /// as strongly as a folder can: the one the full listing gives `id` to, found without listing.
    private func preferredAlbum(id: String) throws -> FolderAlbum? {
        for path in preferredFolders(for: id) {
            if let album = try album(at: path), album.id == id, album.claim == 0 { return album }
        }
        return nil
    }

    /// The folders that settle a contest for `id` between folders claiming it equally strongly,
    /// first first: the folder this process last found it in, then those the library remembers
    /// it in (``FolderLibraryState``), in a fixed order.
    private func preferredFolders(for id: String) -> [String] {
        var paths = hinted[id].map { [$0] } ?? []
        for (_, entry) in remembered.sorted(by: { precedes($0.key, $1.key) })
        where entry.id == id && !paths.contains(entry.folder) {
            paths.append(entry.folder)
        }
        return paths
    }

    private func remember(_ album: FolderAlbum) {
        confirmed[album.id] = album
        hints.withLock { $0[album.id] = album.name }
    }

    /// Every album folder, oldest first (creation date, then path).
    func albums() throws -> [FolderAlbum] {
        if let scanned { return scanned }
        let albums = try Self.scan(root, preferring: preferredFolders(for:))
        scanned = albums
        return albums
    }

    /// Forgets the listing (after creating, renaming or deleting a folder).
    func invalidate() {
        scanned = nil
        confirmed = [:]
        titled = [:]
    }

    /// The album at `relative`, as a lookup by title would find it before settling identifier
    /// contests: `nil` when the path is not an album there (missing, a symlink on the way, excluded
    /// by its name or by a data file in it or above it, or too deep). An unmarked folder without a
    /// photo or video counts, as it does for titles (`2023` above `2023/Summer`): its identifier
    /// comes from its path, so only a lookup that found it there asks for it.
    private func album(at relative: String) throws(SystemError) -> FolderAlbum? {
        let path = FolderAlbumPath(components: relative.split(separator: "/").map(String.init))
        guard !path.components.isEmpty, path.components.count <= FolderAlbumPath.maximumDepth,
            !path.components.contains(where: FolderExclusions.isExcluded(folderNamed:)),
            let folder = try FileSystem.unlessOutOfDescriptors({ () throws(SystemError) in
                try FileSystem.openDirectory(path, in: root)
            })
        else { return nil }
        // A data file in the folder or any folder above it keeps the listing out of it.
        var level = try FileSystem.reopen(folder)
        for _ in path.components {
            for name in FolderExclusions.dataFiles where FileSystem.status(of: name, in: level) != nil {
                return nil
            }
            let parent = try FileSystem.openDirectory("..", in: level)
            FileSystem.close(level)
            level = parent
        }
        let info = try FileSystem.fileStatus(of: folder)
        let marker = try FolderAlbumMarker.read(in: folder)
        return FolderAlbum(path: path, marker: marker, modified: info.modified.date, inode: info.inode)
    }

    /// Lists the album folders below `root`: every visible folder (not a symlink: AlbumKit never
    /// writes through one, and not excluded by ``FolderExclusions``) that holds a photo or video
    /// file or an album marker, at any depth, with identifiers made unique deterministically.
    ///
    /// When two folders claim one identifier (a folder copied with its marker, a marker edited, or
    /// an unmarked folder at a path like one AlbumKit moved), the one with the strongest
    /// ``FolderAlbum/claim`` keeps it; between equal claims, the first of the folders `preferring`
    /// gives for the identifier (where this library last found it), then an unmarked folder, then
    /// the first by path. The others get an identifier derived from their path, and a marker that
    /// lost its identifier no longer gives the title either.
    static func scan(
        _ root: FileSystem.Descriptor, preferring: (String) -> [String] = { _ in [] }
    ) throws(SystemError) -> [FolderAlbum] {
        var found: [FolderAlbum] = []
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
                let listing =
                    try FileSystem.unlessOutOfDescriptors { () throws(SystemError) in try FileSystem.entries(in: child)
                    }
                    ?? []
                let entries = listing.map(\.name)
                if FolderExclusions.isExcluded(folderNamed: name, holding: entries) { continue }
                let childPath = path + [name]
                let marker = entries.contains(FolderAlbumMarker.fileName) ? try FolderAlbumMarker.read(in: child) : nil
                if marker != nil || entries.contains(where: FolderNaming.isMediaFileName) {
                    found.append(
                        FolderAlbum(
                            path: FolderAlbumPath(components: childPath), marker: marker, modified: info.modified.date,
                            inode: info.inode))
                }
                try visit(child, childPath, listing)
            }
        }
        try visit(root, [], try FileSystem.entries(in: root))
        // Identifier contests.
        func order(_ album: FolderAlbum) -> (Int, Int, Int) {
            let preference = preferring(album.id).firstIndex(of: album.name) ?? Int.max
            return (album.claim, preference, album.marker == nil ? 0 : 1)
        }
        found.sort { a, b in order(a) != order(b) ? order(a) < order(b) : precedes(a.name, b.name) }
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
