import Foundation

/// Turns album titles and original file names into safe names inside a folder library.
///
/// Every mapping is total (any valid title or file name gives a usable name) and safe: the result
/// is one path component — never empty, `.` or `..`, never containing `/` or NUL, never hidden
/// (a leading `.` would hide it from digiKam, Shotwell and file managers), without trailing spaces
/// or dots (vfat, exFAT and SMB drop them), NFC, and at most 255 UTF-8 bytes.
///
/// ```swift
/// FolderNaming.folderName(for: try AlbumTitle("AC/DC live."))   // "AC∕DC live"
/// FolderNaming.fileName(original: "x.png", format: .jpeg)         // "x.jpg"
/// ```
package enum FolderNaming {
    /// The longest file name Linux file systems accept, in bytes.
    package static let maximumByteCount = 255

    /// What replaces `/` in a title: U+2215 DIVISION SLASH, which reads the same.
    package static let slashReplacement: Character = "\u{2215}"

    /// The folder name for an album titled `title` (before collision suffixes).
    package static func folderName(for title: AlbumTitle) -> String {
        safeComponent(title.key, fallback: "Album")
    }

    /// `name`, or `name 2`, `name 3`, … for `attempt` 1, 2, 3, …, kept within 255 bytes.
    package static func folderName(_ name: String, attempt: Int) -> String {
        guard attempt > 1 else { return name }
        let suffix = " \(attempt)"
        return truncated(name, toBytes: maximumByteCount - suffix.utf8.count) + suffix
    }

    /// The published name of a file originally named `original` whose content is `format`.
    ///
    /// The original name is kept; its extension is kept when it matches the content (`IMG_1.JPG`
    /// stays), replaced when it names another media format (`x.png` holding a JPEG → `x.jpg`), and
    /// added otherwise (`scan.2024` → `scan.2024.jpg`). Without a name, `IMG_yyyyMMdd_HHmmss` /
    /// `VID_yyyyMMdd_HHmmss` is used.
    package static func fileName(original: String?, format: MediaFormat, date: Date = Date()) -> String {
        var stem: String
        var ext: String = format.fileExtension
        let original = original.map(lastComponent) ?? ""
        if let dot = original.lastIndex(of: "."), dot != original.startIndex {
            let current = String(original[original.index(after: dot)...])
            let lowered = current.lowercased()
            if aliases(of: format).contains(lowered) {
                stem = String(original[..<dot])
                ext = current
            } else if knownMediaExtensions.contains(lowered) {
                stem = String(original[..<dot])
            } else {
                stem = original
            }
        } else {
            stem = original
        }
        if stem.isBlank || stem.allSatisfy({ $0 == "." }) {
            stem = defaultStem(kind: format.kind, date: date)
        }
        let safeExt = ext.filter { $0.isLetter || $0.isNumber }
        let suffix = "." + (safeExt.isEmpty ? format.fileExtension : safeExt)
        return safeComponent(stem, fallback: "IMG", reserving: suffix.utf8.count) + suffix
    }

    /// The last component of a path: `a/b.jpg` → `b.jpg`, `a/b/` → `b` (as
    /// `NSString.lastPathComponent`); only slashes → no name.
    package static func lastComponent(_ path: String) -> String {
        var end = path.endIndex
        while end > path.startIndex, path[path.index(before: end)] == "/" { end = path.index(before: end) }
        guard end > path.startIndex else { return "" }
        let start = path[..<end].lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        return String(path[start..<end])
    }

    /// `name.ext` → `name 2.ext`, `name 3.ext`, … for `attempt` 2, 3, …
    package static func fileName(_ name: String, attempt: Int) -> String {
        guard attempt > 1 else { return name }
        let dot = name.lastIndex(of: ".") ?? name.endIndex
        let stem = String(name[..<dot])
        let ext = String(name[dot...])
        let suffix = " \(attempt)" + ext
        return truncated(stem, toBytes: maximumByteCount - suffix.utf8.count) + suffix
    }

    /// Whether `name` has the extension of a photo or video format (what scanners and AlbumKit
    /// count as an asset of a folder album).
    package static func isMediaFileName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), !name.hasPrefix(".") else { return false }
        return knownMediaExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// Photo or video, as the file's extension says (a photo when it says neither).
    package static func kind(ofFileNamed name: String) -> MediaKind {
        let ext = (name as NSString).pathExtension.lowercased()
        return videoExtensions.contains(ext) ? .video : .photo
    }

    private static let videoExtensions: Set<String> = MediaFormat.allCases.filter { $0.kind == .video }.reduce(
        into: []
    ) { $0.formUnion(aliases(of: $1)) }

    /// Extensions that are accepted as naming `format`, lowercase.
    package static func aliases(of format: MediaFormat) -> Set<String> {
        switch format {
        case .jpeg: ["jpg", "jpeg", "jpe", "jfif"]
        case .tiff: ["tif", "tiff"]
        case .heic: ["heic", "heics", "hif"]
        case .heif: ["heif", "heifs", "hif", "heic"]
        case .raw: ["raw", "arw", "cr2", "cr3", "nef", "orf", "raf", "rw2", "pef", "srw"]
        case .dng: ["dng"]
        case .mp4: ["mp4", "m4v"]
        case .mov: ["mov", "qt"]
        case .m4v: ["m4v", "mp4"]
        case .threeGP: ["3gp", "3g2"]
        case .webm: ["webm", "mkv"]
        case .mkv: ["mkv", "mk3d"]
        case .mpegTS: ["ts", "m2t"]
        case .m2ts: ["m2ts", "mts"]
        default: [format.fileExtension]
        }
    }

    /// Every extension of a format AlbumKit knows, lowercase.
    package static let knownMediaExtensions: Set<String> = MediaFormat.allCases.reduce(into: []) {
        $0.formUnion(aliases(of: $1))
    }

    private static func defaultStem(kind: MediaKind, date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd_HHmmss"
        return (kind == .video ? "VID_" : "IMG_") + formatter.string(from: date)
    }

    /// Makes `raw` one safe path component of at most `255 - reserving` bytes.
    package static func safeComponent(_ raw: String, fallback: String, reserving: Int = 0) -> String {
        if isSafeASCII(raw, limit: maximumByteCount - reserving) { return raw }
        var text = raw.nfc
        // No separators, no NUL or other control characters.
        text = String(
            text.map { character -> Character in
                if character == "/" { return slashReplacement }
                if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                    return "_"
                }
                return character
            })
        // A `/` followed by a combining mark is one Character, not "/": replace every `/` scalar, or
        // the name would be a path (one that starts with `/` leaves the library).
        if text.unicodeScalars.contains("/") {
            var scalars = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                if scalar == "/" {
                    scalars.append(contentsOf: String(slashReplacement).unicodeScalars)
                } else {
                    scalars.append(scalar)
                }
            }
            text = String(scalars)
        }
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        // Not hidden: leading dots become "_" ("." and ".." become "_" and "__").
        let leadingDots = text.prefix { $0 == "." }.count
        if leadingDots > 0 { text = String(repeating: "_", count: leadingDots) + text.dropFirst(leadingDots) }
        text = truncated(text, toBytes: maximumByteCount - reserving)
        // No trailing spaces or dots.
        while let last = text.last, last == "." || last.isWhitespace { text.removeLast() }
        return text.isEmpty ? fallback : text
    }

    /// Whether `text` is printable ASCII that ``safeComponent(_:fallback:reserving:)`` would keep
    /// as it is (most camera and phone names): not empty, within `limit` bytes, no `/`, not starting
    /// with a space or a dot, not ending with one.
    private static func isSafeASCII(_ text: String, limit: Int) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, let last = bytes.last, bytes.count <= limit,
            first != 0x20, first != 0x2E, last != 0x20, last != 0x2E
        else { return false }
        return bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x2F }
    }

    /// The longest prefix of `text` (whole characters) that fits in `bytes` UTF-8 bytes.
    package static func truncated(_ text: String, toBytes bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var result = ""
        var count = 0
        for character in text {
            let size = String(character).utf8.count
            if count + size > bytes { break }
            result.append(character)
            count += size
        }
        return result
    }
}
