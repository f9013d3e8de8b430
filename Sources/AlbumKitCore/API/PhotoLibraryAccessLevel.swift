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
}
