/// Checks the RIFF container of a WebP and reads the size from VP8X, VP8 or VP8L, the EXIF and XMP
/// chunks, and whether it has more than one animation frame (`ANMF`).
struct WebPParser {
    static let maxChunks = 100_000
    let reader: ByteReader

    func parse() throws(MediaInspectionError) -> MediaMetadata {
        var metadata = MediaMetadata(format: .webp)
        let header = try reader.require(at: 0, count: 12, what: "WebP header")
        let riffEnd = 8 + UInt64(header.u32(4, bigEndian: false))
        guard riffEnd >= 12 else { throw MediaInspectionError(.corrupt, "WebP RIFF size is too small") }
        guard riffEnd <= reader.size else {
            throw .cutShort(
                "WebP RIFF size (\(riffEnd) bytes) runs past the end of the file", present: reader.size,
                expected: riffEnd)
        }
        var offset: UInt64 = 12
        var canvas: (Int, Int)?
        var frame: (Int, Int)?
        var hasImage = false
        var exif: EXIFInfo?
        var xmp: XMPPacket?
        var frames = 0
        var index = 0
        while offset < riffEnd {
            guard index < Self.maxChunks else { throw MediaInspectionError(.corrupt, "WebP has too many chunks") }
            guard let chunk = try reader.bytes(at: offset, count: 8), offset + 8 <= riffEnd else {
                throw MediaInspectionError(
                    .corrupt, "WebP chunk header at offset \(offset) runs past the end of the file")
            }
            let type = chunk.fourCC(0)
            let length = UInt64(chunk.u32(4, bigEndian: false))
            let payload = offset + 8
            guard payload + length <= riffEnd else {
                throw MediaInspectionError(
                    .corrupt, "WebP chunk \(type.trimmingSpaces) at offset \(offset) runs past the end of the file")
            }
            if index == 0 && !["VP8 ", "VP8L", "VP8X"].contains(type) {
                throw MediaInspectionError(.corrupt, "WebP does not start with an image chunk")
            }
            switch type {
            case "VP8X":
                let data = try reader.require(at: payload, count: 10, what: "WebP VP8X chunk")
                canvas = (Int(data.u24le(4)) + 1, Int(data.u24le(7)) + 1)
            case "VP8 ":
                let data = try reader.require(at: payload, count: min(Int(length), 10), what: "WebP VP8 chunk")
                guard data.count == 10, data[3] == 0x9D, data[4] == 0x01, data[5] == 0x2A else {
                    throw MediaInspectionError(.corrupt, "WebP VP8 chunk has no key frame header")
                }
                frame =
                    frame ?? (Int(data.u16(6, bigEndian: false) & 0x3FFF), Int(data.u16(8, bigEndian: false) & 0x3FFF))
                hasImage = true
            case "VP8L":
                let data = try reader.require(at: payload, count: min(Int(length), 5), what: "WebP VP8L chunk")
                guard data.count == 5, data[0] == 0x2F else {
                    throw MediaInspectionError(.corrupt, "WebP VP8L chunk has no lossless signature")
                }
                let bits = data.u32(1, bigEndian: false)
                frame = frame ?? (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
                hasImage = true
            case "ANMF":
                hasImage = true
                frames += 1
            case "XMP " where xmp == nil:
                let data = try reader.require(
                    at: payload, count: Int(min(length, UInt64(XMPPacket.maxBytes))), what: "WebP XMP chunk")
                xmp = XMPPacket(data)
            case "EXIF" where exif == nil && length <= UInt64(ByteReader.maxRead):
                var data = try reader.require(at: payload, count: Int(length), what: "WebP EXIF chunk")
                if data.starts(with: Array("Exif\0\0".utf8), at: 0) { data.removeFirst(6) }
                var tiff = TIFFReader(ByteReader(BufferByteSource(bytes: data)), strict: false)
                // EXIF details are extras: a damaged block leaves them out (the image itself is checked).
                exif = try? tiff.read()
            default:
                break
            }
            offset = payload + length + (length & 1)
            index += 1
        }
        guard hasImage else { throw MediaInspectionError(.corrupt, "WebP has no image data") }
        let size = canvas ?? frame
        if exif != nil || xmp != nil {
            var info = exif ?? EXIFInfo()
            info.merge(xmp)
            info.apply(to: &metadata)
        }
        metadata.isAnimated = frames > 1
        metadata.setSize(width: size?.0, height: size?.1, orientation: exif?.orientation)
        return metadata
    }
}
