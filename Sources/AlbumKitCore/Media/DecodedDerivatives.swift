import AlbumKitMedia
import AlbumKitPreviews

/// The kept thumbnails and previews this process has already seen decode whole, remembered by the
/// SHA-256 of their bytes. A kept picture is believed only once libvips decoded it
/// (``KeptDerivative/believed(_:largestSide:formats:)``); the same bytes read back again are
/// hashed (a few microseconds) instead of decoded again (milliseconds and libvips' threads, which
/// capped `album serve` at a few hundred thumbnails a second). Bytes that differ anywhere hash
/// differently and are decoded as the first time, so a picture damaged or replaced since is
/// refused as before.
///
/// ```swift
/// let decoded = DecodedDerivatives.shared
/// let first = decoded.believed(bytes, largestSide: 256)   // decoded: a 256-pixel JPEG
/// let again = decoded.believed(bytes, largestSide: 256)   // the same bytes: hashed, not decoded
/// ```
package final class DecodedDerivatives: Sendable {
    /// The one of this process, shared by every library it opens.
    package static let shared = DecodedDerivatives()

    /// What a picture's header said, kept for bytes that decoded whole.
    private struct Picture: Sendable {
        var width: Int
        var height: Int
        var format: MediaFormat
    }

    /// A SHA-256 as four words (a quarter of its hexadecimal text's memory).
    private struct Digest: Hashable, Sendable {
        var words: (UInt64, UInt64, UInt64, UInt64)

        init(_ bytes: [UInt8]) {
            let hex = bytes.withUnsafeBytes { SHA256Hasher.hash($0) }
            let digits = Array(hex.utf8)
            func word(_ index: Int) -> UInt64 {
                digits[index * 16..<index * 16 + 16].reduce(0) { value, digit in
                    value << 4 | UInt64(digit <= 57 ? digit - 48 : digit - 87)
                }
            }
            words = (word(0), word(1), word(2), word(3))
        }

        static func == (lhs: Digest, rhs: Digest) -> Bool { lhs.words == rhs.words }

        func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
        }
    }

    /// The pictures remembered, and how many decodes were run (for tests and measurements).
    private let state = Locked<(seen: [Digest: Picture], decodes: Int)>(([:], 0))
    /// At most this many are remembered (about 80 bytes each); when full, all are forgotten and the
    /// next reads decode again.
    let capacity: Int

    package init(capacity: Int = 65_536) { self.capacity = max(1, capacity) }

    /// `bytes` as a kept picture when they are a picture of one of `formats`, at most `largestSide`
    /// on its longest side, that decodes whole: decoded the first time these bytes are seen (as
    /// ``KeptDerivative/believed(_:largestSide:formats:)``), believed without decoding again after.
    /// `nil` for anything else.
    package func believed(
        _ bytes: [UInt8], largestSide: Int, formats: Set<MediaFormat> = [.jpeg, .png]
    ) -> RenderedPreview? {
        let digest = Digest(bytes)
        if let known = state.withLock({ $0.seen[digest] }) {
            guard formats.contains(known.format), max(known.width, known.height) <= largestSide else { return nil }
            return RenderedPreview(
                bytes: bytes, pixelWidth: known.width, pixelHeight: known.height, format: known.format)
        }
        state.withLock { $0.decodes += 1 }
        guard let decoded = KeptDerivative.believed(bytes, largestSide: largestSide, formats: formats) else {
            return nil
        }
        state.withLock { state in
            if state.seen.count >= capacity { state.seen.removeAll(keepingCapacity: true) }
            state.seen[digest] = Picture(width: decoded.pixelWidth, height: decoded.pixelHeight, format: decoded.format)
        }
        return decoded
    }

    /// How many times bytes were decoded (not found among those that decoded before).
    package var decodes: Int { state.withLock { $0.decodes } }
}
