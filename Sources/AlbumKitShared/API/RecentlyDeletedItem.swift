#if os(Linux)
    import Foundation

    /// An asset or album in a shared library's recently deleted: restorable until ``removedAfter``,
    /// when `album gc` removes it for good.
    ///
    /// ```swift
    /// for item in try await library.recentlyDeleted() where item.kind == .asset {
    ///     print(item.name ?? item.id, "until", item.removedAfter)
    /// }
    /// ```
    public struct RecentlyDeletedItem: Sendable, Hashable {
        /// What was deleted.
        public enum Kind: String, Sendable, Hashable {
            case asset, album
        }

        public let kind: Kind
        /// The asset's or album's identifier (what ``PhotoLibrary/restoreDeleted(withIDs:)`` takes).
        public let id: String
        /// The asset's original file name, or the album's title.
        public let name: String?
        /// When it was deleted (the database server's clock).
        public let deletedAt: Date
        /// When the retention ends: from then on `gc` removes it and its original.
        public let removedAfter: Date
        /// An asset's size in bytes; an album's `nil`.
        public let byteSize: Int64?
        /// An asset: the titles of the albums it goes back to. An album: empty.
        public let albums: [String]
        /// An album: how many photos and videos it holds; an asset: `nil`.
        public let count: Int?
    }
#endif
