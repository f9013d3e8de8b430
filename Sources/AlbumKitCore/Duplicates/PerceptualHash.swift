import Foundation

/// Two 64-bit perceptual hashes of one picture: a difference hash (dHash) and a DCT hash (pHash),
/// computed as PyPI's `imagehash.dhash` and `imagehash.phash` compute them, bit for bit on the same
/// grayscale pixels.
///
/// - dHash: the image at 9 × 8; bit set where a pixel is brighter than the one on its left.
/// - pHash: the image at 32 × 32; the 8 × 8 lowest frequencies of its 2-D DCT-II; bit set where a
///   coefficient is above their median.
///
/// Bits are in reading order (row 0 left to right, then row 1…), the first the most significant, so
/// ``hexadecimal`` prints what `str(imagehash.phash(image))` prints. Two pictures are close when few
/// bits differ (``distance(to:)``).
///
/// ```swift
/// let hash = PerceptualHash(of: grayscale)      // any size: reduced by area averaging
/// hash.distance(to: other)                       // (dHash bits differing, pHash bits differing)
/// ```
package struct PerceptualHash: Sendable, Hashable {
    /// The difference hash.
    package var difference: UInt64
    /// The DCT hash.
    package var perceptual: UInt64

    /// A pair of hashes as stored.
    package init(difference: UInt64, perceptual: UInt64) {
        self.difference = difference
        self.perceptual = perceptual
    }

    /// The hashes of `image`, reduced to 9 × 8 and 32 × 32 by area averaging where it has another
    /// size (given those sizes exactly, the result is `imagehash`'s on the same pixels).
    package init(of image: GrayscaleImage) {
        self.init(
            differenceOf: image.resized(width: 9, height: 8), perceptualOf: image.resized(width: 32, height: 32))
    }

    /// The hashes from images already at 9 × 8 (`small`) and 32 × 32 (`large`).
    package init(differenceOf small: GrayscaleImage, perceptualOf large: GrayscaleImage) {
        self.difference = Self.differenceHash(small)
        self.perceptual = Self.dctHash(large)
    }

    /// How many bits differ, hash by hash.
    package func distance(to other: PerceptualHash) -> (difference: Int, perceptual: Int) {
        ((difference ^ other.difference).nonzeroBitCount, (perceptual ^ other.perceptual).nonzeroBitCount)
    }

    /// The two hashes as 16 hexadecimal digits each, dHash then pHash: `"3c3e0e1a3a1e1e1e:…"`.
    package var hexadecimal: String { Self.hex(difference) + ":" + Self.hex(perceptual) }

    /// A pair written by ``hexadecimal``, or `nil` for anything else.
    package init?(hexadecimal text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 16 }),
            let difference = UInt64(parts[0], radix: 16), let perceptual = UInt64(parts[1], radix: 16)
        else { return nil }
        self.init(difference: difference, perceptual: perceptual)
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `imagehash.dhash`: 8 rows of 8 comparisons of neighbouring pixels.
    static func differenceHash(_ image: GrayscaleImage) -> UInt64 {
        precondition(image.width == 9 && image.height == 8, "a difference hash reads a 9 × 8 image")
        var bits: UInt64 = 0
        for y in 0..<8 {
            for x in 0..<8 {
                bits <<= 1
                if image[x + 1, y] > image[x, y] { bits |= 1 }
            }
        }
        return bits
    }

    /// cos(π k (2n + 1) / 64) for the 8 lowest frequencies k of 32 samples n: DCT-II, as SciPy's
    /// `fftpack.dct` without normalisation (its factor 2 changes no comparison, so it is left out).
    private static let cosines: [Double] = (0..<8).flatMap { k in
        (0..<32).map { n in cos(Double.pi * Double(k) * Double(2 * n + 1) / 64) }
    }

    /// `imagehash.phash`: DCT down the columns, then along the rows, of the 8 × 8 lowest frequencies;
    /// each compared with their median (the mean of the 32nd and 33rd values, as NumPy's median).
    static func dctHash(_ image: GrayscaleImage) -> UInt64 {
        precondition(image.width == 32 && image.height == 32, "a DCT hash reads a 32 × 32 image")
        // Down the columns: columnPass[k * 32 + x] for frequency k of column x.
        var columnPass = [Double](repeating: 0, count: 8 * 32)
        for k in 0..<8 {
            for x in 0..<32 {
                var sum = 0.0
                for y in 0..<32 { sum += Double(image[x, y]) * cosines[k * 32 + y] }
                columnPass[k * 32 + x] = sum
            }
        }
        // Along the rows: coefficients[k * 8 + l] for vertical frequency k, horizontal l.
        var coefficients = [Double](repeating: 0, count: 64)
        for k in 0..<8 {
            for l in 0..<8 {
                var sum = 0.0
                for x in 0..<32 { sum += columnPass[k * 32 + x] * cosines[l * 32 + x] }
                coefficients[k * 8 + l] = sum
            }
        }
        let sorted = coefficients.sorted()
        let median = (sorted[31] + sorted[32]) / 2
        var bits: UInt64 = 0
        for coefficient in coefficients {
            bits <<= 1
            if coefficient > median { bits |= 1 }
        }
        return bits
    }
}
