import Foundation

/// A library that keeps what was deleted for a while, to restore or purge (the catalog). A folder
/// library uses the desktop Trash instead, Photos its own "Recently Deleted" album; a shared
/// library has its own API (`SharedRecentlyDeleted`).
///
/// ```swift
/// let kept = try await library.capability((any RecentlyDeletedKeeping).self, orThrow: .recentlyDeletedNotSupported)
/// try await kept.restoreAssets(try await kept.recentlyDeletedAssets().map(\.asset.id))
/// ```
package protocol RecentlyDeletedKeeping: PermanentDeleting {
    /// The recently deleted assets, most recently deleted first.
    func recentlyDeletedAssets() async throws -> [RecentlyDeletedAsset]

    /// Brings recently deleted assets back into their albums.
    func restoreAssets(_ ids: [String]) async throws

    /// Deletes for good what was deleted before `date`; how many.
    func purgeRecentlyDeleted(before date: Date) async throws -> Int
}
