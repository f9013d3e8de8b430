/// The small JPEG preview a camera or editor stored inside a photo: the EXIF thumbnail (IFD1)
/// of a JPEG, TIFF, DNG or TIFF-based raw file.
///
/// Found without decoding any pixels, so it works where no image library is installed. PNG, GIF,
/// WebP, BMP, HEIF and videos give none: a HEIF file's `thmb` item is HEVC-coded, not JPEG, and
/// is not returned.
///
/// ```swift
/// if let thumbnail = try MediaInspector().embeddedThumbnail(BufferByteSource(bytes: photoBytes)) {
///     print(thumbnail.width, thumbnail.height, thumbnail.jpeg.count)
/// }
/// ```
public struct EmbeddedThumbnail: Sendable, Hashable {
    /// The thumbnail's JPEG file, as stored.
    public var jpeg: [UInt8]
    /// Its width in pixels, as stored (EXIF thumbnails are not rotated by the orientation tag).
    public var width: Int
    /// Its height in pixels, as stored.
    public var height: Int

    /// Creates a thumbnail from its JPEG bytes and pixel size.
    ///
    /// ```swift
    /// let thumbnail = EmbeddedThumbnail(jpeg: bytes, width: 160, height: 120)
    /// ```
    public init(jpeg: [UInt8], width: Int, height: Int) {
        self.jpeg = jpeg
        self.width = width
        self.height = height
    }
}

extension MediaInspector {
    /// The EXIF thumbnail stored in `source`, or `nil` when it has none (or a format that keeps
    /// none: PNG, GIF, WebP, BMP, HEIF, video).
    ///
    /// A thumbnail whose bytes are not a whole JPEG with a frame size counts as none.
    ///
    /// ```swift
    /// let thumbnail = try MediaInspector().embeddedThumbnail(BufferByteSource(bytes: bytes))
    /// thumbnail?.width   // 160
    /// ```
    ///
    /// - Throws: ``MediaInspectionError`` with kind `.unreadable` when the source fails to read.
    public func embeddedThumbnail(_ source: some ByteSource) throws(MediaInspectionError) -> EmbeddedThumbnail? {
        let reader = ByteReader(source)
        guard reader.size > 0 else { return nil }
        let head = try reader.bytes(at: 0, count: Int(min(reader.size, 512))) ?? []
        let jpeg: [UInt8]?
        switch Self.sniff(head) {
        case .jpeg: jpeg = try Self.exifThumbnailOfJPEG(reader)
        case .tiff:
            var tiff = TIFFReader(reader, strict: false)
            guard let range = try Self.thumbnailRange(&tiff) else { return nil }
            jpeg = try reader.bytes(at: range.offset, count: range.count)
        default: return nil
        }
        guard let jpeg, Self.sniff(Array(jpeg.prefix(512))) == .jpeg else { return nil }
        let thumbnailReader = ByteReader(BufferByteSource(bytes: jpeg))
        // A thumbnail that does not parse as a JPEG is no thumbnail: the photo itself is not at fault.
        guard let metadata = try? JPEGParser(reader: thumbnailReader).parse(), let width = metadata.width,
            let height = metadata.height
        else { return nil }
        return EmbeddedThumbnail(jpeg: jpeg, width: width, height: height)
    }

    /// Every JPEG preview stored in `source`, as stored: a JPEG's EXIF thumbnail and the images its
    /// MPF segment lists (cameras store a 1–2 megapixel preview there), and the previews of a TIFF,
    /// DNG or TIFF-based raw file (IFD0, IFD1 and the SubIFDs). Each is a whole JPEG with a frame
    /// size; anything else counts as none. Empty for other formats.
    ///
    /// ```swift
    /// let largest = try MediaInspector().embeddedPreviews(source).max { $0.width < $1.width }
    /// ```
    ///
    /// - Throws: ``MediaInspectionError`` with kind `.unreadable` when the source fails to read.
    public func embeddedPreviews(_ source: some ByteSource) throws(MediaInspectionError) -> [EmbeddedThumbnail] {
        let reader = ByteReader(source)
        guard reader.size > 0 else { return [] }
        let head = try reader.bytes(at: 0, count: Int(min(reader.size, 512))) ?? []
        var found: [[UInt8]] = []
        switch Self.sniff(head) {
        case .jpeg:
            if let exif = try Self.exifThumbnailOfJPEG(reader) { found.append(exif) }
            for range in try Self.mpfRanges(reader) {
                if let bytes = try reader.bytes(at: range.offset, count: range.count) { found.append(bytes) }
            }
        case .tiff:
            var tiff = TIFFReader(reader, strict: false)
            let ranges: [(offset: UInt64, count: Int)]
            do { ranges = try tiff.previewRanges() } catch  where error.kind == .unreadable { throw error } catch {
                ranges = []
            }
            for range in ranges {
                if let bytes = try reader.bytes(at: range.offset, count: range.count) { found.append(bytes) }
            }
        default: return []
        }
        return found.compactMap(Self.wholeJPEG)
    }

