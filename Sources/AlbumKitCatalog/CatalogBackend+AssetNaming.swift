import AlbumKitCore
import Foundation

/// The assets a reference on a command line may name, found by seeks in the index: the id's range
/// in the primary key, the original name in `asset_by_name`, the file's name in the paths' index
/// once per folder of `originals/` (a few hundred at most, however large the library).
extension CatalogBackend: AssetNaming {
    package func assets(possiblyNamedBy reference: String, inAlbumWithID albumID: String?, limit: Int) async throws
        -> [AssetInfo]
    {
        guard !reference.isEmpty, limit >= 1 else { return [] }
        let album: SQLValue = albumID.map { .text($0) } ?? .null
        return try await Blocking.run {
            try self.withIndex("look for the assets named \"\(reference)\"") { connection in
                let db = connection.index!.db
                var rows: [Row] = []
                // The ids from `reference` up to the last string that starts with it (U+10FFFF
                // sorts after every character that can follow), or the id itself when it is too
                // short to be the start of one.
                let upper: SQLValue = reference.count >= 4 ? .text(reference + "\u{10FFFF}") : .null
                rows += try db.rows(Self.idRangeSQL, [.text(reference), upper, album, .integer(Int64(limit))])
                // Ids named: file names are not looked at (the reference names by its first rule
                // that names any asset).
                guard rows.isEmpty else { return try rows.map(self.assetInfo) }
                rows += try db.rows(Self.originalNameSQL, [.text(reference), album, .integer(Int64(limit))])
                // Originally so named (A–Z as given): the names in the library are not looked at.
                guard !rows.contains(where: { $0.text(1) == reference }) else { return try rows.map(self.assetInfo) }
                if !reference.contains("/") {
                    rows += try Self.rows(storedAs: reference, in: db, album: album, limit: limit)
                }
                var seen = Set<String>()
                return try rows.map(self.assetInfo).filter { seen.insert($0.id).inserted }.prefix(limit).map { $0 }
            }
        }
    }

    /// The assets whose file in the library is named `name`: each folder of `originals/` found by a
    /// seek past the one before it, then `folder/name` looked up.
    private static func rows(storedAs name: String, in db: Database, album: SQLValue, limit: Int) throws -> [Row] {
        let top = "originals/"
        var rows: [Row] = []
        var cursor = top
        while rows.count < limit, let path = try db.row(nextPathSQL, [.text(cursor)])?.text(0) {
            let rest = path.dropFirst(top.count)
            guard let slash = rest.firstIndex(of: "/") else {
                // A file directly in `originals/` (the index never names one): step past it.
                cursor = path + "\u{1}"
                continue
            }
            let folder = top + rest[..<slash] + "/"
            rows += try db.rows(storedPathSQL, [.text(folder + name), album])
            cursor = end(ofPrefix: folder)
        }
        return rows
    }

    /// The columns ``assetInfo(_:)`` reads, and a condition that keeps the assets of album `?N`
    /// (every asset when it is `NULL`).
    private static func selectAssets(where condition: String, album: Int) -> String {
        """
        SELECT s.id, s.original_name, s.kind, s.byte_size, s.added_at, s.sha256, s.path, s.metadata, s.favorite,
            s.companions
        FROM asset s
        WHERE \(condition) AND s.state = 'ready'
            AND (?\(album) IS NULL OR EXISTS (SELECT 1 FROM album_asset m WHERE m.album_id = ?\(album) AND m.asset_id = s.id))
        """
    }

    /// The ids in `[?1, ?2)`, or `?1` alone when `?2` is `NULL`: a range of the primary key.
    static let idRangeSQL =
        selectAssets(where: "s.id >= ?1 AND s.id < coalesce(?2, ?1 || char(1))", album: 3) + " LIMIT ?4"

    /// The assets originally named `?1`, A–Z in either case (the caller keeps the exact ones): a
    /// seek in `asset_by_name`.
    static let originalNameSQL = selectAssets(where: "s.original_name = ?1 COLLATE NOCASE", album: 2) + " LIMIT ?3"

    /// The asset whose file is `?1`: a seek in the paths' index.
    static let storedPathSQL = selectAssets(where: "s.path = ?1", album: 2)

    /// The first path at or after `?1` under `originals/`.
    static let nextPathSQL = "SELECT path FROM asset WHERE path >= ?1 AND path < 'originals0' ORDER BY path LIMIT 1"
}
