#if os(Linux)
    import CVips
    import Glibc
#endif

/// Reads the HEIF files libvips 8.14's loader refuses but libheif decodes (some cameras' 10-bit
/// `.hif` grids, which libvips reports as "bad image dimensions on decode") through libheif's own
/// API: the primary image as 8-bit RGB, turned and mirrored as its `irot`/`imir` say. libheif
/// (Debian's libheif1, which libvips42 depends on) is loaded at run time; the pixels are then scaled
/// and encoded by libvips like every other picture's.
///
/// ```swift
/// let pixels = try HEIFDecoder.decode(bytes)     // PreviewError(.undecodable) with libheif's reason
/// let thumbnail = try renderer.render(pixels, maxPixelSize: 256)
/// ```
package enum HEIFDecoder {
    /// The most pixels an image read this way may have (as for a bitmap, ``BMPDecoder/largestPicture``):
    /// a larger one is refused before it is decoded.
    package static let largestPicture = BMPDecoder.largestPicture

    /// The primary image of the HEIF file in `bytes`, 8-bit RGB, top row first.
    ///
    /// ```swift
    /// let pixels = try HEIFDecoder.decode(Array(data))
    /// ```
    /// - Throws: ``PreviewError`` `.decoderMissing` naming libheif1 when libheif cannot be loaded;
    ///   `.undecodable` with libheif's reason, or for more than ``largestPicture`` pixels.
    package static func decode(_ bytes: [UInt8]) throws(PreviewError) -> DecodedPixels {
        #if os(Linux)
            guard albumkit_heif_load() == 0 else {
                throw PreviewError(.decoderMissing, String(cString: albumkit_heif_load_error()))
            }
            guard !bytes.isEmpty else { throw PreviewError(.undecodable, "the HEIF file is empty") }
            var pixels: UnsafeMutableRawPointer?
            var width: Int32 = 0
            var height: Int32 = 0
            var error = [CChar](repeating: 0, count: 512)
            let result = bytes.withUnsafeBytes { buffer in
                albumkit_heif_rgb(
                    buffer.baseAddress, buffer.count, Int64(largestPicture), &pixels, &width, &height, &error,
                    error.count)
            }
            defer { albumkit_heif_free(pixels) }
            guard result == 0, let pixels else {
                throw PreviewError(
                    .undecodable, String(decoding: error.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
            }
            let samples = Array(UnsafeRawBufferPointer(start: pixels, count: Int(width) * Int(height) * 3))
            return DecodedPixels(width: Int(width), height: Int(height), bands: 3, samples: samples)
        #else
            throw PreviewError(.decoderMissing, "AlbumKit loads libheif on Linux only")
        #endif
    }
}
