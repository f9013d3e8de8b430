import Foundation

/// An asset's photo at full size, from ``PhotoLibrary/fullSizeImage(forAssetWithID:)``: encoded
/// bytes an image view decodes, their format and, when known, the pixel size.
///
/// ```swift
/// if let image = try await library.fullSizeImage(forAssetWithID: asset.id) {
///     print(image.format.rawValue, image.pixelWidth ?? 0, "×", image.pixelHeight ?? 0, image.isOriginal)
/// }
/// ```
public struct AssetImage: Sendable, Hashable {
    /// The encoded image: the original file, or (Photos) a JPEG of the rendered image.
    public var data: Data
    /// How ``data`` is encoded.
    public var format: MediaFormat
    /// Its width in pixels as displayed, when known.
    public var pixelWidth: Int?
    /// Its height in pixels as displayed, when known.
    public var pixelHeight: Int?
    /// Whether ``data`` is the original file byte for byte (its metadata included); `false` when the
    /// library rendered the asset (Photos: oriented and with edits applied).
    public var isOriginal: Bool

    /// An image from its encoded bytes and what they hold.
    ///
    /// ```swift
    /// let image = AssetImage(data: jpeg, format: .jpeg, pixelWidth: 4032, pixelHeight: 3024, isOriginal: true)
    /// ```
    public init(data: Data, format: MediaFormat, pixelWidth: Int?, pixelHeight: Int?, isOriginal: Bool) {
        self.data = data
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.isOriginal = isOriginal
    }
}
