#if os(Linux)
    import CVips
#endif

extension PreviewRenderer {
    /// `pixels` AlbumKit decoded itself (a BMP) fitted inside `maxPixelSize` × `maxPixelSize`
    /// (aspect ratio kept, never enlarged), in sRGB, flattened on white, encoded as `encoding` says:
    /// the same scaling and encoding as every other picture's.
    ///
    /// ```swift
    /// let thumbnail = try renderer.render(try BMPDecoder.decode(bytes), maxPixelSize: 256)
    /// ```
    /// - Throws: ``PreviewError`` `.invalidArgument` for a size outside 1…``largestSide`` or
    ///   samples that are not `width × height × bands`; `.undecodable` when libvips fails.
    package func render(_ pixels: DecodedPixels, maxPixelSize: Int, encoding: PreviewEncoding = .standard)
        throws(PreviewError) -> RenderedPreview
    {
        guard (1...Self.largestSide).contains(maxPixelSize) else {
            throw PreviewError(
                .invalidArgument, "a preview's size must be 1 to \(Self.largestSide) pixels, not \(maxPixelSize)")
        }
        guard pixels.width > 0, pixels.height > 0, (1...4).contains(pixels.bands),
            pixels.samples.count == pixels.width * pixels.height * pixels.bands
        else {
            throw PreviewError(
                .invalidArgument,
                "\(pixels.samples.count) samples are not \(pixels.width) × \(pixels.height) pixels of \(pixels.bands)")
        }
        #if os(Linux)
            // libvips copies the samples before the call returns.
            let scaled = pixels.samples.withUnsafeBytes { buffer in
                albumkit_vips_thumbnail_pixels(
                    buffer.baseAddress, Int32(pixels.width), Int32(pixels.height), Int32(pixels.bands),
                    Int32(maxPixelSize), Int32(maxPixelSize), Int32(ALBUMKIT_VIPS_FIT_DOWN))
            }
            let image = try DecodedImage.made("the picture could not be scaled") { scaled }
            return try Self.encodeDisplayed(image, encoding, what: "the picture")
        #else
            throw PreviewError(.decoderMissing, "AlbumKit loads libvips on Linux only")
        #endif
    }
}
