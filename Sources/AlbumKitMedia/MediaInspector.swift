/// Identifies, validates and reads the metadata of a photo or video from its bytes.
///
/// The format comes from the content (magic numbers, `ftyp` brands, box and chunk structure),
/// never from a file name. Only headers are read: a 2 GB movie costs a few kilobytes.
///
/// ```swift
/// let metadata = try MediaInspector().inspect(BufferByteSource(bytes: bytes))
/// metadata.format   // .jpeg
/// metadata.width    // 4032 (as displayed, after EXIF orientation)
/// ```
public struct MediaInspector: Sendable {
    /// Creates an inspector.
    ///
    /// ```swift
    /// let inspector = MediaInspector()
    /// ```
    public init() {}

    /// Identifies `source`, checks its structure and reads its metadata, without decoding pixels.
    ///
    /// ```swift
    /// let counting = CountingByteSource(BufferByteSource(bytes: bytes))
    /// let metadata = try MediaInspector().inspect(counting)
    /// print(metadata.format, counting.bytesRead)
    /// ```
    ///
    /// - Throws: ``MediaInspectionError`` with kind `.notMedia` (not a photo or video),
    ///   `.corrupt` (a known format whose structure is broken or cut short) or `.unreadable`
    ///   (the source failed to read).
    public func inspect(_ source: some ByteSource) throws(MediaInspectionError) -> MediaMetadata {
        let reader = ByteReader(source)
        var metadata = try inspect(reader)
        metadata.warnings += reader.warnings
        return metadata
    }

    private func inspect(_ reader: ByteReader) throws(MediaInspectionError) -> MediaMetadata {
        guard reader.size > 0 else { throw MediaInspectionError(.notMedia, "the file is empty") }
        let head = try reader.bytes(at: 0, count: Int(min(reader.size, 512))) ?? []
        guard let family = Self.sniff(head) else {
            throw MediaInspectionError(.notMedia, "its content matches no photo or video format")
        }
        switch family {
        case .jpeg: return try JPEGParser(reader: reader).parse()
        case .png: return try PNGParser(reader: reader).parse()
        case .gif: return try GIFParser(reader: reader).parse()
        case .webp: return try WebPParser(reader: reader).parse()
        case .bmp: return try BMPParser(reader: reader).parse()
        case .raf: return try RAFParser(reader: reader).parse()
        case .isoMedia: return try ISOBMFFParser(reader).parse()
        case .tiff: return try Self.inspectTIFF(reader, head: head)
        case .matroska:
            var parser = MatroskaParser(reader: reader)
            return try parser.parse()
        case .avi:
            var parser = AVIParser(reader: reader)
            return try parser.parse()
        case .transportStream(let packetSize, let syncOffset):
            return try MPEGTSParser(reader: reader, packetSize: packetSize, syncOffset: syncOffset).parse()
        }
    }

    /// The parser families, as told by the first bytes.
    enum Family: Equatable {
        case jpeg, png, gif, webp, bmp, tiff, raf, isoMedia, matroska, avi
        case transportStream(packetSize: Int, syncOffset: Int)
    }

    /// Identifies a parser family from the first bytes (up to 512).
    static func sniff(_ b: [UInt8]) -> Family? {
        if b.starts(with: [0xFF, 0xD8, 0xFF], at: 0) { return .jpeg }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], at: 0) { return .png }
        if b.starts(with: "GIF87a".bytes, at: 0) || b.starts(with: "GIF89a".bytes, at: 0) { return .gif }
        if b.starts(with: "RIFF".bytes, at: 0) && b.starts(with: "WEBP".bytes, at: 8) { return .webp }
        let tiffMagics: [[UInt8]] = [
            [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A],  // TIFF
            Array("IIRO".utf8), Array("IIRS".utf8), Array("MMOR".utf8),  // Olympus ORF
            [0x49, 0x49, 0x55, 0x00],  // Panasonic RW2
        ]
        if tiffMagics.contains(where: { b.starts(with: $0, at: 0) }) { return .tiff }
        if b.starts(with: [0x49, 0x49, 0x2B, 0x00], at: 0) || b.starts(with: [0x4D, 0x4D, 0x00, 0x2B], at: 0) {
            return .tiff  // BigTIFF
        }
        if b.starts(with: RAFParser.magic, at: 0) { return .raf }
        if b.starts(with: "BM".bytes, at: 0), [12, 40, 52, 56, 64, 108, 124].contains(b.u32(14, bigEndian: false)) {
            return .bmp
        }
        let boxTypes = ["ftyp", "moov", "mdat", "wide", "free", "skip", "pnot"]
        if b.count >= 8, boxTypes.contains(b.fourCC(4)) {
            let size = b.u32(0)
            if size == 0 || size == 1 || size >= 8 { return .isoMedia }
        }
        if b.starts(with: [0x1A, 0x45, 0xDF, 0xA3], at: 0) { return .matroska }
        if b.starts(with: "RIFF".bytes, at: 0) && b.starts(with: "AVI ".bytes, at: 8) { return .avi }
        if let layout = MPEGTSParser.layout(of: b) {
            return .transportStream(packetSize: layout.packetSize, syncOffset: layout.syncOffset)
        }
        return nil
    }

    /// TIFF or BigTIFF, DNG (DNGVersion tag) or camera raw (CR2 signature, ORF/RW2 magic, CFA/linear raw data).
    static func inspectTIFF(_ reader: ByteReader, head: [UInt8]) throws(MediaInspectionError) -> MediaMetadata {
        var tiff = TIFFReader(reader, strict: true)
        let info = try tiff.read()
        let isCR2 = head.starts(with: "CR".bytes, at: 8) && head.u16(2, bigEndian: head[0] == 0x4D) == 42
        let plainTIFF: [[UInt8]] = [
            [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A], [0x49, 0x49, 0x2B, 0x00], [0x4D, 0x4D, 0x00, 0x2B],
        ]
        let isOtherRaw = !plainTIFF.contains { head.starts(with: $0, at: 0) }
        let format: MediaFormat = info.isDNG ? .dng : (isCR2 || isOtherRaw || info.hasRawData) ? .raw : .tiff
        var metadata = MediaMetadata(format: format)
        info.apply(to: &metadata)
        metadata.setSize(width: info.width, height: info.height, orientation: info.orientation)
        return metadata
    }
}
