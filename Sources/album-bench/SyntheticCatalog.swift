import AlbumKitCatalog
import AlbumKitCore
import Foundation

/// Fills a catalog library in bulk (records appended to its journal, as other processes' saves)
/// and runs the scan-every-album algorithm against the index AlbumKit keeps of it.
///
/// Not `Sendable` (it wraps a `Database`); each scenario keeps it on its own task.
final class SyntheticCatalog {
    let database: Database
    let library: URL

    /// Opens `library`'s catalog (the library must already exist).
    init(library: URL) throws {
        self.library = library
        database = try Database(path: library.appendingPathComponent("catalog.sqlite").path, create: false)
        database.setBusyTimeout(milliseconds: 60_000)
        try database.execute("PRAGMA foreign_keys = ON")
    }

    /// Adds `count` albums titled "Synthetic album N", all older than any album created after this:
    /// records appended to the library's journal, as another process's changes (the library applies
    /// them at its next read).
    func addAlbums(_ count: Int) throws {
        guard count > 0 else { return }
        let now = Date().timeIntervalSince1970
        try LibraryJournal(libraryRoot: library.path).append(
            (0..<count).map {
                .createAlbum(
                    id: "synthetic-album-\($0)", title: "Synthetic album \($0)",
                    createdAt: now - 100_000 + Double($0) * 0.001)
            })
    }

    /// Adds `count` saved assets (random ids, as AlbumKit makes), each a member of one of 100
    /// synthetic albums or of `albumID`, as journal records — what any number of earlier saves
    /// would have written. Each asset's file exists as a hard link to one of `files` (no inode of
    /// its own: removing them frees no inodes, which would slow ext4's allocator for the rows
    /// after), so the library holds a folder of `count` photos. Their bytes do not match the
    /// records: the bench never verifies these libraries.
    func addAssets(_ count: Int, alsoIn albumID: String, linking files: [URL]) throws {
        guard count > 0 else { return }
        let folder = library.appendingPathComponent("originals/synthetic")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for n in 1...count {
            // ext4 allows 65 000 names per inode: spread the links over the files.
            guard link(files[n % files.count].path, folder.path + "/\(n).jpg") == 0 || errno == EEXIST else {
                throw BenchFailure("cannot link \(folder.path)/\(n).jpg: \(String(cString: strerror(errno)))")
            }
        }
        try addAlbums(100)
        try Self.appendSaves(count, to: library, albums: (0..<100).map { "synthetic-album-\($0)" } + [albumID])
    }

    /// Appends `count` save records (files `originals/synthetic/N.jpg`) and their album memberships,
    /// spread over `albums`, in chunks of 10 000.
    static func appendSaves(_ count: Int, to library: URL, albums: [String], firstNumber: Int = 1) throws {
        let journal = LibraryJournal(libraryRoot: library.path)
        let now = Date().timeIntervalSince1970 - 100_000
        let metadata = #"{"format":"jpeg","height":64,"kind":"photo","width":64}"#
        var start = firstNumber
        while start < firstNumber + count {
            let end = min(start + 10_000, firstNumber + count)
            var changes: [CatalogChange] = []
            var members: [String: [String]] = [:]
            for n in start..<end {
                let id = UUID().uuidString.lowercased()
                changes.append(
                    .save(
                        .init(
                            id: id, path: "originals/synthetic/\(n).jpg", originalName: "IMG_\(n).JPG",
                            byteSize: 200_000,
                            sha256: String(format: "%064x", n), kind: "photo", format: "jpeg",
                            addedAt: now + Double(n) * 0.001, metadata: metadata)))
                members[albums[n % albums.count], default: []].append(id)
            }
            for (album, ids) in members.sorted(by: { $0.key < $1.key }) {
                changes.append(.addToAlbum(album: album, assets: ids, at: now))
            }
            try journal.append(changes)
            start = end
        }
    }

    // MARK: The scan-every-album algorithm

    /// The scanning lookup: enumerate every album and compare titles (no index, no remembered id).
    func scanForAlbum(titled title: String) throws -> String? {
        var found: String?
        for row in try database.rows("SELECT id, title FROM album") where found == nil && row.text(1) == title {
            found = row.text(0)
        }
        return found
    }

    /// The scanning design's second transaction: add an asset already in the library to the album.
    func addInSecondTransaction(asset assetID: String, toAlbum albumID: String) throws {
        _ = try database.immediateTransaction {
            try database.run(
                """
                INSERT INTO album_asset (album_id, asset_id, position, added_at, taken_key)
                VALUES (?1, ?2, (SELECT coalesce(max(position), 0) + 1 FROM album_asset WHERE album_id = ?1), ?3,
                    (SELECT taken_key FROM asset WHERE id = ?2))
                """, [.text(albumID), .text(assetID), .real(Date().timeIntervalSince1970)])
        }
    }
}
