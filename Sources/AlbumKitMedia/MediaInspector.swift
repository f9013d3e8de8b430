/// Identifies, validates and reads the metadata of a photo or video from its bytes.
///
/// ```swift
/// let metadata = try MediaInspector().inspect(BufferByteSource(bytes: bytes))
/// metadata.format   // .jpeg
/// ```
public struct MediaInspector: Sendable {
    /// Creates an inspector.
    public init() {}

    /// Inspects `source`.
    ///
    /// - Throws: ``MediaInspectionError`` with kind `.notMedia` (not a photo or video) or
    ///   `.corrupt` (a known format with broken structure).
    public func inspect(_ source: some ByteSource) throws(MediaInspectionError) -> MediaMetadata {
        let head: [UInt8]
        do { head = try source.read(at: 0, count: 64) } catch {
            throw MediaInspectionError(.unreadable, "\(error)")
        }
        if head.isEmpty { throw MediaInspectionError(.notMedia, "the file is empty") }
        guard let format = Self.sniff(head) else {
            throw MediaInspectionError(.notMedia, "not a photo or video (unrecognized content)")
        }
        return MediaMetadata(format: format)
    }

    /// Identifies a format from the first bytes (at least 12 are needed for ISO-BMFF/RIFF).
    static func sniff(_ b: [UInt8]) -> MediaFormat? {
        func at(_ i: Int, _ bytes: [UInt8]) -> Bool {
            b.count >= i + bytes.count && Array(b[i..<i + bytes.count]) == bytes
        }
        if at(0, [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if at(0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if at(0, Array("GIF87a".utf8)) || at(0, Array("GIF89a".utf8)) { return .gif }
        if at(0, Array("RIFF".utf8)) && at(8, Array("WEBP".utf8)) { return .webp }
        if at(0, [0x49, 0x49, 0x2A, 0x00]) || at(0, [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if at(0, Array("BM".utf8)) && b.count >= 14 { return .bmp }
        if at(4, Array("ftyp".utf8)), b.count >= 12 {
            switch String(decoding: b[8..<12], as: UTF8.self) {
            case "heic", "heix", "heim", "heis", "hevc", "hevx": return .heic
            case "mif1", "msf1": return .heif
            case "avif", "avis": return .avif
            case "qt  ": return .mov
            case "M4V ", "M4VH", "M4VP": return .m4v
            case let brand where brand.hasPrefix("3g"): return .threeGP
            default: return .mp4
            }
        }
        if at(4, Array("moov".utf8)) || at(4, Array("mdat".utf8)) || at(4, Array("wide".utf8)) { return .mov }
        return nil
    }
}
