import Foundation

/// What ``PhotoLibrary/deleteAlbum(titled:force:permanently:)`` deleted.
///
/// ```swift
/// let deleted = try await library.deleteAlbum(titled: "Trips", force: true)
/// for album in deleted.albums { print(album.title, album.count) }   // "Trips 3", "Trips/2024 2"
/// ```
public struct DeletedAlbum: Sendable, Hashable {
    /// The deleted album's identifier.
    public let id: String
    /// Its title.
    public let title: String
    /// Where its folder now is in the Trash (folder libraries); `nil` when it was deleted
    /// permanently or the library keeps no files for albums.
    public let trashURL: URL?
    /// The albums that went: the album itself, then the albums nested inside its folder, with
    /// their photo and video counts (empty for libraries without nested albums).
    public let albums: [AlbumInfo]
}
