import AlbumKitPreviews

/// A library that keeps the thumbnails and previews it makes (the catalog inside its folder, the
/// shared library in its object store, the folder library in the desktop's thumbnail cache): a
/// cache, never the truth, rebuilt when missing or damaged.
///
/// ```swift
/// let kept = try await keeping.preview(ofAssetWithID: id, size: .thumbnail)   // (preview, wasKept) or nil
/// ```
package protocol PreviewKeeping: LibraryBackend {
    /// Asset `id`'s derivative at `size`: the one kept when it is there and decodes, else made from
    /// the original and kept (`wasKept` false). A kept one that is damaged or not a picture is made
    /// again, never trusted (a video's is its poster frame). `nil` for an asset AlbumKit cannot
    /// picture.
    ///
    /// - Throws: `.assetNotFound`; `.notSupported` without libvips; `.corruptMedia` naming the file
    ///   when the original does not decode.
    func preview(ofAssetWithID id: String, size: PreviewSize) async throws -> (preview: RenderedPreview, wasKept: Bool)?

    /// The sizes this library keeps (a folder library's cache has no preview size).
    var keptSizes: [PreviewSize] { get }
}
