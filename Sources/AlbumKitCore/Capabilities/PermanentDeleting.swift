/// A library that can also delete assets for good, past its Trash or recently deleted (catalog
/// and folder libraries).
///
/// ```swift
/// let deleting = try await library.capability((any PermanentDeleting).self, orThrow: .recentlyDeletedNotSupported)
/// _ = try await deleting.deleteAssetsPermanently([assetID])
/// ```
package protocol PermanentDeleting: AssetDeleting {
    /// Deletes assets for good (recently deleted ones too).
    func deleteAssetsPermanently(_ ids: [String]) async throws -> [AssetDeletion]
}
