/// A library kind that summarises its albums in one query (the catalog); others are summarised
/// from each album's listing.
///
/// ```swift
/// let summaries = try await summarizing.albumSummaries()
/// ```
package protocol AlbumSummarizing: AlbumBrowsing {
    /// Every album's summary (an empty album may be left out: it is summarised as empty).
    func albumSummaries() async throws -> [AlbumSummary]
}
