/// A library whose albums can be created, renamed and deleted, and whose assets can be added to
/// and removed from them (every kind AlbumKit has).
///
/// ```swift
/// let editing = try await library.capability((any AlbumEditing).self, for: "change its albums")
/// let made = try await editing.createAlbum(titled: try AlbumTitle("Trips"))
/// ```
package protocol AlbumEditing: AlbumBrowsing {
    /// Creates an album with `title` unless one resolves; returns its id and outcome.
    func createAlbum(titled title: AlbumTitle) async throws -> (id: String, outcome: AlbumOutcome)

    /// Renames an album.
    func renameAlbum(id: String, to title: AlbumTitle) async throws

    /// Deletes an album; `force` allows deleting a folder album's files.
    func deleteAlbum(id: String, force: Bool) async throws

    /// Deletes an album; `permanently` skips the Trash of a folder library. Returns where the
    /// album's files went and the albums inside it that went with it. Default: ``deleteAlbum(id:force:)``
    /// alone, for libraries that never delete files with an album.
    func deleteAlbum(id: String, force: Bool, permanently: Bool) async throws -> AlbumDeletionReceipt

    /// Adds existing assets to an existing album, after its current assets; an asset already in
    /// it stays where it is. All or nothing. Returns each asset's id in the album, in order: the
    /// same ids, except in a folder library, where the album folder gets its own file (and id).
    ///
    /// - Throws: `.albumNotFound`; `.assetNotFound` naming the first unknown id (nothing changed).
    func addAssets(_ ids: [String], toAlbumWithID albumID: String) async throws -> [String]

    /// Removes assets from an album; they stay in the library (a folder library moves a file that
    /// is in no other album to its top folder). All or nothing.
    ///
    /// - Throws: `.albumNotFound`; `.assetNotFound` for an id that is not in the album (nothing changed).
    func removeAssets(_ ids: [String], fromAlbumWithID albumID: String) async throws
}

extension AlbumEditing {
    /// Libraries that never delete files (a catalog keeps the assets, Photos has its own
    /// "Recently Deleted") delete the album alone.
    package func deleteAlbum(id: String, force: Bool, permanently: Bool) async throws -> AlbumDeletionReceipt {
        try await deleteAlbum(id: id, force: force)
        return AlbumDeletionReceipt()
    }
}

/// What deleting an album moved.
package struct AlbumDeletionReceipt: Sendable {
    /// Where the album's folder went in the Trash; `nil` when no files moved or they were deleted
    /// permanently.
    package var trashPath: String?
    /// The albums that went (the album itself first, then those inside it).
    package var albums: [AlbumInfo]

    package init(trashPath: String? = nil, albums: [AlbumInfo] = []) {
        self.trashPath = trashPath
        self.albums = albums
    }
}
