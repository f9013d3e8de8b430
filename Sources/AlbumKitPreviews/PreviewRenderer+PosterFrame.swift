#if os(Linux)
    import CFFmpeg
    import CVips
#endif

extension PreviewRenderer {
    /// The Debian packages that have FFmpeg's libraries, which decode a video's poster frame.
    package static let videoDecoderPackages = "libavformat59 libavcodec59 libswscale6 libavutil57"

    /// How far into a video its poster frame is taken: this fraction of its length, but at least
    /// ``posterFrameEarliest`` seconds in when the video is twice that long (a first frame is often
    /// black).
    package static let posterFrameFraction = 0.1
    /// Seconds: see ``posterFrameFraction``.
    package static let posterFrameEarliest = 1.0
    /// The most pixels a video's frame may have (8K UHD is 7680 × 4320): a larger one is refused
    /// before it is decoded.
    package static let largestVideoFrame = 7680 * 4320
    /// Seconds a video may take to give its poster frame before it is given up (a hostile file that
    /// would keep the decoder reading cannot hang the caller).
    package static let posterFrameTimeLimit = 15.0

    /// Loads FFmpeg's libraries once for the process (later calls return at once) and gives their
    /// versions, e.g. "libavformat 59.27.100, libavcodec 59.37.100, …".
    ///
    /// ```swift
    /// print(try PreviewRenderer.loadVideoDecoder())
    /// ```
    /// - Throws: ``PreviewError`` `.decoderMissing` naming the package to install, or saying
    ///   "unsupported FFmpeg version" for FFmpeg libraries of another major version than 5.
    package static func loadVideoDecoder() throws(PreviewError) -> String {
        #if os(Linux)
            guard albumkit_ffmpeg_load() == 0 else {
                throw PreviewError(.decoderMissing, String(cString: albumkit_ffmpeg_load_error()))
            }
            return String(cString: albumkit_ffmpeg_version())
        #else
            throw PreviewError(
                .decoderMissing, "AlbumKit loads FFmpeg on Linux only; on this system Photos renders videos")
        #endif
    }

    /// The poster frame of the video in `source`: one frame near a tenth of its length (at least a
    /// second in), decoded by FFmpeg, turned as the video's display matrix says, its pixels' aspect
    /// ratio applied, fitted inside `maxPixelSize` × `maxPixelSize` (never enlarged) by libvips and
    /// encoded as `encoding` says.
    ///
    /// ```swift
    /// let poster = try renderer.posterFrame(.descriptor(fd), maxPixelSize: 256)
    /// ```
    /// - Throws: ``PreviewError`` `.decoderMissing` naming the FFmpeg packages; `.undecodable` with
    ///   FFmpeg's reason (not a video, no frame decodes, frames too large, or more than
    ///   ``posterFrameTimeLimit`` seconds spent); `.invalidArgument` for a size outside
    ///   1…``largestSide``.
    package func posterFrame(_ source: PreviewSource, maxPixelSize: Int, encoding: PreviewEncoding = .standard)
        throws(PreviewError) -> RenderedPreview
    {
        guard (1...Self.largestSide).contains(maxPixelSize) else {
            throw PreviewError(
                .invalidArgument, "a poster frame's size must be 1 to \(Self.largestSide) pixels, not \(maxPixelSize)")
        }
        #if os(Linux)
            _ = try Self.loadVideoDecoder()
            var frame = albumkit_video_frame()
            var error = [CChar](repeating: 0, count: 512)
            let result: Int32
            switch source {
            case .descriptor(let descriptor):
                result = albumkit_ffmpeg_poster_frame(
                    descriptor, nil, 0, Self.posterFrameFraction, Self.posterFrameEarliest,
                    Int64(Self.largestVideoFrame), Self.posterFrameTimeLimit, &frame, &error, error.count)
            case .bytes(let bytes):
                guard !bytes.isEmpty else { throw PreviewError(.undecodable, "the video is empty") }
                result = bytes.withUnsafeBytes { buffer in
                    albumkit_ffmpeg_poster_frame(
                        -1, buffer.baseAddress, buffer.count, Self.posterFrameFraction, Self.posterFrameEarliest,
                        Int64(Self.largestVideoFrame), Self.posterFrameTimeLimit, &frame, &error, error.count)
                }
            }
            guard result == 0 else {
                throw PreviewError(
                    .undecodable, String(decoding: error.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
            }
            defer { albumkit_ffmpeg_release(&frame) }
            let (width, height) = Self.fitted(frame, inside: maxPixelSize)
            var image = try DecodedImage.made("the video's frame could not be scaled") {
                albumkit_vips_thumbnail_rgb(frame.pixels, frame.width, frame.height, Int32(width), Int32(height))
            }
            let orientation = Self.exifOrientation(rotation: Int(frame.rotation), mirrored: frame.mirrored != 0)
            if orientation != 1 {
                image = try image.derived("the video's frame could not be turned") {
                    albumkit_vips_oriented($0, Int32(orientation))
                }
            }
            return try Self.encodeDisplayed(image, encoding, what: "the video's frame")
        #else
            throw PreviewError(.decoderMissing, "AlbumKit loads FFmpeg on Linux only")
        #endif
    }

    /// The EXIF orientation (1–8) that shows a frame stored as FFmpeg decoded it: flipped left to
    /// right first when `mirrored`, then turned `rotation` degrees clockwise.
    ///
    /// ```swift
    /// PreviewRenderer.exifOrientation(rotation: 90, mirrored: false)   // 6, a phone held upright
    /// ```
    package static func exifOrientation(rotation: Int, mirrored: Bool) -> Int {
        switch (((rotation % 360) + 360) % 360, mirrored) {
        case (90, false): 6
        case (180, false): 3
        case (270, false): 8
        case (0, true): 2
        case (90, true): 7
        case (180, true): 4
        case (270, true): 5
        default: 1
        }
    }

    #if os(Linux)
        /// The frame's stored size with its pixels' aspect ratio applied, fitted inside `side` ×
        /// `side` and never enlarged (the turn comes after: the box is square).
        private static func fitted(_ frame: albumkit_video_frame, inside side: Int) -> (Int, Int) {
            let aspect = Double(frame.aspectNumerator) / Double(max(1, frame.aspectDenominator))
            let shownWidth = Double(frame.width) * (aspect > 0 ? aspect : 1)
            let shownHeight = Double(frame.height)
            let scale = min(1, Double(side) / max(shownWidth, shownHeight))
            return (max(1, Int((shownWidth * scale).rounded())), max(1, Int((shownHeight * scale).rounded())))
        }
    #endif
}
