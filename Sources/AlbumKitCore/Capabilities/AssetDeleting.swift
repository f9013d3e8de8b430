/// A library that deletes single assets from itself and every album.
///
/// ```swift
/// let deleting = try await library.capability((any AssetDeleting).self, orThrow: .singleAssetsNotSupported)
/// let deleted = try await deleting.deleteAssets([assetID])
/// ```
package protocol AssetDeleting: LibraryBackend {
    /// Deletes assets from the library and every album. A catalog removes row and file so that a
    /// crash at any point leaves neither a file without its row nor a row without its file; a
    /// folder library moves the files to the Trash; Photos asks the user and keeps them in
    /// "Recently Deleted". All ids are checked before anything is deleted.
    ///
    /// - Throws: `.assetNotFound` naming the first unknown id (nothing deleted).
    func deleteAssets(_ ids: [String]) async throws -> [AssetDeletion]
}
