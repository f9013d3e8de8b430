import AlbumKitCore
import Foundation

/// Every album's count, size and capture dates in one pass over `album_asset` and the assets it
/// names (raw columns only: no asset's metadata is decoded).
extension CatalogBackend: AlbumSummarizing {
    package func albumSummaries() async throws -> [AlbumSummary] {
        try await Blocking.run {
            try self.withIndex("summarise the albums") { connection in
                try connection.index!.db.rows(
                    """
                    SELECT m.album_id, count(*), coalesce(sum(s.byte_size), 0), min(s.taken_key), max(s.taken_key)
                    FROM album_asset m JOIN asset s ON s.id = m.asset_id
                    WHERE s.state = 'ready' GROUP BY m.album_id
                    """
                ).compactMap { row in
                    guard let id = row.text(0) else { return nil }
                    return AlbumSummary(
                        albumID: id, count: Int(row.integer(1) ?? 0), byteSize: row.integer(2) ?? 0,
                        firstTaken: row.text(3), lastTaken: row.text(4))
                }
            }
        }
    }
}
