import AlbumKitCatalog
import AlbumKitCore
import Foundation

/// A second connection to a catalog library's SQLite file, used to fill it in bulk and to run the
/// scan-every-album algorithm against the same data AlbumKit sees.
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
        try database.execute("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
    }

    /// Adds `count` albums titled "Synthetic album N", all older than any album created after this.
    func addAlbums(_ count: Int) throws {
        guard count > 0 else { return }
        let now = Date().timeIntervalSince1970
        _ = try database.immediateTransaction {
            try database.run(
                """
                WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ? - 1)
                INSERT INTO album (id, title, title_key, created_at)
                SELECT printf('synthetic-album-%d', n), printf('Synthetic album %d', n),
                       printf('Synthetic album %d', n), ? - 100000 + n * 0.001
                FROM seq
                """, [.integer(Int64(count)), .real(now)])
        }
    }

    /// Adds `count` ready assets (random UUID-like ids, as AlbumKit makes) in one transaction, each
    /// a member of one of 100 synthetic albums or of `albumID`, so the indexes are as big as a real
    /// library's. Each row's file exists as a hard link to one of `files` (no inode of its own: removing
    /// them frees no inodes, which would slow ext4's allocator for the rows after), so opening the
    /// library sees a folder of `count` photos. Their bytes do not match the rows: the bench never
    /// verifies these libraries.
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
        let now = Date().timeIntervalSince1970 - 100_000
        try database.immediateTransaction {
            try database.run(
                """
                WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
                INSERT INTO asset (id, state, kind, format, path, original_name, byte_size, sha256, added_at)
                SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2)
                             || '-a' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
                       'ready', 'photo', 'jpeg', printf('originals/synthetic/%d.jpg', n), printf('IMG_%d.JPG', n),
                       200000, lower(hex(randomblob(32))), ? + n * 0.001
                FROM seq
                """, [.integer(Int64(count)), .real(now)])
            try database.run(
                """
                INSERT INTO album_asset (album_id, asset_id, position, added_at)
                SELECT CASE WHEN rowid % 101 = 100 THEN ? ELSE printf('synthetic-album-%d', rowid % 101) END,
                       id, rowid + 1000, added_at
                FROM asset WHERE path LIKE 'originals/synthetic/%'
                """, [.text(albumID)])
        }
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
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
                INSERT INTO album_asset (album_id, asset_id, position, added_at)
                VALUES (?1, ?2, (SELECT coalesce(max(position), 0) + 1 FROM album_asset WHERE album_id = ?1), ?3)
                """, [.text(albumID), .text(assetID), .real(Date().timeIntervalSince1970)])
        }
    }
}
