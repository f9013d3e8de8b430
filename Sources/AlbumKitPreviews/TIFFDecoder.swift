#if os(Linux)
    import CVips
    import Glibc
#endif

/// Reads the TIFFs libvips refuses through libtiff's RGBA interface (`TIFFReadRGBAImageOriented`):
/// samples in separate planes (tiled or in strips), old-style JPEG compression, 12-bit samples,
/// floating-point samples without a photometric interpretation. libtiff (Debian's libtiff6, which
/// libvips42 depends on) is loaded at run time; the pixels are then scaled and encoded by libvips
/// like every other picture's.
///
/// ```swift
/// let pixels = try TIFFDecoder.decode(bytes)     // PreviewError(.undecodable) with libtiff's reason
/// let thumbnail = try renderer.render(pixels, maxPixelSize: 256)
/// ```
package enum TIFFDecoder {
    /// The most pixels a TIFF read this way may have (as for a bitmap, ``BMPDecoder/largestPicture``):
    /// a larger one is refused before it is decoded.
    package static let largestPicture = BMPDecoder.largestPicture

    /// The first image of the TIFF in `bytes`, 8-bit RGBA, top row first.
    ///
    /// ```swift
    /// let pixels = try TIFFDecoder.decode(Array(data))
    /// ```
    /// - Throws: ``PreviewError`` `.decoderMissing` naming libtiff6 when libtiff cannot be loaded;
    ///   `.undecodable` with libtiff's reason, or for more than ``largestPicture`` pixels.
    package static func decode(_ bytes: [UInt8]) throws(PreviewError) -> DecodedPixels {
        #if os(Linux)
            guard albumkit_tiff_load() == 0 else {
                throw PreviewError(.decoderMissing, String(cString: albumkit_tiff_load_error()))
            }
            guard !bytes.isEmpty else { throw PreviewError(.undecodable, "the TIFF is empty") }
            var pixels: UnsafeMutableRawPointer?
            var width: Int32 = 0
            var height: Int32 = 0
            var error = [CChar](repeating: 0, count: 512)
            let result = bytes.withUnsafeBytes { buffer in
                albumkit_tiff_rgba(
                    buffer.baseAddress, buffer.count, Int64(largestPicture), &pixels, &width, &height, &error,
                    error.count)
            }
            defer { albumkit_tiff_free(pixels) }
            guard result == 0, let pixels else {
                throw PreviewError(
                    .undecodable, String(decoding: error.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
            }
            let count = Int(width) * Int(height) * 4
            let samples = Array(UnsafeRawBufferPointer(start: pixels, count: count))
            return DecodedPixels(width: Int(width), height: Int(height), bands: 4, samples: samples)
        #else
            throw PreviewError(.decoderMissing, "AlbumKit loads libtiff on Linux only")
        #endif
    }
}
