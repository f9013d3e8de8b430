import Foundation

/// How AlbumKit compares original file names when it looks for a photo's earlier version in an
/// album: the letters A–Z match in either case, every other character as it is (`IMG_0001.JPG` and
/// `img_0001.jpg` are one name; `Été.jpg` and `été.jpg` are two). It is the fold every store can
/// seek in an index: SQLite's `NOCASE` and PostgreSQL's `lower()` under the `C` collation fold
/// exactly A–Z, so a lookup by name is a seek in every kind, never a read of the whole album.
///
/// ```swift
/// OriginalNameKey.of("IMG_0001.JPG") == OriginalNameKey.of("img_0001.jpg")  // true
/// ```
package enum OriginalNameKey {
    /// At most this many names go to a store in one query (a longer list is asked in parts).
    package static let chunkSize = 500

    /// `name` composed (NFC), then A–Z lowered, everything else as it is. Composed first: the
    /// decomposed `É` is an `E` and an accent, whose `E` must not be lowered.
    package static func of(_ name: String) -> String {
        String(
            decoding: name.precomposedStringWithCanonicalMapping.utf8.map {
                (0x41...0x5A).contains($0) ? $0 + 0x20 : $0
            },
            as: UTF8.self)
    }

    /// The keys a store is asked for, for `names`: each name's key (composed) and its decomposed
    /// form (a name written on macOS is often decomposed, and a store compares bytes; folding A–Z
    /// there may match more, which the caller filters out), without repeats, sorted, in parts of
    /// at most ``chunkSize``.
    package static func queryParts(for names: some Sequence<String>) -> [[String]] {
        // Kept as bytes: Swift's strings call the composed and decomposed forms equal.
        var keys = Set<[UInt8]>()
        for name in names {
            let key = of(name)
            for form in [key, key.decomposedStringWithCanonicalMapping] {
                keys.insert(Array(form.utf8))
            }
        }
        // Sorted by bytes: the same names make the same queries.
        let sorted = keys.sorted { $0.lexicographicallyPrecedes($1) }.map { String(decoding: $0, as: UTF8.self) }
        return stride(from: 0, to: sorted.count, by: chunkSize).map {
            Array(sorted[$0..<min(sorted.count, $0 + chunkSize)])
        }
    }
}
