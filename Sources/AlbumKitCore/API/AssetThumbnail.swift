import Foundation

/// A small image of an asset, from ``PhotoLibrary/thumbnail(forAssetWithID:maxPixelSize:)``: its
/// encoded bytes, pixel size and format.
///
/// Photos renders it (decoded and scaled to fit the size asked for); the catalog, folder, shared and
/// in-memory libraries make it with libvips, fitted the same way (oriented, in sRGB, never enlarged),
/// from the preview stored in the file when it is big enough. ``isEmbedded`` is `false` for both.
///
/// ```swift
/// if let thumbnail = try await library.thumbnail(forAssetWithID: asset.id, maxPixelSize: 320) {
///     try thumbnail.data.write(to: URL(fileURLWithPath: "/tmp/thumbnail.jpg"))
///     print(thumbnail.pixelWidth, "×", thumbnail.pixelHeight, thumbnail.format.rawValue)
/// }
/// ```
public struct AssetThumbnail: Sendable, Hashable {
    /// The encoded image: a whole JPEG file (a PNG from a folder library's desktop thumbnail cache).
    public var data: Data
    /// Its width in pixels.
    public var pixelWidth: Int
    /// Its height in pixels.
    public var pixelHeight: Int
    /// How ``data`` is encoded (``MediaFormat/jpeg``, or ``MediaFormat/png``).
    public var format: MediaFormat
    /// Whether this is the thumbnail stored inside the asset's file, returned as stored (not rotated
    /// by the photo's orientation, not scaled); `false` when the library decoded and scaled the asset
    /// (every library since thumbnails are made with libvips).
    public var isEmbedded: Bool

    /// A thumbnail from its encoded bytes and what they hold.
    ///
    /// ```swift
    /// let thumbnail = AssetThumbnail(data: jpeg, pixelWidth: 160, pixelHeight: 120, format: .jpeg, isEmbedded: true)
    /// ```
    public init(data: Data, pixelWidth: Int, pixelHeight: Int, format: MediaFormat, isEmbedded: Bool) {
        self.data = data
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.format = format
        self.isEmbedded = isEmbedded
    }
}
