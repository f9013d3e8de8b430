import AlbumKitMedia

#if os(Linux)
    import CVips
    import Glibc
#endif

/// Renders pictures with libvips, loaded at run time: thumbnails and previews (oriented, sRGB,
/// never enlarged), grey grids for perceptual hashes, and sheets of thumbnails side by side.
///
/// Only the loaders of photo formats parse a file (JPEG, PNG, GIF, WebP, TIFF, HEIF/AVIF): the
/// loaders libvips marks untrusted (ImageMagick among them) are blocked. Calls are independent and
/// may run on many threads at once; libvips's own workers are at most `threads` (one per core by
/// default).
///
/// ```swift
/// let renderer = try PreviewRenderer.load()        // PreviewError(.decoderMissing) without libvips42
/// let thumbnail = try renderer.render(.descriptor(fd), maxPixelSize: 256)
/// let grid = try renderer.greyscale(.bytes(thumbnail.bytes), width: 9, height: 8)
/// ```
package struct PreviewRenderer: Sendable {
    /// The Debian package that has the decoder.
    package static let decoderPackage = "libvips42"

    /// The largest side any call renders, in pixels (a preview is about 2048).
    package static let largestSide = 8192

    /// The loaded libvips's version, e.g. "8.14.1".
    package let decoderVersion: String

    private init(decoderVersion: String) { self.decoderVersion = decoderVersion }

    /// Whether libvips runs vector code generated at run time (Orc): never after ``load(threads:)``,
    /// which turns it off (with several pictures decoded at once it crashed a process).
    package var runsGeneratedVectorCode: Bool {
        #if os(Linux)
            albumkit_vips_vectors_enabled() != 0
        #else
            false
        #endif
    }

    /// Loads and starts libvips once for the process (later calls return at once), with at most
    /// `threads` worker threads (0: one per core; the first call decides).
    ///
    /// ```swift
    /// let renderer = try PreviewRenderer.load()
    /// print(renderer.decoderVersion)   // "8.14.1"
    /// ```
    /// - Throws: ``PreviewError`` `.decoderMissing` naming libvips42 when libvips is not installed
    ///   or is older than 8.13.
    package static func load(threads: Int = 0) throws(PreviewError) -> PreviewRenderer {
        #if os(Linux)
            guard albumkit_vips_load(Int32(clamping: max(0, threads))) == 0 else {
                throw PreviewError(.decoderMissing, String(cString: albumkit_vips_load_error()))
            }
            return PreviewRenderer(decoderVersion: String(cString: albumkit_vips_version()))
        #else
            throw PreviewError(
                .decoderMissing, "AlbumKit loads libvips on Linux only; on this system Photos renders pictures")
        #endif
    }

    /// The picture in `source` fitted inside `maxPixelSize` × `maxPixelSize` (aspect ratio kept,
    /// never enlarged), oriented, in sRGB, encoded as `encoding` says.
    ///
    /// Decoding shrinks while it reads where the format allows (a JPEG's DCT scaling, a HEIF file's
    /// thumbnail item when it is big enough), so a thumbnail of a 24-megapixel JPEG never holds the
    /// whole picture in memory.
    ///
    /// ```swift
    /// let thumbnail = try renderer.render(.descriptor(fd), maxPixelSize: 256)
    /// // A JPEG thumbnail stored inside a photo, turned as the photo's EXIF orientation says:
    /// let fromEmbedded = try renderer.render(.bytes(embedded.jpeg), maxPixelSize: 256, orientation: 6)
    /// ```
    /// - Parameters:
    ///   - orientation: an EXIF orientation (1–8) to apply after decoding, for a picture stored without
    ///     its own (a thumbnail taken out of a photo); `nil` applies the picture's own metadata only.
    ///   - strict: refuse a picture with any decoding error (a scan cut short); by default what
    ///     decodes is shown, as viewers do, and only a picture that does not decode at all fails.
    /// - Throws: ``PreviewError`` `.undecodable` with libvips's reason; `.invalidArgument` for a size
    ///   outside 1…``largestSide``.
    package func render(
        _ source: PreviewSource, maxPixelSize: Int, orientation: Int? = nil, encoding: PreviewEncoding = .standard,
        strict: Bool = false
    ) throws(PreviewError) -> RenderedPreview {
        try Self.checkSide(maxPixelSize, "a preview's size")
        #if os(Linux)
            var image = try Self.decode(source, width: maxPixelSize, height: maxPixelSize, exact: false, strict: strict)
            if let orientation, (2...8).contains(orientation) {
                image = try image.derived("the picture could not be turned") {
                    albumkit_vips_oriented($0, Int32(orientation))
                }
            }
            return try Self.encodeDisplayed(image, encoding, what: "the picture")
        #else
            throw PreviewError(.decoderMissing, "AlbumKit loads libvips on Linux only")
        #endif
    }

    /// The picture in `source` scaled to exactly `width` × `height` (aspect ratio not kept), oriented,
    /// as 8-bit grey: the input of a perceptual hash (a dHash reads 9 × 8, a pHash 32 × 32).
    ///
    /// ```swift
    /// let grid = try renderer.greyscale(.bytes(thumbnail.bytes), width: 9, height: 8)
    /// ```
    /// - Throws: ``PreviewError`` `.undecodable`; `.invalidArgument` for a side outside
    ///   1…``largestSide``.
    package func greyscale(_ source: PreviewSource, width: Int, height: Int) throws(PreviewError) -> GreyscalePixels {
        try Self.checkSide(width, "a grey grid's width")
        try Self.checkSide(height, "a grey grid's height")
        #if os(Linux)
            let image = try Self.decode(source, width: width, height: height, exact: true, strict: false)
            let grey = try image.derived("the picture could not be made grey") { albumkit_vips_grey($0) }
            let samples = try grey.bytes("the grey pixels could not be read") { albumkit_vips_pixels($0, &$1, &$2) }
            guard grey.width == width, grey.height == height, samples.count == width * height else {
                throw PreviewError(
                    .undecodable, "libvips made \(grey.width) × \(grey.height) grey pixels, not \(width) × \(height)")
            }
            return GreyscalePixels(width: width, height: height, samples: samples)
        #else
            throw PreviewError(.decoderMissing, "AlbumKit loads libvips on Linux only")
        #endif
    }

    /// `pictures` (rendered thumbnails) laid out in rows of `across` on white, each fitted in a
    /// `cellSize` square and centred in its cell, `gap` pixels apart: a contact sheet's grid. With
    /// `captions` (one per picture), each cell has its caption below it, set by libvips's text
    /// renderer (Pango) in `font`, wrapped at the cell's width.
    ///
    /// ```swift
    /// let sheet = try renderer.contactSheet(thumbnails, cellSize: 256, across: 6, gap: 16)
    /// let captioned = try renderer.contactSheet(
    ///     thumbnails, cellSize: 256, across: 6, gap: 16, captions: ["IMG_0001.JPG\n2024-05-01 14:03", …])
    /// ```
    /// - Throws: ``PreviewError`` `.invalidArgument` for no pictures, a cell outside
    ///   1…``largestSide``, `across` below 1 or captions not one per picture; `.undecodable` when a
    ///   picture does not decode or a caption cannot be set.
    package func contactSheet(
        _ pictures: [RenderedPreview], cellSize: Int, across: Int, gap: Int, captions: [String]? = nil,
        font: String = "sans 10", encoding: PreviewEncoding = .standard
    ) throws(PreviewError) -> RenderedPreview {
        try Self.checkSide(cellSize, "a contact sheet's cell")
        guard !pictures.isEmpty, across >= 1, (0...1024).contains(gap) else {
            throw PreviewError(.invalidArgument, "a contact sheet needs pictures, 1 or more across and a gap of 0–1024")
        }
        guard captions.map({ $0.count == pictures.count }) ?? true else {
            throw PreviewError(.invalidArgument, "a contact sheet needs one caption for each picture")
        }
        #if os(Linux)
            let cells = try pictures.indices.map { (index) throws(PreviewError) -> DecodedImage in
                let decoded = try Self.decode(
                    .bytes(pictures[index].bytes), width: cellSize, height: cellSize, exact: false, strict: false)
                let coloured = try decoded.derived("a thumbnail could not be converted") { albumkit_vips_colour($0) }
                guard let caption = captions?[index] else { return coloured }
                // Pango reads markup: a name's own `&`, `<` and `>` are text.
                let text = Self.escapingMarkup(caption.isEmpty ? " " : caption)
                return try coloured.derived("the caption “\(caption)” could not be set") {
                    albumkit_vips_captioned($0, text, font, Int32(cellSize))
                }
            }
            var pointers: [OpaquePointer?] = cells.map(\.pointer)
            let sheet = try withExtendedLifetime(cells) { () throws(PreviewError) -> DecodedImage in
                try DecodedImage.made("the contact sheet could not be laid out") {
                    albumkit_vips_join(&pointers, Int32(pointers.count), Int32(min(across, pointers.count)), Int32(gap))
                }
            }
            return try Self.encode(sheet, encoding)
        #else
            throw PreviewError(.decoderMissing, "AlbumKit loads libvips on Linux only")
        #endif
    }

    /// `text` with the characters Pango's markup gives a meaning to written as entities.
    ///
    /// ```swift
    /// PreviewRenderer.escapingMarkup("Tom & Jerry <1>")   // "Tom &amp; Jerry &lt;1&gt;"
    /// ```
    package static func escapingMarkup(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    private static func checkSide(_ side: Int, _ what: String) throws(PreviewError) {
        guard (1...largestSide).contains(side) else {
            throw PreviewError(.invalidArgument, "\(what) must be 1 to \(largestSide) pixels, not \(side)")
        }
    }

    #if os(Linux)
        private static func decode(_ source: PreviewSource, width: Int, height: Int, exact: Bool, strict: Bool)
            throws(PreviewError) -> DecodedImage
        {
            let fit = Int32(exact ? ALBUMKIT_VIPS_FIT_EXACT : ALBUMKIT_VIPS_FIT_DOWN)
            switch source {
            case .descriptor(let descriptor):
                return try DecodedImage.made("the picture could not be decoded") {
                    albumkit_vips_thumbnail_descriptor(descriptor, Int32(width), Int32(height), fit, strict ? 1 : 0)
                }
            case .bytes(let bytes):
                guard !bytes.isEmpty else { throw PreviewError(.undecodable, "the picture is empty") }
                // The image keeps no pointer into `bytes`: it is decoded into memory before the call
                // returns (`albumkit_vips_thumbnail_bytes`).
                return try DecodedImage.made("the picture could not be decoded") {
                    bytes.withUnsafeBytes { buffer in
                        albumkit_vips_thumbnail_bytes(
                            buffer.baseAddress, buffer.count, Int32(width), Int32(height), fit, strict ? 1 : 0)
                    }
                }
            }
        }

        /// `image` converted to sRGB and encoded; `what` names it in the error ("the picture").
        static func encodeDisplayed(_ image: DecodedImage, _ encoding: PreviewEncoding, what: String)
            throws(PreviewError) -> RenderedPreview
        {
            let shown = try image.derived("\(what) could not be converted to sRGB") { albumkit_vips_displayable($0) }
            return try encode(shown, encoding)
        }

        static func encode(_ image: DecodedImage, _ encoding: PreviewEncoding) throws(PreviewError)
            -> RenderedPreview
        {
            switch encoding {
            case .jpeg(let quality):
                let bytes = try image.bytes("the JPEG could not be written") {
                    albumkit_vips_jpeg($0, Int32(min(100, max(1, quality))), &$1, &$2)
                }
                return RenderedPreview(bytes: bytes, pixelWidth: image.width, pixelHeight: image.height, format: .jpeg)
            case .png(let text):
                let entries = text.sorted { $0.key < $1.key }
                let bytes = try withCStrings(entries.map(\.key)) { keys throws(PreviewError) in
                    try withCStrings(entries.map(\.value)) { values throws(PreviewError) in
                        try image.bytes("the PNG could not be written") {
                            albumkit_vips_png($0, keys, values, Int32(entries.count), &$1, &$2)
                        }
                    }
                }
                return RenderedPreview(bytes: bytes, pixelWidth: image.width, pixelHeight: image.height, format: .png)
            }
        }

        /// `strings` as an array of C strings alive for `body`.
        private static func withCStrings<T>(
            _ strings: [String], _ body: ([UnsafePointer<CChar>?]) throws(PreviewError) -> T
        ) throws(PreviewError) -> T {
            let copies = strings.map { strdup($0) }
            defer { copies.forEach { free($0) } }
            return try body(copies.map { UnsafePointer($0) })
        }
    #endif
}
