/// A picture AlbumKit decoded itself (a BMP): 8-bit samples row after row from the top, `bands` a
/// pixel (3: red, green, blue; 4: with alpha, not premultiplied).
///
/// ```swift
/// let pixels = try BMPDecoder.decode(bytes)
/// print(pixels.width, "×", pixels.height, pixels.bands)   // 127 × 64 3
/// let thumbnail = try renderer.render(pixels, maxPixelSize: 256)
/// ```
package struct DecodedPixels: Sendable, Hashable {
    /// Its width in pixels.
    package var width: Int
    /// Its height in pixels.
    package var height: Int
    /// Samples a pixel: 3 (RGB) or 4 (RGBA).
    package var bands: Int
    /// `width × height × bands` samples.
    package var samples: [UInt8]

    /// Pixels from their samples.
    ///
    /// ```swift
    /// let red = DecodedPixels(width: 1, height: 1, bands: 3, samples: [255, 0, 0])
    /// ```
    package init(width: Int, height: Int, bands: Int, samples: [UInt8]) {
        self.width = width
        self.height = height
        self.bands = bands
        self.samples = samples
    }
}
