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
