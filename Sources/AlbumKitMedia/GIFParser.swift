/// Walks the blocks of a GIF (extensions and images with their sub-blocks) to the trailer.
struct GIFParser {
    let reader: ByteReader

    func parse() throws(MediaInspectionError) -> MediaMetadata {
        var metadata = MediaMetadata(format: .gif)
        let screen = try reader.require(at: 6, count: 7, what: "GIF screen descriptor")
        metadata.width = Int(screen.u16(0, bigEndian: false))
        metadata.height = Int(screen.u16(2, bigEndian: false))
        var offset: UInt64 = 13
        if screen[4] & 0x80 != 0 { offset += 3 << (UInt64(screen[4] & 7) + 1) }
        var images = 0
        while true {
            guard let introducer = try reader.byte(at: offset) else {
                throw MediaInspectionError(.corrupt, "GIF has no trailer (the file is cut short at offset \(offset))")
            }
            switch introducer {
            case 0x3B:
                guard images > 0 else { throw MediaInspectionError(.corrupt, "GIF has no image") }
                return metadata
            case 0x21:
                offset = try skipSubBlocks(from: offset + 2)
            case 0x2C:
                let descriptor = try reader.require(at: offset + 1, count: 9, what: "GIF image descriptor")
                offset += 10
                if descriptor[8] & 0x80 != 0 { offset += 3 << (UInt64(descriptor[8] & 7) + 1) }
                offset = try skipSubBlocks(from: offset + 1)  // after the LZW minimum code size
                images += 1
            default:
                throw MediaInspectionError(
                    .corrupt, "GIF has an unknown block 0x\(String(introducer, radix: 16)) at offset \(offset)")
            }
        }
    }

    /// Skips data sub-blocks up to and including the zero-length terminator.
    private func skipSubBlocks(from start: UInt64) throws(MediaInspectionError) -> UInt64 {
        var offset = start
        while true {
            guard let length = try reader.byte(at: offset) else {
                throw MediaInspectionError(.corrupt, "GIF has no trailer (the file is cut short at offset \(offset))")
            }
            offset += 1 + UInt64(length)
            if length == 0 { return offset }
        }
    }
}
