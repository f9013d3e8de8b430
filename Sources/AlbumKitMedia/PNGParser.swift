/// Walks the chunks of a PNG, verifying every chunk's CRC, and reads IHDR, the eXIf chunk, the XMP
/// packet (`iTXt` with keyword `XML:com.adobe.xmp`, uncompressed) and APNG's `acTL`.
///
/// A PNG must start with IHDR and end with IEND; data after IEND is ignored.
struct PNGParser {
    let reader: ByteReader

    func parse() throws(MediaInspectionError) -> MediaMetadata {
        var metadata = MediaMetadata(format: .png)
        var exif: EXIFInfo?
        var xmp: XMPPacket?
        var offset: UInt64 = 8
        var index = 0
        while true {
            guard let header = try reader.bytes(at: offset, count: 8) else {
                throw .cutShort("PNG ends before its image does (no IEND chunk)", present: reader.size, expected: nil)
            }
            let length = UInt64(header.u32(0))
            let type = header.fourCC(4)
            guard header[4...7].allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw MediaInspectionError(.corrupt, "PNG chunk at offset \(offset) has an invalid type")
            }
            guard length <= 0x7FFF_FFFF, reader.contains(offset + 8, length + 4) else {
                let reason = "PNG chunk \(type) at offset \(offset) runs past the end of the file"
                guard length <= 0x7FFF_FFFF else { throw MediaInspectionError(.corrupt, reason) }
                throw .cutShort(reason, present: reader.size, expected: offset + 12 + length)
            }
            if index == 0 && (type != "IHDR" || length != 13) {
                throw MediaInspectionError(.corrupt, "PNG does not start with an IHDR chunk")
            }
            var crc = CRC32()
            crc.update(Array(header[4...7]))
            var data: [UInt8] = []
            let small = length <= UInt64(ByteReader.maxRead)
            let keep =
                type == "IHDR" || (type == "eXIf" && exif == nil && small) || (type == "iTXt" && xmp == nil && small)
                || type == "acTL"
            var position = offset + 8
            let end = position + length
            while position < end {
                let count = Int(min(UInt64(64 << 10), end - position))
                let bytes = try reader.require(at: position, count: count, what: "PNG chunk \(type)")
                crc.update(bytes)
                if keep { data += bytes }
                position += UInt64(count)
            }
            let stored = try reader.require(at: end, count: 4, what: "PNG chunk \(type) CRC").u32(0)
            guard stored == crc.value else {
                throw MediaInspectionError(.corrupt, "PNG chunk \(type) has a bad CRC")
            }
            switch type {
            case "IHDR":
                let width = Int(data.u32(0))
                let height = Int(data.u32(4))
                guard width > 0, height > 0 else {
                    throw MediaInspectionError(.corrupt, "PNG header has a zero width or height")
                }
                metadata.width = width
                metadata.height = height
            case "eXIf" where exif == nil:
                var tiff = TIFFReader(ByteReader(BufferByteSource(bytes: data)), strict: false)
                // EXIF details are extras: a damaged block leaves them out (the image itself is checked).
                exif = try? tiff.read()
            case "iTXt" where xmp == nil:
                // Keyword "XML:com.adobe.xmp", then compression flag and method, language and translated keyword.
                let keyword = Array("XML:com.adobe.xmp\0".utf8)
                if data.starts(with: keyword, at: 0), data.count > keyword.count + 2, data[keyword.count] == 0 {
                    var i = keyword.count + 2
                    for _ in 0..<2 where i <= data.count { i = (data[i...].firstIndex(of: 0) ?? data.count) + 1 }
                    if i < data.count { xmp = XMPPacket(Array(data[i...])) }
                }
            case "acTL":
                // An animated PNG (APNG) with more than one frame.
                metadata.isAnimated = data.u32(0) > 1
            case "IEND":
                if end + 4 < reader.size {
                    // libpng and ffmpeg stop at IEND; pngcheck reports the rest.
                    reader.warn("PNG has \(reader.size - end - 4) bytes after its IEND chunk; they are ignored")
                }
                if exif != nil || xmp != nil {
                    var info = exif ?? EXIFInfo()
                    info.merge(xmp)
                    info.apply(to: &metadata)
                    metadata.setSize(width: metadata.width, height: metadata.height, orientation: exif?.orientation)
                }
                return metadata
            default:
                break
            }
            offset = end + 4
            index += 1
        }
    }
}
