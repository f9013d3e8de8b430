import AlbumKitMedia

/// An encoded picture made by ``PreviewRenderer``: its bytes, pixel size (as displayed, orientation
/// applied) and format.
///
/// ```swift
/// let preview = try renderer.render(.descriptor(fd), maxPixelSize: 256)
/// print(preview.pixelWidth, "×", preview.pixelHeight, preview.bytes.count, "bytes of", preview.format)
/// ```
package struct RenderedPreview: Sendable, Hashable {
    /// The encoded file (a whole JPEG or PNG).
    package var bytes: [UInt8]
    /// Its width in pixels.
    package var pixelWidth: Int
    /// Its height in pixels.
    package var pixelHeight: Int
    /// ``MediaFormat/jpeg`` or ``MediaFormat/png``.
    package var format: MediaFormat

    /// A rendered picture from its bytes and what they hold.
    ///
    /// ```swift
    /// let preview = RenderedPreview(bytes: jpeg, pixelWidth: 256, pixelHeight: 192, format: .jpeg)
    /// ```
    package init(bytes: [UInt8], pixelWidth: Int, pixelHeight: Int, format: MediaFormat) {
        self.bytes = bytes
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.format = format
    }

    /// Its longest side in pixels.
    package var longestSide: Int { max(pixelWidth, pixelHeight) }
}
