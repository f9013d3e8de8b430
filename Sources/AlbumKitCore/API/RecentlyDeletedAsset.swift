import Foundation

/// An asset in a library's recently deleted: hidden from every listing, its file kept, until it
/// is restored or deleted for good.
///
/// ```swift
/// let old = try await library.recentlyDeletedAssets().filter { $0.deletedAt < cutoff }
/// ```
public struct RecentlyDeletedAsset: Sendable, Hashable {
    public let asset: AssetInfo
    public let deletedAt: Date
    /// The titles of the albums it was in, which ``PhotoLibrary/restoreAssets(withIDs:)`` puts it
    /// back into (empty when it was in none, or the library does not keep them).
    public var albumTitles: [String] = []

    public init(asset: AssetInfo, deletedAt: Date) {
        self.asset = asset
        self.deletedAt = deletedAt
    }
}
