import Foundation

/// A validated album title: kept as typed (trimmed of surrounding whitespace), compared after
/// Unicode NFC normalization.
package struct AlbumTitle: Sendable, Hashable, CustomStringConvertible {
    /// The title as typed, without leading or trailing whitespace.
    package let text: String
    /// The comparison key: `text` in Unicode NFC.
    package let key: String

    /// The longest title, in UTF-8 bytes.
    package static let maximumByteCount = 255

    /// Validates `raw`.
    ///
    /// - Throws: `AlbumError` `.invalidAlbumTitle` when the title is empty after trimming, contains
    ///   control characters, or is longer than 255 UTF-8 bytes.
    package init(_ raw: String) throws(AlbumError) {
        let trimmed = raw.trimmed()
        guard !trimmed.isEmpty else {
            throw AlbumError(
                .invalidAlbumTitle, "The album title \"\(raw)\" is empty; give the album a name.",
                albumTitle: raw)
        }
        if let bad = trimmed.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            throw AlbumError(
                .invalidAlbumTitle,
                "The album title contains the control character U+\(String(repeating: "0", count: max(0, 4 - String(bad.value, radix: 16).count)) + String(bad.value, radix: 16, uppercase: true)); remove it.",
                albumTitle: raw)
        }
        let normalized = trimmed.nfc
        guard normalized.utf8.count <= Self.maximumByteCount else {
            throw AlbumError(
                .invalidAlbumTitle,
                "The album title is \(normalized.utf8.count) bytes long; the limit is \(Self.maximumByteCount) UTF-8 bytes.",
                albumTitle: raw)
        }
        text = trimmed
        key = normalized
    }

    /// The comparison key of a title already validated (as a journal records it).
    package static func key(of text: String) -> String { text.trimmed().nfc }

    package static func == (a: AlbumTitle, b: AlbumTitle) -> Bool { a.key == b.key }
    package func hash(into hasher: inout Hasher) { hasher.combine(key) }
    package var description: String { text }
}
