/// What ``PhotoLibrary/repair(catalogAt:)`` restored, from where, and what it could not.
///
/// ```swift
/// let report = try await PhotoLibrary.repair(catalogAt: url)
/// print(report.restoredAssets, report.notRestored)
/// ```
public struct RepairReport: Sendable, Hashable {
    /// Whether the catalog was healthy (then only files no asset named were added).
    public let wasHealthy: Bool
    /// Assets in the repaired catalog.
    public let restoredAssets: Int
    /// Albums in the repaired catalog.
    public let restoredAlbums: Int
    /// Where the assets came from: `"catalog"` (what survived of it), `"snapshot"`, `"journal"`,
    /// `"originals"` (files no record named, added without an album or original name) → count.
    public let sources: [String: Int]
    /// Saves or changes that could not be restored, one sentence each.
    public let notRestored: [String]
    /// Where the damaged catalog was moved (kept, never deleted), if it was replaced.
    public let damagedCatalogKeptAt: String?
    /// Records appended to the library's journal because it lacked saves or albums the catalog
    /// holds (the journal was removed, cut short or overwritten, or files were just adopted), so
    /// that a later repair can rebuild them.
    public var journalRecordsAdded = 0

    /// Creates a report.
    public init(
        wasHealthy: Bool, restoredAssets: Int, restoredAlbums: Int, sources: [String: Int], notRestored: [String],
        damagedCatalogKeptAt: String?
    ) {
        self.wasHealthy = wasHealthy
        self.restoredAssets = restoredAssets
        self.restoredAlbums = restoredAlbums
        self.sources = sources
        self.notRestored = notRestored
        self.damagedCatalogKeptAt = damagedCatalogKeptAt
    }
}
