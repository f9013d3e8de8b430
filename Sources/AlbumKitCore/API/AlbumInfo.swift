import Foundation

/// An album as listed by ``PhotoLibrary/albums()``.
///
/// ```swift
/// for info in try await library.albums() { print(info.title, info.count) }
/// ```
public struct AlbumInfo: Sendable, Hashable, Codable {
    /// The album's stable identifier.
    public let id: String
    /// The title as typed.
    public let title: String
    /// The number of assets in the album.
    public let count: Int
    /// When the album was created, if known.
    public let createdAt: Date?

    /// Creates an album description.
    public init(id: String, title: String, count: Int, createdAt: Date? = nil) {
        self.id = id
        self.title = title
        self.count = count
        self.createdAt = createdAt
    }
}
