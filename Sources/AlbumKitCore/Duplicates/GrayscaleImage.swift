/// A small 8-bit grayscale image, row by row: what a perceptual hash is computed from.
///
/// The decoder gives one of these for a photo (the thumbnail's pixels, reduced); tests make them
/// from pixel arrays.
///
/// ```swift
/// let image = try GrayscaleImage(width: 9, height: 8, pixels: Array(repeating: 128, count: 72))
/// let smaller = image.resized(width: 3, height: 2)
/// ```
package struct GrayscaleImage: Sendable, Hashable {
    /// Its width in pixels.
    package let width: Int
    /// Its height in pixels.
    package let height: Int
    /// `width × height` luminance values, the top row first, each row left to right.
    package let pixels: [UInt8]

    /// An image of `width × height` pixels; throws when the count of `pixels` does not match.
    package init(width: Int, height: Int, pixels: [UInt8]) throws(AlbumError) {
        guard width > 0, height > 0, pixels.count == width * height else {
            throw AlbumError(
                .invalidArgument,
                "A grayscale image of \(width) × \(height) pixels cannot hold \(pixels.count) values.")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The luminance at column `x`, row `y`.
    package subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }

    /// This image at `width × height`, each new pixel the mean of the area of old pixels it covers
    /// (partly covered pixels count by the part covered). The same size returns the image unchanged.
    package func resized(width newWidth: Int, height newHeight: Int) -> GrayscaleImage {
        precondition(newWidth > 0 && newHeight > 0, "a resized image has at least one pixel")
        if newWidth == width && newHeight == height { return self }
        let columns = Self.coverage(from: width, to: newWidth)
        let rows = Self.coverage(from: height, to: newHeight)
        var result = [UInt8](repeating: 0, count: newWidth * newHeight)
        for (newY, rowParts) in rows.enumerated() {
            for (newX, columnParts) in columns.enumerated() {
                var sum = 0.0
                var weight = 0.0
                for (y, rowShare) in rowParts {
                    for (x, columnShare) in columnParts {
                        let share = rowShare * columnShare
                        sum += Double(pixels[y * width + x]) * share
                        weight += share
                    }
                }
                result[newY * newWidth + newX] = UInt8(min(255, max(0, (sum / weight).rounded())))
            }
        }
        return GrayscaleImage(checkedWidth: newWidth, height: newHeight, pixels: result)
    }

    private init(checkedWidth: Int, height: Int, pixels: [UInt8]) {
        self.width = checkedWidth
        self.height = height
        self.pixels = pixels
    }

    /// For each of `newCount` cells spread over `oldCount` ones, the old cells it covers and by how
    /// much (in old cells).
    private static func coverage(from oldCount: Int, to newCount: Int) -> [[(Int, Double)]] {
        let scale = Double(oldCount) / Double(newCount)
        return (0..<newCount).map { cell in
            let start = Double(cell) * scale
            let end = Double(cell + 1) * scale
            var parts: [(Int, Double)] = []
            var index = Int(start)
            while Double(index) < end, index < oldCount {
                let share = min(end, Double(index + 1)) - max(start, Double(index))
                if share > 1e-9 { parts.append((index, share)) }
                index += 1
            }
            return parts
        }
    }
}
