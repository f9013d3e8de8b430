/// What marks a file as an AlbumKit catalog, for the folder library, which must never take a
/// catalog library (or a folder inside one) for a folder of albums.
package enum CatalogFormat {
    /// `PRAGMA application_id` of every AlbumKit catalog: "ALBK".
    package static let applicationID: Int64 = 0x414C_424B

    /// Whether the file at `path` is an SQLite database whose header carries AlbumKit's
    /// application id (bytes 68–71, big-endian).
    package static func isCatalog(_ path: String) -> Bool {
        guard FileSystem.fileStatus(atPath: path)?.kind == .regular,
            // A probe: a file that cannot be read is not known to be a catalog (`false`).
            let (file, size) = try? FileSystem.openForReading(path),
            size >= 72
        else { return false }
        // A header that cannot be read is not known to be a catalog's either.
        guard let header = try? FileSystem.readAll(file, from: 0, size: 72), header.count == 72 else { return false }
        let id = header[68..<72].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        return header.starts(with: Array("SQLite format 3\u{0}".utf8)) && id == CatalogFormat.applicationID
    }

    /// Whether the folder at `path` is a catalog library: its catalog is AlbumKit's, or it holds
    /// a journal (this release's or the previous one's) beside `originals/`.
    package static func isCatalogLibrary(atPath path: String) -> Bool {
        if isCatalog(path + "/catalog.sqlite") { return true }
        let hasJournal = ["/journal/library.journal", "/journal/saves.jsonl"].contains {
            FileSystem.fileStatus(atPath: path + $0)?.kind == .regular
        }
        return hasJournal && FileSystem.fileStatus(atPath: path + "/originals")?.kind == .directory
    }
}
