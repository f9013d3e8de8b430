import AlbumKitCore

/// A library that tells what opening it did that its user should hear of (a catalog rebuilt from
/// its journal, a library converted from the previous release): ``PhotoLibrary/notices()``.
///
/// ```swift
/// extension CatalogBackend: OpeningNotices {}
/// ```
package protocol OpeningNotices: LibraryBackend {
    /// The notices opening left, each given once: a second call does not repeat them.
    func takeNotices() -> [String]
}
