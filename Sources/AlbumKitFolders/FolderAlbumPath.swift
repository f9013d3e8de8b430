import AlbumKitCore
import Foundation

/// Where a folder album lives: its folder path below the library root, one folder name per level,
/// and how album titles map onto such paths.
///
/// A title is a path: `/` separates nested folders (`"Trips/2024"` is the folder `2024` inside
/// `Trips`), as digiKam and Shotwell show nested folders. A `/` that is part of one folder's name is
/// written `\/` (and a backslash `\\`); on disk it becomes U+2215 DIVISION SLASH, the only slash a
/// file name can hold, and listing shows it as `\/` again.
///
/// ```swift
/// FolderAlbumPath.key(of: "Trips / 2024")   // "Trips/2024"
/// FolderAlbumPath.key(of: #"AC\/DC"#)       // "AC∕DC" (one folder)
/// FolderAlbumPath(components: ["AC∕DC"]).title   // #"AC\/DC"#
/// ```
package struct FolderAlbumPath: Sendable, Hashable {
    /// The folder names, outermost first; never empty for an album.
    package var components: [String]

    /// Most levels a title may have.
    static let maximumDepth = 32

    package init(components: [String]) { self.components = components }

    /// Two paths are one folder when their names are the same bytes: a file system tells apart
    /// names Swift's strings compare equal (a composed "é" and "e" + a combining accent).
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.components.count == rhs.components.count
            && zip(lhs.components, rhs.components).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    }

    package func hash(into hasher: inout Hasher) {
        for name in components {
            hasher.combine(name.utf8.count)
            for byte in name.utf8 { hasher.combine(byte) }
        }
    }

    /// The path relative to the root (`Trips/2024`), as stored in markers and used in identifiers.
    package var relative: String { components.joined(separator: "/") }

    /// The parent path; empty components for a top-level album.
    var parent: FolderAlbumPath { FolderAlbumPath(components: Array(components.dropLast())) }

    /// The title an unmarked folder at this path is listed with: its names joined by `/`, a slash in a
    /// name shown as `\/` and a backslash as `\\`.
    package var title: String {
        components.map { name in
            var escaped = ""
            for character in name {
                switch character {
                case "\\": escaped += "\\\\"
                case FolderNaming.slashReplacement: escaped += "\\/"
                default: escaped.append(character)
                }
            }
            return escaped
        }.joined(separator: "/")
    }

    /// The levels of a typed title: split at each `/` not escaped by a backslash, each level trimmed
    /// of surrounding whitespace and in NFC, a literal slash as U+2215; empty levels dropped.
    ///
    /// Split scalar by scalar: a `/` followed by a combining mark is one Character, and must still
    /// separate levels rather than end up inside a folder name.
    package static func levels(of title: String) -> [String] {
        var levels: [String] = []
        var current = String.UnicodeScalarView()
        var escaping = false
        let slash = FolderNaming.slashReplacement.unicodeScalars.first!
        for scalar in title.unicodeScalars {
            if escaping {
                escaping = false
                switch scalar {
                case "/": current.append(slash)
                case "\\": current.append("\\")
                default:
                    current.append("\\")
                    current.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\\": escaping = true
            case "/":
                levels.append(String(current))
                current = String.UnicodeScalarView()
            default: current.append(scalar)
            }
        }
        if escaping { current.append("\\") }
        levels.append(String(current))
        return levels.map(level).filter { !$0.isEmpty }
    }

    /// One level of a title or a folder name as compared: trimmed, NFC.
    static func level(_ text: String) -> String {
        text.trimmed().nfc
    }

    /// The comparison key of a title: its levels joined by `/`. Two titles name the same album
    /// exactly when their keys are equal.
    package static func key(of title: String) -> String { levels(of: title).joined(separator: "/") }

    /// The folder path AlbumKit creates for `title`: each level made a safe folder name
    /// (``FolderNaming/safeComponent(_:fallback:reserving:)``).
    ///
    /// - Throws: `.invalidAlbumTitle` when the title has no level or more than 32.
    package static func creating(_ title: AlbumTitle) throws(AlbumError) -> FolderAlbumPath {
        let levels = levels(of: title.text)
        guard !levels.isEmpty else {
            throw AlbumError(
                .invalidAlbumTitle, "The album title \"\(title.text)\" names no folder; give the album a name.",
                albumTitle: title.text)
        }
        guard levels.count <= maximumDepth else {
            throw AlbumError(
                .invalidAlbumTitle,
                "The album title \"\(title.text)\" has \(levels.count) levels; at most \(maximumDepth) nested folders are allowed.",
                albumTitle: title.text)
        }
        return FolderAlbumPath(components: levels.map { FolderNaming.safeComponent($0, fallback: "Album") })
    }

    /// Whether a folder at this path can carry `title`, as AlbumKit names folders: one folder per
    /// level, each matching its level, the last one possibly numbered (`Trips 2`). A marker whose
    /// title its folder cannot carry (edited, or copied into an unrelated folder) does not give the
    /// title: a lookup by title would never find that folder.
    ///
    /// ```swift
    /// FolderAlbumPath(components: ["Trips 2"]).carries("Trips")   // true
    /// FolderAlbumPath(components: ["Other"]).carries("Trips")     // false
    /// ```
    func carries(_ title: String) -> Bool {
        let levels = Self.levels(of: title)
        guard levels.count == components.count, let last = levels.last, let folder = components.last else {
            return false
        }
        for (name, level) in zip(components.dropLast(), levels.dropLast()) where !Self.folder(name, matches: level) {
            return false
        }
        return Self.folder(folder, matches: last) || Self.folder(folder, isNumberedFor: last)
    }

    /// Whether the folder `name` can be the folder of title level `level`: its own name says so, or
    /// AlbumKit would give that level this name.
    static func folder(_ name: String, matches level: String) -> Bool {
        Self.level(name) == level || name == FolderNaming.safeComponent(level, fallback: "Album")
    }

    /// Whether the folder `name` is one AlbumKit makes for the last title level `level` when the
    /// folder name is taken (by a file, an excluded or an unmarked folder): `Trips 2`, `Trips 3`, …
    /// (``FolderNaming/folderName(_:attempt:)``). Such a folder is listed under the title its
    /// marker holds, so a lookup of the title must read it too.
    static func folder(_ name: String, isNumberedFor level: String) -> Bool {
        guard let space = name.lastIndex(of: " "), let attempt = Int(name[name.index(after: space)...]),
            attempt >= 2
        else { return false }
        return name == FolderNaming.folderName(FolderNaming.safeComponent(level, fallback: "Album"), attempt: attempt)
    }
}
