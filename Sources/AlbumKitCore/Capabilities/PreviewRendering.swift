/// A library that renders its own previews of an asset (Photos). Other kinds make them with libvips
/// from the original (``PreviewKeeping``, ``OriginalReading/renderPreview(ofAssetWithID:maxPixelSize:)``)
/// and give the original itself at full size (``OriginalReading/originalImage(ofAssetWithID:)``).
///
/// ```swift
/// let image = try await rendering.thumbnail(ofAssetWithID: id, maxPixelSize: 256)
/// ```
package protocol PreviewRendering: LibraryBackend {
    /// A small image of asset `id` at most about `maxPixelSize` on its longest side, or `nil`
    /// when the library has none.
    func thumbnail(ofAssetWithID id: String, maxPixelSize: Int) async throws -> AssetThumbnail?

    /// The photo of asset `id` at full size, or `nil` when the library has none to give.
    func fullSizeImage(ofAssetWithID id: String) async throws -> AssetImage?
}