    /// `jpeg` with its frame size when it is a JPEG that parses; `nil` otherwise.
    private static func wholeJPEG(_ jpeg: [UInt8]) -> EmbeddedThumbnail? {
        guard sniff(Array(jpeg.prefix(512))) == .jpeg else { return nil }
        // A preview that does not parse as a JPEG is no preview: the photo itself is not at fault.
        guard let metadata = try? JPEGParser(reader: ByteReader(BufferByteSource(bytes: jpeg))).parse(),
            let width = metadata.width, let height = metadata.height, width > 0, height > 0
        else { return nil }
        return EmbeddedThumbnail(jpeg: jpeg, width: width, height: height)
    }

    /// The ranges of the images after the first that a JPEG's MPF segment (APP2 "MPF\0", CIPA
    /// DC-007) lists: each entry's size and offset, the offset counted from the segment's TIFF
    /// header. Entries outside the file are left out.
    private static func mpfRanges(_ reader: ByteReader) throws(MediaInspectionError) -> [(offset: UInt64, count: Int)] {
        var offset: UInt64 = 2
        for _ in 0..<JPEGParser.maxSegments {
            guard let header = try reader.bytes(at: offset, count: 4), header[0] == 0xFF else { return [] }
            let marker = header[1]
            guard marker != 0xDA, marker != 0xD9 else { return [] }
            let length = UInt64(header.u16(2))
            guard length >= 2 else { return [] }
            if marker == 0xE2, length > 16, let data = try reader.bytes(at: offset + 4, count: Int(length) - 2),
                data.starts(with: Array("MPF\0".utf8), at: 0)
            {
                return mpfEntries(Array(data[4...]), tiffStart: offset + 8, fileSize: reader.size)
            }
            offset += 2 + length
        }
        return []
    }

    /// The MP entries (tag 0xB002) of an MPF index IFD in `tiff`.
    private static func mpfEntries(_ tiff: [UInt8], tiffStart: UInt64, fileSize: UInt64) -> [(
        offset: UInt64, count: Int
    )] {
        guard tiff.count >= 8 else { return [] }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return []
        }
        let ifd = Int(tiff.u32(4, bigEndian: bigEndian))
        guard ifd + 2 <= tiff.count else { return [] }
        let count = Int(tiff.u16(ifd, bigEndian: bigEndian))
        for index in 0..<min(count, 64) {
            let entry = ifd + 2 + index * 12
            guard entry + 12 <= tiff.count else { return [] }
            guard tiff.u16(entry, bigEndian: bigEndian) == 0xB002 else { continue }
            let size = Int(tiff.u32(entry + 4, bigEndian: bigEndian))
            let at = Int(tiff.u32(entry + 8, bigEndian: bigEndian))
            guard size % 16 == 0, at >= 0, at + size <= tiff.count else { return [] }
            return stride(from: at, to: at + size, by: 16).compactMap { image in
                let length = UInt64(tiff.u32(image + 4, bigEndian: bigEndian))
                let relative = UInt64(tiff.u32(image + 8, bigEndian: bigEndian))
                // Offset 0 is the first image: the photo itself.
                guard relative != 0, length > 0, length <= UInt64(TIFFReader.maxThumbnailBytes) else { return nil }
                let start = tiffStart + relative
                guard start + length <= fileSize else { return nil }
                return (start, Int(length))
            }
        }
        return []
    }

    /// IFD1's range, or `nil` for a header this lenient read cannot use (no thumbnail then).
    private static func thumbnailRange(_ tiff: inout TIFFReader) throws(MediaInspectionError) -> (
        offset: UInt64, count: Int
    )? {
        do {
            return try tiff.thumbnailRange()
        } catch  where error.kind == .unreadable {
            throw error
        } catch {
            return nil
        }
    }

    /// The EXIF thumbnail in a JPEG's APP1 segment: walks the segments before the first scan.
    private static func exifThumbnailOfJPEG(_ reader: ByteReader) throws(MediaInspectionError) -> [UInt8]? {
        var offset: UInt64 = 2
        for _ in 0..<JPEGParser.maxSegments {
            guard let header = try reader.bytes(at: offset, count: 4), header[0] == 0xFF else { return nil }
            let marker = header[1]
            guard marker != 0xDA, marker != 0xD9 else { return nil }
            let length = UInt64(header.u16(2))
            guard length >= 2 else { return nil }
            if marker == 0xE1, length > 16, let data = try reader.bytes(at: offset + 4, count: Int(length) - 2),
                data.starts(with: Array("Exif\0".utf8), at: 0)
            {
                let exif = ByteReader(BufferByteSource(bytes: Array(data[6...])))
                var tiff = TIFFReader(exif, strict: false)
                guard let range = try thumbnailRange(&tiff) else { return nil }
                return try exif.bytes(at: range.offset, count: range.count)
            }
            offset += 2 + length
        }
        return nil
    }
}
