import Foundation

extension PhotoLibrary {
    /// A small image of the asset with identifier `id`, for a grid or a list; `nil` when the library
    /// has none to give.
    ///
    /// What comes back depends on the library:
    /// - **Photos** decodes the asset (a photo, or a video's frame) and scales it to fit in
    ///   `maxPixelSize` × `maxPixelSize`, keeping its aspect ratio (`PHImageManager`, downloading
    ///   from iCloud when needed), encoded as JPEG; ``AssetThumbnail/isEmbedded`` is `false`.
    /// - **The catalog, folder, shared and in-memory libraries** decode nothing (on Linux no image
    ///   decoder is linked): they return the JPEG thumbnail stored inside the file — the EXIF
    ///   thumbnail of a JPEG, TIFF, DNG or TIFF-based raw file — as it is stored, whatever its size
    ///   (commonly 160 × 120, so it may be larger or smaller than `maxPixelSize`), and `nil` when the
    ///   file keeps none: PNG, GIF, WebP, BMP, HEIF/HEIC (whose stored thumbnail is HEVC-coded) and
    ///   videos, or a JPEG written without one. Only the bytes that hold the thumbnail are read (a
    ///   shared library asks its object store for those ranges alone).
    ///
    /// ```swift
    /// let page = try await library.assets(orderedBy: .dateAdded, matching: .photos, limit: 50)
    /// for asset in page.assets {
    ///     if let thumbnail = try await library.thumbnail(forAssetWithID: asset.id, maxPixelSize: 256) {
    ///         print(asset.id, thumbnail.pixelWidth, "×", thumbnail.pixelHeight, thumbnail.data.count, "bytes")
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - id: the asset's identifier, as listings give it.
    ///   - maxPixelSize: the longest side wanted, in pixels (1 or more); Photos scales to it, the
    ///     other libraries return the stored thumbnail at its own size.
    /// - Throws: `.assetNotFound`; `.invalidArgument` for a size below 1; `.accessDenied` (Photos
    ///   without read access); `.fileUnreadable` when the asset's file cannot be read.
    public func thumbnail(forAssetWithID id: String, maxPixelSize: Int = 256) async throws -> AssetThumbnail? {
        try await Self.mapping {
            guard maxPixelSize >= 1 else {
                throw AlbumError(.invalidArgument, "The thumbnail size must be 1 pixel or more, not \(maxPixelSize).")
            }
            let backend = try await backend
            if let rendering = backend as? any PreviewRendering {
                return try await rendering.thumbnail(ofAssetWithID: id, maxPixelSize: maxPixelSize)
            }
            return try await (backend as? any OriginalReading)?.embeddedThumbnail(ofAssetWithID: id)
        }
    }

    /// The photo of the asset with identifier `id` at full size, for a detail screen or sharing;
    /// `nil` when the library has none to give (a video in a library that decodes nothing).
    ///
    /// - **Photos** renders the asset at its full size (`PHImageManager`, oriented, edits applied,
    ///   downloading from iCloud when needed) and encodes it as JPEG (``AssetImage/isOriginal`` is
    ///   `false`).
    /// - **The catalog, folder, shared and in-memory libraries** give the original file of a photo
    ///   byte for byte, in its own format (JPEG, HEIC, PNG, a raw file…), with its pixel size as
    ///   displayed; a video gives `nil` (no image decoder is linked on Linux).
    ///
    /// ```swift
    /// if let image = try await library.fullSizeImage(forAssetWithID: asset.id) {
    ///     try image.data.write(to: URL(fileURLWithPath: "/tmp/photo").appendingPathExtension(image.format.rawValue))
    /// }
    /// ```
    /// - Throws: `.assetNotFound`; `.accessDenied` (Photos without read access); `.fileUnreadable`
    ///   when the asset's file cannot be read or Photos cannot render it.
    public func fullSizeImage(forAssetWithID id: String) async throws -> AssetImage? {
        try await Self.mapping {
            let backend = try await backend
            if let rendering = backend as? any PreviewRendering {
                return try await rendering.fullSizeImage(ofAssetWithID: id)
            }
            return try await (backend as? any OriginalReading)?.originalImage(ofAssetWithID: id)
        }
    }
}
