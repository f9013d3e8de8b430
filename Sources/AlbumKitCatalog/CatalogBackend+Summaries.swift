import AlbumKitCore
import Foundation

/// Every album's count, size and capture dates from what the index keeps per album: the kept
/// count and size, and two seeks per album in the memberships' capture keys
/// (`album_asset_taken`) for the first and last taken. Time in the number of albums, not of
/// photos.
extension CatalogBackend: AlbumSummarizing {
    package func albumSummaries() async throws -> [AlbumSummary] {
        try await Blocking.run {
            try self.withIndex("summarise the albums") { connection in
                try connection.index!.db.rows(Self.albumSummariesSQL).compactMap { row in
                    guard let id = row.text(0) else { return nil }
                    return AlbumSummary(
                        albumID: id, count: Int(row.integer(1) ?? 0), byteSize: row.integer(2) ?? 0,
                        firstTaken: row.text(3), lastTaken: row.text(4))
                }
            }
        }
    }

    /// Each album's kept count and size, and the capture keys of its first and last photo taken
    /// that is not recently deleted.
    static let albumSummariesSQL = """
        SELECT a.id, a.ready_count, a.ready_bytes,
            (SELECT m.taken_key FROM album_asset m JOIN asset s ON s.id = m.asset_id
                WHERE m.album_id = a.id AND s.state = 'ready' ORDER BY m.taken_key LIMIT 1),
            (SELECT m.taken_key FROM album_asset m JOIN asset s ON s.id = m.asset_id
                WHERE m.album_id = a.id AND s.state = 'ready' ORDER BY m.taken_key DESC LIMIT 1)
        FROM album a
        """
}
