/// A picture as a grid of 8-bit grey samples, row after row (0 black, 255 white): what a perceptual
/// hash is computed from.
///
/// ```swift
/// let grid = try renderer.greyscale(.bytes(thumbnail), width: 9, height: 8)
/// let brighter = grid[0, 0] > grid[1, 0]
/// ```
package struct GreyscalePixels: Sendable, Hashable {
    /// Columns.
    package var width: Int
    /// Rows.
    package var height: Int
    /// `width × height` samples, the top row first.
    package var samples: [UInt8]

    /// A grid from its samples.
    ///
    /// ```swift
    /// let grid = GreyscalePixels(width: 2, height: 1, samples: [0, 255])
    /// ```
    package init(width: Int, height: Int, samples: [UInt8]) {
        precondition(samples.count == width * height, "a grey grid holds width × height samples")
        self.width = width
        self.height = height
        self.samples = samples
    }

    /// The sample at column `x`, row `y`.
    package subscript(x: Int, y: Int) -> UInt8 { samples[y * width + x] }
}
