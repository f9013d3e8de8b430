/// What changed in a photo library since the previous change reported by
/// ``PhotoLibrary/changes(interval:)``: assets and albums inserted, removed or changed, by identifier.
///
/// An asset added to or removed from an album makes the album ``changedAlbumIDs``; an asset whose
/// description changed (favourite, date, location, a new original) is in ``changedAssetIDs``.
///
/// ```swift
/// for try await change in library.changes() {
///     if change.changedAlbumIDs.contains(albumID) || !change.removedAssetIDs.isEmpty { await reload() }
/// }
/// ```
public struct LibraryChange: Sendable, Hashable {
    /// Assets new in the library.
    public var insertedAssetIDs: [String]
    /// Assets gone from the library (deleted, or no longer visible to the app).
    public var removedAssetIDs: [String]
    /// Assets still there whose content or description changed.
    public var changedAssetIDs: [String]
    /// Albums new in the library.
    public var insertedAlbumIDs: [String]
    /// Albums gone.
    public var removedAlbumIDs: [String]
    /// Albums still there that were renamed or whose assets changed.
    public var changedAlbumIDs: [String]

    /// A change; every list defaults to empty.
    public init(
        insertedAssetIDs: [String] = [], removedAssetIDs: [String] = [], changedAssetIDs: [String] = [],
        insertedAlbumIDs: [String] = [], removedAlbumIDs: [String] = [], changedAlbumIDs: [String] = []
    ) {
        self.insertedAssetIDs = insertedAssetIDs
        self.removedAssetIDs = removedAssetIDs
        self.changedAssetIDs = changedAssetIDs
        self.insertedAlbumIDs = insertedAlbumIDs
        self.removedAlbumIDs = removedAlbumIDs
        self.changedAlbumIDs = changedAlbumIDs
    }

    /// Whether nothing changed (such changes are never reported).
    public var isEmpty: Bool {
        insertedAssetIDs.isEmpty && removedAssetIDs.isEmpty && changedAssetIDs.isEmpty && insertedAlbumIDs.isEmpty
            && removedAlbumIDs.isEmpty && changedAlbumIDs.isEmpty
    }
}
