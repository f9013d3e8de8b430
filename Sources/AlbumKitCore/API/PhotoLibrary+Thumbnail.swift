import AlbumKitPreviews
import Foundation

extension PhotoLibrary {
    /// A small image of the asset with identifier `id`, for a grid or a list, fitted in
    /// `maxPixelSize` × `maxPixelSize` (aspect ratio kept, never enlarged) and encoded as JPEG;
    /// `nil` when the library has none to give.
    ///
    /// - **Photos** decodes the asset (a photo, or a video's frame) and scales it
    ///   (`PHImageManager`, downloading from iCloud when needed).
    /// - **The catalog, folder, shared and in-memory libraries** make it with libvips (Debian's
    ///   `libvips42`, loaded when first needed): from the largest JPEG preview stored in the file
    ///   when it is big enough (EXIF, JPEG MPF, the previews of raw files), else from the picture
    ///   itself, shrunk while it decodes; turned as the photo's orientation says and converted to
    ///   sRGB through its colour profile. The catalog keeps what it makes inside the library, the
    ///   shared library in its object store and the folder library in the desktop's thumbnail
    ///   cache, so the next request reads it back
    ///   (Docs/previews.md). A video gives its poster frame: a frame near a tenth of its length,
    ///   decoded by FFmpeg's libraries (Debian's `libavformat59` and its companions, loaded when
    ///   first needed), turned as the video says.
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
    ///   - maxPixelSize: the longest side wanted, in pixels (1 or more); a picture smaller than that
    ///     keeps its size, and the other libraries give at most 2048.
    /// - Throws: `.assetNotFound`; `.invalidArgument` for a size below 1; `.accessDenied` (Photos
    ///   without read access); `.fileUnreadable` when the asset's file cannot be read;
    ///   `.corruptMedia` naming the file when it does not decode; `.notSupported` when libvips is
    ///   not installed (the message names `libvips42`), or for a video when FFmpeg's libraries are
    ///   not (the message names them).
    public func thumbnail(forAssetWithID id: String, maxPixelSize: Int = 256) async throws -> AssetThumbnail? {
        try await Self.mapping {
            guard maxPixelSize >= 1 else {
                throw AlbumError(.invalidArgument, "The thumbnail size must be 1 pixel or more, not \(maxPixelSize).")
            }
            let backend = try await backend
            if let rendering = backend as? any PreviewRendering {
                return try await rendering.thumbnail(ofAssetWithID: id, maxPixelSize: maxPixelSize)
            }
            return try await Self.derivative(ofAssetWithID: id, maxPixelSize: maxPixelSize, backend: backend)
        }
    }

    /// A large image of the asset with identifier `id`, for a detail view: at most `maxPixelSize`
    /// (2048 by default) on its longest side, made and kept as ``thumbnail(forAssetWithID:maxPixelSize:)``
    /// says; `nil` when the library has none to give.
    ///
    /// ```swift
    /// if let preview = try await library.preview(forAssetWithID: asset.id) {
    ///     print(preview.pixelWidth, "×", preview.pixelHeight)   // e.g. 2048 × 1365
    /// }
    /// ```
    /// - Throws: as ``thumbnail(forAssetWithID:maxPixelSize:)``.
    public func preview(forAssetWithID id: String, maxPixelSize: Int = 2048) async throws -> AssetThumbnail? {
        try await thumbnail(forAssetWithID: id, maxPixelSize: maxPixelSize)
    }

    /// The derivative of a library that renders none itself: kept (``PreviewKeeping``) or made now
    /// from the original, scaled down to `maxPixelSize` when the kept size is larger.
    static func derivative(ofAssetWithID id: String, maxPixelSize: Int, backend: any LibraryBackend) async throws
        -> AssetThumbnail?
    {
        var picture: RenderedPreview
        if let keeping = backend as? any PreviewKeeping {
            guard let kept = try await keeping.preview(ofAssetWithID: id, size: .fitting(maxPixelSize)) else {
                return nil
            }
            picture = kept.preview
        } else if let reading = backend as? any OriginalReading {
            let side = min(maxPixelSize, PreviewSize.preview.pixels)
            guard let made = try await reading.renderPreview(ofAssetWithID: id, maxPixelSize: side) else { return nil }
            picture = made
        } else {
            return nil
        }
        if picture.longestSide > maxPixelSize {
            let larger = picture
            picture = try await Blocking.run {
                do {
                    return try PreviewPipeline.renderer().render(.bytes(larger.bytes), maxPixelSize: maxPixelSize)
                } catch let error as PreviewError {
                    throw AlbumError(
                        .corruptMedia, "The kept preview of asset \(id) cannot be scaled: \(error.reason).")
                }
            }
        }
        return AssetThumbnail(
            data: Data(picture.bytes), pixelWidth: picture.pixelWidth, pixelHeight: picture.pixelHeight,
            format: picture.format,
            isEmbedded: false)
    }

    /// The photo of the asset with identifier `id` at full size, for a detail screen or sharing;
    /// `nil` when the library has none to give (a video in a library that decodes nothing).
    ///
    /// - **Photos** renders the asset at its full size (`PHImageManager`, oriented, edits applied,
    ///   downloading from iCloud when needed) and encodes it as JPEG (``AssetImage/isOriginal`` is
    ///   `false`).
    /// - **The catalog, folder, shared and in-memory libraries** give the original file of a photo
    ///   byte for byte, in its own format (JPEG, HEIC, PNG, a raw file…), with its pixel size as
    ///   displayed; a video gives `nil`.
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
