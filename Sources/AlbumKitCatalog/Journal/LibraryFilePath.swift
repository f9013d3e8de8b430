import AlbumKitCore
import Foundation

/// The paths a catalog library's records and lists may name: what it believes of a path read from
/// its own files, checked before the path is used for anything.
///
/// A record (a save, a companion, a file left by a purge) names a file as `originals/FOLDER/NAME`:
/// three components below the library's folder, none of them empty, `.`, `..` or hidden (a leading
/// `.` is a staging name), and no NUL byte. Anything else — `../victim/victim.txt`, an absolute
/// path, `originals/ab/cd/x.jpg` — makes the record a damaged record: reported, never followed.
/// A publishing list (`owners/TOKEN.publishing`) may name only what this library's saves name
/// their files: `originals/XX/UUID.EXT` or `originals/XX/UUID-N.EXT` (``isSavedName(_:)``).
///
/// ```swift
/// LibraryFilePath.isOriginal("originals/3f/IMG_0001.JPG")     // true (a file `repair` adopted)
/// LibraryFilePath.isOriginal("originals/../../victim.txt")    // false
/// LibraryFilePath.isSavedName("originals/3f/9f2c41d0-7a1b-43e8-9d2e-5b7c0a1f9e64-1.xmp")   // true
/// ```
enum LibraryFilePath {
    /// Whether `path` is `originals/FOLDER/NAME` (see the type's description).
    static func isOriginal(_ path: String) -> Bool {
        guard let parts = RemovalGate.components(of: path), parts.count == 3, parts[0] == "originals" else {
            return false
        }
        return !parts[1].hasPrefix(".") && !parts[2].hasPrefix(".")
    }

    /// Whether `path` is a name a save of this library gives its files: `originals/XX/UUID.EXT` (the
    /// asset's file) or `originals/XX/UUID-N.EXT` (its N-th companion), `XX` two lowercase hex
    /// digits, `UUID` lowercase, `EXT` lowercase letters and digits.
    static func isSavedName(_ path: String) -> Bool {
        guard isOriginal(path) else { return false }
        let parts = path.split(separator: "/")
        let folder = parts[1].utf8
        guard folder.count == 2, folder.allSatisfy(isLowercaseHex) else { return false }
        let name = parts[2].utf8
        guard name.count > 37 else { return false }
        let id = name.prefix(36)
        for (offset, byte) in id.enumerated() {
            let isDash = offset == 8 || offset == 13 || offset == 18 || offset == 23
            guard isDash ? byte == UInt8(ascii: "-") : isLowercaseHex(byte) else { return false }
        }
        var rest = name.dropFirst(36)
        if rest.first == UInt8(ascii: "-") {
            let digits = rest.dropFirst().prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            guard !digits.isEmpty, digits.count <= 6 else { return false }
            rest = rest.dropFirst(1 + digits.count)
        }
        guard rest.first == UInt8(ascii: "."), rest.count > 1, rest.count <= 9 else { return false }
        return rest.dropFirst().allSatisfy {
            isLowercaseHex($0) || ($0 >= UInt8(ascii: "g") && $0 <= UInt8(ascii: "z"))
        }
    }

    private static func isLowercaseHex(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
    }
}
