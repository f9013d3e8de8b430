import Foundation

extension PhotoLibrary {
    /// Every album in brief, in the order of ``albums()``: how many photos and videos, their size,
    /// and when the first and the last were taken. A catalog answers from its index; other kinds read
    /// each album's listing.
    ///
    /// ```swift
    /// let summaries = try await library.albumSummaries()
    /// let bytes = summaries.reduce(0) { $0 + $1.byteSize }
    /// ```
    /// - Throws: what ``albums()`` throws.
    public func albumSummaries() async throws -> [AlbumSummary] {
        try await Self.mapping {
            let backend = try await albumBrowsing()
            let albums = try await backend.albums()
            if let summarizing = backend as? any AlbumSummarizing {
                let byID = Dictionary(
                    try await summarizing.albumSummaries().map { ($0.albumID, $0) },
                    uniquingKeysWith: { first, _ in first })
                return albums.map {
                    byID[$0.id] ?? AlbumSummary(albumID: $0.id, count: 0, byteSize: 0, firstTaken: nil, lastTaken: nil)
                }
            }
            var summaries: [AlbumSummary] = []
            for album in albums {
                summaries.append(
                    AlbumSummary(albumID: album.id, assets: try await backend.assets(inAlbumWithID: album.id)))
            }
            return summaries
        }
    }
}
