#if os(Linux)
    import CLibRaw
    import CVips
#endif

extension PreviewRenderer {
    /// The Debian package that has LibRaw, which develops a raw file that stores no usable preview.
    package static let rawDecoderPackage = "libraw20"

    /// The most pixels a raw file's sensor may have (a 102-megapixel medium-format camera's fit): a
    /// larger one is refused before its data is read.
    package static let largestRawPicture = 120_000_000
    /// The largest raw file decoded, in bytes: three bytes a pixel of ``largestRawPicture`` (an
    /// uncompressed 16-bit mosaic and its previews). The whole file is read before LibRaw parses it.
    package static let largestRawFile = 3 * largestRawPicture
    /// Seconds a raw file may take to develop before it is given up (LibRaw is stopped at its next
    /// step), so a hostile file cannot hang a grid.
    package static let rawDecodeTimeLimit = 60.0

    /// Loads LibRaw once for the process (later calls return at once) and gives its version, e.g.
    /// "0.20.2-Release".
    ///
    /// ```swift
    /// print(try PreviewRenderer.loadRawDecoder())
    /// ```
    /// - Throws: ``PreviewError`` `.decoderMissing` naming libraw20, or saying "unsupported LibRaw
    ///   version" for a LibRaw other than 0.20 (AlbumKit sets two fields of its structures that its C
    ///   interface has no call for, at the places 0.20 keeps them).
    package static func loadRawDecoder() throws(PreviewError) -> String {
        #if os(Linux)
            guard albumkit_libraw_load() == 0 else {
                throw PreviewError(.decoderMissing, String(cString: albumkit_libraw_load_error()))
            }
            return String(cString: albumkit_libraw_version())
        #else
            throw PreviewError(
                .decoderMissing, "AlbumKit loads LibRaw on Linux only; on this system Photos renders raw files")
        #endif
    }

    /// The picture of the raw file in `source`, developed by LibRaw from its sensor data: at half size
    /// (each 2 × 2 block of the mosaic one pixel, a quarter of the memory) unless that is smaller than
    /// `maxPixelSize`, with the camera's white balance, in sRGB, turned as the camera's orientation
    /// says; then fitted inside `maxPixelSize` × `maxPixelSize` (never enlarged) by libvips and
    /// encoded as `encoding` says.
    ///
    /// ```swift
    /// let thumbnail = try renderer.rawPicture(.descriptor(fd), maxPixelSize: 256)
    /// ```
    /// - Throws: ``PreviewError`` `.decoderMissing` naming libraw20; `.undecodable` with LibRaw's
    ///   reason (not a raw file, data cut short, a sensor larger than ``largestRawPicture``, more than
    ///   ``rawDecodeTimeLimit`` seconds spent); `.invalidArgument` for a size outside
    ///   1…``largestSide``.
    package func rawPicture(_ source: PreviewSource, maxPixelSize: Int, encoding: PreviewEncoding = .standard)
        throws(PreviewError) -> RenderedPreview
    {
        guard (1...Self.largestSide).contains(maxPixelSize) else {
            throw PreviewError(
                .invalidArgument, "a raw picture's size must be 1 to \(Self.largestSide) pixels, not \(maxPixelSize)")
        }
        #if os(Linux)
            _ = try Self.loadRawDecoder()
            var picture = try Self.developed(source, half: true)
            if max(picture.width, picture.height) < maxPixelSize
                && max(picture.rawWidth, picture.rawHeight) > max(picture.width, picture.height)
            {
                // Half size is smaller than asked for: the whole sensor, as large as it is.
                albumkit_libraw_release(&picture)
                picture = try Self.developed(source, half: false)
            }
            defer { albumkit_libraw_release(&picture) }
            let scale = min(1, Double(maxPixelSize) / Double(max(picture.width, picture.height)))
            let width = max(1, Int((Double(picture.width) * scale).rounded()))
            let height = max(1, Int((Double(picture.height) * scale).rounded()))
            let image = try DecodedImage.made("the raw file's picture could not be scaled") {
                albumkit_vips_thumbnail_rgb(picture.pixels, picture.width, picture.height, Int32(width), Int32(height))
            }
            return try Self.encodeDisplayed(image, encoding, what: "the raw file's picture")
        #else
            throw PreviewError(.decoderMissing, "AlbumKit loads LibRaw on Linux only")
        #endif
    }

    #if os(Linux)
        /// The raw file's picture as LibRaw develops it (release with `albumkit_libraw_release`).
        private static func developed(_ source: PreviewSource, half: Bool) throws(PreviewError)
            -> albumkit_raw_picture
        {
            var picture = albumkit_raw_picture()
            var error = [CChar](repeating: 0, count: 512)
            let result: Int32
            switch source {
            case .descriptor(let descriptor):
                result = albumkit_libraw_decode(
                    descriptor, nil, 0, half ? 1 : 0, Int64(largestRawFile), Int64(largestRawPicture),
                    rawDecodeTimeLimit, &picture, &error, error.count)
            case .bytes(let bytes):
                guard !bytes.isEmpty else { throw PreviewError(.undecodable, "the raw file is empty") }
                // LibRaw keeps no pointer into `bytes` past the call: its developed picture is its own.
                result = bytes.withUnsafeBytes { buffer in
                    albumkit_libraw_decode(
                        -1, buffer.baseAddress, buffer.count, half ? 1 : 0, Int64(largestRawFile),
                        Int64(largestRawPicture), rawDecodeTimeLimit, &picture, &error, error.count)
                }
            }
            guard result == 0 else {
                throw PreviewError(
                    .undecodable, String(decoding: error.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
            }
            return picture
        }
    #endif
}
