/// A library the user grants access to (Photos, and the in-memory library that plays it in
/// tests). AlbumKit's own libraries ask for nothing: ``PhotoLibrary`` reports them `.authorized`.
///
/// ```swift
/// let access = await controlled.requestAccess(for: .savingIntoAlbums)
/// ```
package protocol AccessControl: LibraryBackend {
    /// The access the app has at `level`, without prompting.
    func access(for level: PhotoLibraryAccessLevel) async -> PhotoLibraryAccess

    /// Prompts for `level` when the user was never asked; returns the access then.
    func requestAccess(for level: PhotoLibraryAccessLevel) async -> PhotoLibraryAccess

    /// The access at `level` now, read without waiting (a SwiftUI `body` asks it).
    func currentAccess(for level: PhotoLibraryAccessLevel) -> PhotoLibraryAccess
}
