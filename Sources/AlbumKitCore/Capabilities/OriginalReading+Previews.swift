import AlbumKitMedia
import AlbumKitPreviews

extension OriginalReading {
    /// Asset `id`'s picture fitted in `maxPixelSize`, made from its original now (nothing kept):
    /// the thumbnail of a library that keeps none (in memory, shared); a video's poster frame.
    ///
    /// ```swift
    /// let thumbnail = try await reading.renderPreview(ofAssetWithID: id, maxPixelSize: 256)
    /// ```
    package func renderPreview(ofAssetWithID id: String, maxPixelSize: Int) async throws -> RenderedPreview? {
        let made = try await readOriginal(ofAssetWithID: id) { source in
            let file = (source as? FileByteSource)?.file.path ?? "The original of asset \(id)"
            return try PreviewPipeline.render(source, maxPixelSize: maxPixelSize, file: file)
        }
        return made ?? nil
    }
}
