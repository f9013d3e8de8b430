/// What an app asks the photo library for (PhotoKit's `PHAccessLevel`).
///
/// ```swift
/// let access = try await PhotoLibrary.system.requestAccess(for: .addOnly)
/// ```
public enum PhotoLibraryAccessLevel: String, Sendable, Hashable, CaseIterable, Codable {
    /// Adding photos and videos to the library, without seeing it (Info.plist:
    /// `NSPhotoLibraryAddUsageDescription`). Enough for ``PhotoLibrary/save(_:)``; not for albums.
    case addOnly
    /// Reading and changing the library, albums included (Info.plist: `NSPhotoLibraryUsageDescription`).
    /// Saving into an album needs it.
    case readWrite

    /// The access that saving into an album needs (read-write: the app must see the album).
    ///
    /// ```swift
    /// let access = try await library.requestAccess(for: .savingIntoAlbums)
    /// ```
    public static var savingIntoAlbums: PhotoLibraryAccessLevel { .readWrite }

    /// The access that adding photos to the library, outside any album, needs (add-only).
    ///
    /// ```swift
    /// if library.currentAccess(for: .addingOnly).isGranted { try await library.save(.file(url)) }
    /// ```
    public static var addingOnly: PhotoLibraryAccessLevel { .addOnly }
}
