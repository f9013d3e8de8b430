/// What to do when the photo library lets the app add photos but not use albums
/// (PhotoKit's add-only or limited access).
///
/// ```swift
/// let album = library.album(titled: "Trips", accessPolicy: .saveToLibraryWhenAlbumUnavailable)
/// ```
public enum AlbumAccessPolicy: Sendable, Hashable {
    /// Fail with `.accessDenied` before anything is saved (the default).
    case requireAlbum
    /// Save to the library and report the album as ``AlbumOutcome/skipped(_:)``.
    case saveToLibraryWhenAlbumUnavailable
}
