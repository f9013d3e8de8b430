/// A library that keeps its originals outside the file system (a shared library's object store)
/// and copies them into a file on request, for export and copying between libraries.
///
/// ```swift
/// if let store = backend as? any OriginalDownloading { _ = try store.copyOriginal(of: asset, into: file) }
/// ```
package protocol OriginalDownloading: LibraryBackend {
    /// Writes the original of `asset` into `file`, checking its SHA-256 as it arrives; returns
    /// `false` when the library has no such copy to give (the asset's original is an
    /// `AssetInfo.fileURL`). Runs on a blocking thread.
    func copyOriginal(of asset: AssetInfo, into file: FileSystem.Descriptor) throws -> Bool

    /// As ``copyOriginal(of:into:)``, for one of an asset's companions (``AssetInfo/companions``
    /// without a file URL).
    func copyCompanion(_ companion: AssetCompanion, into file: FileSystem.Descriptor) throws -> Bool
}
